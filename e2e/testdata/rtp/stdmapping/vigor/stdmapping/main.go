// Command stdmapping is the end-to-end tests' plugin for std/mapping: each
// handler calls one function of the package, directly or in a batch.
package main

import (
	"context"

	"github.com/vigorvim/vigor"
	"github.com/vigorvim/vigor/std/lambda"
	"github.com/vigorvim/vigor/std/mapping"
)

func main() {
	vigor.Main(setup)
}

func setup(ctx context.Context, p *vigor.Plugin) error {
	p.Handle("map", func(ctx context.Context, mode, lhs, rhs string, o mapping.Options) error {
		return mapping.Map(ctx, p, mapping.Mode(mode), lhs, rhs, o)
	})
	p.Handle("unmap", func(ctx context.Context, mode, lhs string, o mapping.Options) error {
		return mapping.Unmap(ctx, p, mapping.Mode(mode), lhs, o)
	})
	p.Handle("read", func(ctx context.Context, mode, lhs string) (mapping.Mapping, error) {
		return mapping.Read(ctx, p, mapping.Mode(mode), lhs)
	})
	p.Handle("list", func(ctx context.Context, mode string) ([]mapping.Mapping, error) {
		return mapping.List(ctx, p, mapping.Mode(mode))
	})
	// batch maps, reads, lists and unmaps lhs in one round trip.
	p.Handle("batch", func(ctx context.Context, lhs, rhs string) (map[string]any, error) {
		var before, after mapping.Mapping
		var all []mapping.Mapping
		err := p.Batch(ctx, func(b *vigor.Batch) error {
			mapping.Map(ctx, b, mapping.Normal, lhs, rhs, mapping.Options{Silent: true})
			mapping.Read(ctx, b.Into(&before), mapping.Normal, lhs)
			mapping.List(ctx, b.Into(&all), mapping.Normal)
			mapping.Unmap(ctx, b, mapping.Normal, lhs, mapping.Options{})
			_, err := mapping.Read(ctx, b.Into(&after), mapping.Normal, lhs)
			return err
		})
		found := false
		for _, m := range all {
			found = found || m.Lhs == before.Lhs
		}
		return map[string]any{"before": before, "after": after.Lhs, "listed": found}, err
	})
	// golambda maps lhs to a <Cmd> call of a Go closure that sets g:stdmapping_hit.
	p.Handle("golambda", func(ctx context.Context, lhs string) error {
		l := lambda.Register(p, func(ctx context.Context, n int) error {
			return p.Cmd(ctx, "let g:stdmapping_hit = l:n", map[string]any{"n": n})
		})
		return mapping.Map(ctx, p, mapping.Normal, lhs, "<Cmd>call "+l.Request("42")+"<CR>", mapping.Options{})
	})
	return nil
}
