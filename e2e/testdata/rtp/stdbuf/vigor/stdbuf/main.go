// Command stdbuf is the end-to-end tests' plugin for std/buffer: each
// handler calls one function of the package, directly or in a batch.
package main

import (
	"context"
	"errors"

	"github.com/vigorvim/vigor"
	"github.com/vigorvim/vigor/std/buffer"
)

func main() {
	vigor.Main(setup)
}

func setup(ctx context.Context, p *vigor.Plugin) error {
	p.Handle("open", func(ctx context.Context, name string, o buffer.OpenOptions) (buffer.Opened, error) {
		return buffer.Open(ctx, p, name, o)
	})
	p.Handle("reload", func(ctx context.Context, bufnr int) error {
		return buffer.Reload(ctx, p, bufnr)
	})
	p.Handle("replace", func(ctx context.Context, bufnr int, lines []string) error {
		return buffer.Replace(ctx, p, bufnr, lines)
	})
	p.Handle("append", func(ctx context.Context, bufnr, after int, lines []string) error {
		return buffer.Append(ctx, p, bufnr, after, lines)
	})
	p.Handle("decode", func(ctx context.Context, data []byte, o buffer.DecodeOptions) (buffer.Decoded, error) {
		return buffer.Decode(ctx, p, data, o)
	})
	p.Handle("assign", func(ctx context.Context, bufnr int, data []byte, o buffer.DecodeOptions) (buffer.Decoded, error) {
		return buffer.Assign(ctx, p, bufnr, data, o)
	})
	// assignbatch is assign in a batch, with the 'fileformat' that the
	// batch reads after it.
	p.Handle("assignbatch", func(ctx context.Context, bufnr int, data []byte, o buffer.DecodeOptions) (map[string]any, error) {
		var d buffer.Decoded
		var ff string
		err := p.Batch(ctx, func(b *vigor.Batch) error {
			var err error
			if d, err = buffer.Assign(ctx, b, bufnr, data, o); err != nil {
				return err
			}
			return b.CallInto(ctx, &ff, "getbufvar", bufnr, "&fileformat")
		})
		return map[string]any{"decoded": d, "fileformat": ff}, err
	})
	// ensure runs cmd in the buffer bufnr and returns the buffer and
	// window that were current meanwhile; fail makes the function fail
	// after cmd.
	p.Handle("ensure", func(ctx context.Context, bufnr int, cmd string, fail bool) (map[string]int, error) {
		var in map[string]int
		err := buffer.Ensure(ctx, p, bufnr, func(ctx context.Context) error {
			if err := p.Cmd(ctx, cmd, nil); err != nil {
				return err
			}
			if err := p.EvalInto(ctx, &in, "{'bufnr': bufnr('%'), 'winid': win_getid()}", nil); err != nil {
				return err
			}
			if fail {
				return errors.New("failed on purpose")
			}
			return nil
		})
		return in, err
	})
	// ensurepanic panics inside Ensure of the buffer bufnr.
	p.Handle("ensurepanic", func(ctx context.Context, bufnr int) error {
		return buffer.Ensure(ctx, p, bufnr, func(ctx context.Context) error {
			panic("on purpose")
		})
	})
	// modifiable runs setline() in the buffer bufnr under the guard and
	// returns what 'modifiable' was meanwhile.
	p.Handle("modifiable", func(ctx context.Context, bufnr int, line string, fail bool) (bool, error) {
		var on bool
		err := buffer.Modifiable(ctx, p, bufnr, func(ctx context.Context) error {
			if err := p.CallInto(ctx, nil, "setbufline", bufnr, 1, line); err != nil {
				return err
			}
			if err := p.EvalInto(ctx, &on, "getbufvar(l:b, '&modifiable') ? v:true : v:false", map[string]any{"b": bufnr}); err != nil {
				return err
			}
			if fail {
				return errors.New("failed on purpose")
			}
			return nil
		})
		return on, err
	})
	p.Handle("decorate", func(ctx context.Context, bufnr int, ns string, ds []buffer.Decoration) error {
		return buffer.Decorate(ctx, p, bufnr, ns, ds)
	})
	p.Handle("decorations", func(ctx context.Context, bufnr int, ns string) ([]buffer.Decoration, error) {
		return buffer.Decorations(ctx, p, bufnr, ns)
	})
	p.Handle("clear", func(ctx context.Context, bufnr int, ns string) error {
		return buffer.Clear(ctx, p, bufnr, ns)
	})
	// batch opens name in a split and, in the same batch, fills it,
	// appends, decorates, lists the decorations, clears them, reloads
	// another buffer, and returns what it got.
	p.Handle("batch", func(ctx context.Context, name string, reload int) (map[string]any, error) {
		var o buffer.Opened
		var ds, after []buffer.Decoration
		err := p.Batch(ctx, func(b *vigor.Batch) error {
			if _, err := buffer.Open(ctx, b.Into(&o), name, buffer.OpenOptions{Opener: "split"}); err != nil {
				return err
			}
			if err := buffer.Replace(ctx, b, 0, []string{"a", "b"}); err != nil {
				return err
			}
			if err := buffer.Append(ctx, b, 0, buffer.End, []string{"c"}); err != nil {
				return err
			}
			if err := buffer.Decorate(ctx, b, 0, "batch", []buffer.Decoration{{Line: 3, Col: 1, Length: 1, Highlight: "Search"}}); err != nil {
				return err
			}
			if _, err := buffer.Decorations(ctx, b.Into(&ds), 0, "batch"); err != nil {
				return err
			}
			if err := buffer.Clear(ctx, b, 0, "batch"); err != nil {
				return err
			}
			if _, err := buffer.Decorations(ctx, b.Into(&after), 0, "batch"); err != nil {
				return err
			}
			return buffer.Reload(ctx, b, reload)
		})
		return map[string]any{"opened": o, "decorations": ds, "after": after}, err
	})
	// inbatch calls Ensure, Modifiable, or Decode or Assign of bytes that
	// iconv() converts, in a batch.
	p.Handle("inbatch", func(ctx context.Context, what string) error {
		return p.Batch(ctx, func(b *vigor.Batch) error {
			nop := func(context.Context) error { return nil }
			switch what {
			case "ensure":
				return buffer.Ensure(ctx, b, 0, nop)
			case "modifiable":
				return buffer.Modifiable(ctx, b, 0, nop)
			}
			o := buffer.DecodeOptions{Encodings: []string{"cp1252"}}
			if what == "assign" {
				_, err := buffer.Assign(ctx, b, 0, []byte{0xe9}, o)
				return err
			}
			_, err := buffer.Decode(ctx, b, []byte{0xe9}, o)
			return err
		})
	})
	return nil
}
