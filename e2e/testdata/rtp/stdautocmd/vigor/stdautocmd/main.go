// Command stdautocmd is the end-to-end tests' plugin for std/autocmd:
// each handler calls one function of the package, directly or in a
// batch, with its arguments from Vim script.
package main

import (
	"context"

	"github.com/vigorvim/vigor"
	"github.com/vigorvim/vigor/std/autocmd"
)

func main() {
	vigor.Main(setup)
}

func setup(ctx context.Context, p *vigor.Plugin) error {
	p.Handle("define", func(ctx context.Context, d autocmd.Def) error {
		return autocmd.Define(ctx, p, d)
	})
	p.Handle("remove", func(ctx context.Context, f autocmd.Filter) error {
		return autocmd.Remove(ctx, p, f)
	})
	p.Handle("list", func(ctx context.Context, f autocmd.Filter) ([]autocmd.Autocmd, error) {
		return autocmd.List(ctx, p, f)
	})
	p.Handle("emit", func(ctx context.Context, event, fname string) error {
		return autocmd.Emit(ctx, p, event, fname)
	})
	p.Handle("emitall", func(ctx context.Context, event, fname string) error {
		return autocmd.EmitAll(ctx, p, event, fname)
	})
	// group clears the group name and defines defs and removes removes
	// in it, in one call.
	p.Handle("group", func(ctx context.Context, name string, defs []autocmd.Def, removes []autocmd.Filter) error {
		return autocmd.Group(ctx, p, name, func(g *autocmd.GroupDefs) error {
			for _, d := range defs {
				if err := g.Define(d); err != nil {
					return err
				}
			}
			for _, f := range removes {
				if err := g.Remove(f); err != nil {
					return err
				}
			}
			return nil
		})
	})
	// batch runs, in one batch: Group of name with def, Emit of event
	// for fname, EmitAll of it, List of the group, Remove of the group's
	// autocommands and List again; it returns both lists.
	p.Handle("batch", func(ctx context.Context, name string, def autocmd.Def, event, fname string) (map[string]any, error) {
		var before, after []autocmd.Autocmd
		err := p.Batch(ctx, func(b *vigor.Batch) error {
			if err := autocmd.Group(ctx, b, name, func(g *autocmd.GroupDefs) error { return g.Define(def) }); err != nil {
				return err
			}
			if err := autocmd.Define(ctx, b, autocmd.Def{Group: name, Events: []string{event}, Patterns: []string{fname + "2"}, Cmd: "let g:stdautocmd_two = 1"}); err != nil {
				return err
			}
			if err := autocmd.Emit(ctx, b, event, fname); err != nil {
				return err
			}
			if err := autocmd.EmitAll(ctx, b, event, fname); err != nil {
				return err
			}
			if _, err := autocmd.List(ctx, b.Into(&before), autocmd.Filter{Group: name}); err != nil {
				return err
			}
			if err := autocmd.Remove(ctx, b, autocmd.Filter{Group: name}); err != nil {
				return err
			}
			_, err := autocmd.List(ctx, b.Into(&after), autocmd.Filter{Group: name})
			return err
		})
		return map[string]any{"before": before, "after": after}, err
	})
	return nil
}
