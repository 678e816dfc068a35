// Command stdpopup is the end-to-end tests' plugin for std/popup: each
// handler calls one function of the package, directly or in a batch, with
// the options given as a Dict whose keys are the Go field names.
package main

import (
	"context"
	"fmt"
	"sync"

	"github.com/vigorvim/vigor"
	"github.com/vigorvim/vigor/std/popup"
)

func main() {
	vigor.Main(setup)
}

func num(m map[string]any, k string) int {
	n, _ := m[k].(int64)
	return int(n)
}

func str(m map[string]any, k string) string {
	s, _ := m[k].(string)
	return s
}

func strs(m map[string]any, k string) []string {
	l, ok := m[k].([]any)
	if !ok {
		return nil
	}
	out := make([]string, len(l))
	for i, v := range l {
		out[i], _ = v.(string)
	}
	return out
}

func position(m map[string]any) popup.Position {
	return popup.Position{Relative: popup.Relative(num(m, "Relative")), Row: num(m, "Row"), Col: num(m, "Col"), Anchor: popup.Anchor(num(m, "Anchor"))}
}

func size(m map[string]any) popup.Size {
	return popup.Size{
		Width: num(m, "Width"), Height: num(m, "Height"), MinWidth: num(m, "MinWidth"),
		MinHeight: num(m, "MinHeight"), MaxWidth: num(m, "MaxWidth"), MaxHeight: num(m, "MaxHeight"),
	}
}

// closes records the popups whose OnClose ran, in order.
type closes struct {
	mu  sync.Mutex
	ids []int // guarded by mu
}

func (c *closes) add(id popup.ID) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ids = append(c.ids, int(id))
}

func (c *closes) list() []int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]int{}, c.ids...)
}

func setup(ctx context.Context, p *vigor.Plugin) error {
	var closed closes
	options := func(m map[string]any) popup.Options {
		o := popup.Options{
			Position: position(m), Size: size(m), Border: popup.Border(num(m, "Border")),
			BorderChars: strs(m, "BorderChars"), Title: str(m, "Title"),
			Highlight: str(m, "Highlight"), BorderHighlight: str(m, "BorderHighlight"), Lines: strs(m, "Lines"),
			ZIndex: num(m, "ZIndex"),
		}
		if num(m, "OnClose") != 0 {
			o.OnClose = func(ctx context.Context, id popup.ID) { closed.add(id) }
		}
		return o
	}
	// last is the popup that open opened last, for the notifications
	// setlast and closelast.
	var last struct {
		mu sync.Mutex
		id popup.ID // guarded by mu
	}
	p.Handle("open", func(ctx context.Context, m map[string]any) (popup.ID, error) {
		id, err := popup.Open(ctx, p, options(m))
		last.mu.Lock()
		defer last.mu.Unlock()
		last.id = id
		return id, err
	})
	lastID := func() popup.ID {
		last.mu.Lock()
		defer last.mu.Unlock()
		return last.id
	}
	p.Handle("setlast", func(ctx context.Context, lines []string) error {
		return popup.SetLines(ctx, p, lastID(), lines)
	})
	p.Handle("movelast", func(ctx context.Context, m map[string]any) error {
		return popup.Move(ctx, p, lastID(), position(m))
	})
	p.Handle("closelast", func(ctx context.Context) error {
		return popup.Close(ctx, p, lastID())
	})
	p.Handle("setlines", func(ctx context.Context, id popup.ID, lines []string) error {
		return popup.SetLines(ctx, p, id, lines)
	})
	p.Handle("move", func(ctx context.Context, id popup.ID, m map[string]any) error {
		return popup.Move(ctx, p, id, position(m))
	})
	p.Handle("resize", func(ctx context.Context, id popup.ID, m map[string]any) error {
		return popup.Resize(ctx, p, id, size(m))
	})
	p.Handle("settitle", func(ctx context.Context, id popup.ID, title string) error {
		return popup.SetTitle(ctx, p, id, title)
	})
	p.Handle("close", func(ctx context.Context, id popup.ID) error {
		return popup.Close(ctx, p, id)
	})
	p.Handle("isopen", func(ctx context.Context, id popup.ID) (bool, error) {
		return popup.IsOpen(ctx, p, id)
	})
	p.Handle("buffer", func(ctx context.Context, id popup.ID) (int, error) {
		return popup.Buffer(ctx, p, id)
	})
	p.Handle("closed", func() []int { return closed.list() })
	// batch opens a popup with m in one batch, and in a second one
	// changes it with every function and closes it; it returns what the
	// queries gave.
	p.Handle("batch", func(ctx context.Context, m map[string]any) (map[string]any, error) {
		var id popup.ID
		err := p.Batch(ctx, func(b *vigor.Batch) error {
			_, err := popup.Open(ctx, b.Into(&id), options(m))
			return err
		})
		if err != nil {
			return nil, err
		}
		var open, after bool
		var buf int
		var config map[string]any
		err = p.Batch(ctx, func(b *vigor.Batch) error {
			if err := popup.SetLines(ctx, b, id, []string{"batch one", "batch two"}); err != nil {
				return err
			}
			if err := popup.Move(ctx, b, id, popup.Position{Row: 3, Col: 4}); err != nil {
				return err
			}
			if err := popup.Resize(ctx, b, id, popup.Size{Width: 12, Height: 3}); err != nil {
				return err
			}
			if err := popup.SetTitle(ctx, b, id, "in batch"); err != nil {
				return err
			}
			if _, err := popup.IsOpen(ctx, b.Into(&open), id); err != nil {
				return err
			}
			if _, err := popup.Buffer(ctx, b.Into(&buf), id); err != nil {
				return err
			}
			if err := b.CallInto(ctx, &config, "stdpopup#config", id); err != nil {
				return err
			}
			if err := popup.Close(ctx, b, id); err != nil {
				return err
			}
			_, err := popup.IsOpen(ctx, b.Into(&after), id)
			return err
		})
		if err != nil {
			return nil, fmt.Errorf("the second batch: %w", err)
		}
		return map[string]any{"id": int(id), "open": open, "buffer": buf, "config": config, "after": after}, nil
	})
	return nil
}
