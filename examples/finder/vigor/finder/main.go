// Command finder is an example Vigor plugin: a finder of lines in the
// listed buffers. :Find [query] shows the lines that hold the query in a
// popup and filters them in Go as the user types it; <CR> jumps to the
// first match (marked "> "), <Esc> closes the popup. lazy.json declares
// :Find, so the plugin starts when :Find is first used.
//
// The flow: :Find reads the listed buffers' lines in one batch, opens the
// popup and asks for the query with input(); while the user types, a
// CmdlineChanged autocmd sends the command line to the filter, a Go
// closure registered with std/lambda for this :Find, which filters (see
// Filter for the ranking) and sets the popup's lines. When input()
// returns, the autocmd and the closure go, the cursor goes to the match
// and the popup closes.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync/atomic"

	"github.com/vigorvim/vigor"
	"github.com/vigorvim/vigor/std/autocmd"
	"github.com/vigorvim/vigor/std/buffer"
	"github.com/vigorvim/vigor/std/command"
	"github.com/vigorvim/vigor/std/fn"
	"github.com/vigorvim/vigor/std/helper"
	"github.com/vigorvim/vigor/std/lambda"
	"github.com/vigorvim/vigor/std/popup"
)

// shown is how many matches the popup shows.
const shown = 10

// group is the autocmd group of the filter while a :Find runs.
const group = "finder"

func main() {
	vigor.Main(func(ctx context.Context, p *vigor.Plugin) error {
		f := &finder{p: p}
		p.Handle("find", f.find)
		return command.Define(ctx, p, "Find", command.Options{Nargs: "?"}, func(ctx context.Context, a command.Args) error {
			return f.find(ctx, a.Args)
		})
	})
}

// finder runs one :Find at a time.
type finder struct {
	p *vigor.Plugin
	// running is set from the start of a :Find to its end, by find alone.
	running atomic.Bool
}

// find runs :Find: it asks for the query, starting from query, and jumps
// to the best match of the answer.
func (f *finder) find(ctx context.Context, query string) error {
	if !f.running.CompareAndSwap(false, true) {
		return errors.New("a :Find is running")
	}
	defer f.running.Store(false)
	p := f.p

	lines, err := readListed(ctx, p)
	if err != nil {
		return err
	}
	id, err := popup.Open(ctx, p, popup.Options{
		Position: popup.Position{Row: 1, Col: 2},
		Size:     popup.Size{MinWidth: 40, MaxWidth: 80},
		Border:   popup.Rounded,
		Title:    "Find",
		Lines:    view(Filter(lines, query, shown)),
	})
	if err != nil {
		return err
	}
	defer popup.Close(context.WithoutCancel(ctx), p, id)

	// The filter: the matches of the command line in the popup, as the
	// user types.
	filter := lambda.Register(p, func(ctx context.Context, query string) error {
		return popup.SetLines(ctx, p, id, view(Filter(lines, query, shown)))
	})
	defer filter.Unregister()
	err = autocmd.Group(ctx, p, group, func(g *autocmd.GroupDefs) error {
		return g.Define(autocmd.Def{
			Events:   []string{"CmdlineChanged"},
			Patterns: []string{"@"}, // input()'s command line
			Cmd:      "call " + filter.Request("getcmdline()"),
		})
	})
	if err != nil {
		return err
	}
	if err := p.Redraw(ctx, false); err != nil { // the popup, before input() takes the screen
		return err
	}
	answer, ok, err := helper.Input(ctx, p, helper.InputOptions{Prompt: "Find: ", Default: query})
	if rerr := autocmd.Remove(context.WithoutCancel(ctx), p, autocmd.Filter{Group: group}); err == nil {
		err = rerr
	}
	if err != nil || !ok {
		return err
	}
	ms := Filter(lines, answer, 1)
	if len(ms) == 0 {
		return helper.Echo(ctx, p, fmt.Sprintf("finder: no line holds %q", answer))
	}
	return jump(ctx, p, ms[0])
}

// view returns the popup's lines for ms, the first one selected.
func view(ms []Match) []string {
	if len(ms) == 0 {
		return []string{"  (no match)"}
	}
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = Format(m, i == 0)
	}
	return out
}

// readListed returns the lines of the listed buffers that have a name:
// those of a loaded buffer from the editor, in one round trip after the
// one that lists them, and those of a buffer that is not loaded (Vim
// unloads a buffer that it abandons, unless 'hidden' is set) from its
// file, decoded as the editor would read it. A file that cannot be read
// has no lines.
func readListed(ctx context.Context, p *vigor.Plugin) ([]Line, error) {
	infos, err := fn.GetbufinfoBuf(ctx, p, map[string]any{"buflisted": 1})
	if err != nil {
		return nil, err
	}
	type buf struct {
		nr     int
		name   string
		loaded bool
		lines  []string
	}
	var bufs []*buf
	for _, info := range infos {
		name, _ := info["name"].(string)
		if nr := toInt(info["bufnr"]); name != "" && nr > 0 {
			bufs = append(bufs, &buf{nr: nr, name: name, loaded: toInt(info["loaded"]) != 0})
		}
	}
	err = p.Batch(ctx, func(b *vigor.Batch) error {
		for _, bf := range bufs {
			if !bf.loaded {
				continue
			}
			if _, err := fn.GetbuflineEnd(ctx, b.Into(&bf.lines), bf.nr, 1, "$"); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	var lines []Line
	for _, bf := range bufs {
		if !bf.loaded {
			data, err := os.ReadFile(bf.name)
			if err != nil {
				continue
			}
			d, err := buffer.Decode(ctx, p, data, buffer.DecodeOptions{})
			if err != nil {
				return nil, err
			}
			bf.lines = d.Lines
		}
		for i, text := range bf.lines {
			lines = append(lines, Line{Buf: bf.nr, Name: bf.name, Lnum: i + 1, Text: text})
		}
	}
	return lines, nil
}

// jump puts the cursor on m: in the window that shows its buffer, else in
// the current window.
func jump(ctx context.Context, p *vigor.Plugin, m Match) error {
	win, err := fn.Bufwinid(ctx, p, m.Buf)
	if err != nil {
		return err
	}
	if win > 0 {
		_, err = fn.WinGotoid(ctx, p, win)
	} else {
		_, err = buffer.Open(ctx, p, m.Name, buffer.OpenOptions{})
	}
	if err != nil {
		return err
	}
	_, err = fn.CursorCol(ctx, p, m.Lnum, m.Col+1)
	return err
}

// toInt returns the Number v as an int, 0 if it is none.
func toInt(v any) int {
	switch n := v.(type) {
	case int:
		return n
	case int64:
		return int(n)
	case uint64:
		return int(n)
	case float64:
		return int(n)
	}
	return 0
}
