package vigortest_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/vigorvim/vigor"
	"github.com/vigorvim/vigor/std/fn"
	"github.com/vigorvim/vigor/std/opt"
	"github.com/vigorvim/vigor/vigortest"
)

// README's "Standard library" section shows one handler written with raw
// calls and with the std packages: both are here, and give the same.
func TestReadmeHandlers(t *testing.T) {
	setup := func(ctx context.Context, p *vigor.Plugin) error {
		// Raw: function names and option expressions as strings, results as any.
		p.Handle("raw", func(ctx context.Context) (string, error) {
			var name string
			var lines, sw int
			err := p.Batch(ctx, func(b *vigor.Batch) error {
				b.Into(&name).CallInto(ctx, nil, "bufname")
				b.Into(&lines).CallInto(ctx, nil, "line", "$")
				return b.Into(&sw).EvalInto(ctx, nil, "&l:shiftwidth", nil)
			})
			return fmt.Sprintf("%s: %d lines, sw=%d", name, lines, sw), err
		})
		// std: typed functions and options, checked by the compiler.
		p.Handle("std", func(ctx context.Context) (string, error) {
			var name string
			var lines, sw int
			err := p.Batch(ctx, func(b *vigor.Batch) error {
				fn.Bufname(ctx, b.Into(&name))
				fn.Line(ctx, b.Into(&lines), "$")
				_, err := opt.Shiftwidth.Get(ctx, b.Into(&sw))
				return err
			})
			return fmt.Sprintf("%s: %d lines, sw=%d", name, lines, sw), err
		})
		return nil
	}
	forEachEditor(t, func(t *testing.T, editor string) {
		f := vigortest.NewFake(t, vigortest.FakeOptions{
			Editor: editor,
			Funcs: map[string]vigortest.Func{
				"bufname": func(...any) (any, error) { return "main.go", nil },
				"line":    func(...any) (any, error) { return 42, nil },
			},
			Eval: func(expr string, _ map[string]any) (any, error) {
				if expr != "&l:shiftwidth" {
					return nil, fmt.Errorf("Vim:E15: Invalid expression: %q", expr)
				}
				return 4, nil
			},
		}, setup)
		for _, m := range []string{"raw", "std"} {
			got, err := f.Request(m)
			if err != nil || got != "main.go: 42 lines, sw=4" {
				t.Errorf("%s = %#v, %v", m, got, err)
			}
		}
	})
}
