// Command stdlambda is the end-to-end tests' plugin for std/lambda: its
// setup handler registers lambdas and puts their expressions in a
// mapping, an autocmd and a timer; unregister releases one by its method.
package main

import (
	"context"
	"fmt"
	"sync"

	"github.com/vigorvim/vigor"
	"github.com/vigorvim/vigor/std/lambda"
)

func main() {
	vigor.Main(setup)
}

func setup(ctx context.Context, p *vigor.Plugin) error {
	// lambdas holds the lambdas that setup registered, by method; mu
	// guards it (handlers run concurrently).
	var mu sync.Mutex
	lambdas := map[string]*lambda.Lambda{}
	keep := func(l *lambda.Lambda) string {
		mu.Lock()
		defer mu.Unlock()
		lambdas[l.Method()] = l
		return l.Method()
	}
	p.Handle("setup", func(ctx context.Context) (map[string]string, error) {
		onKey := lambda.Register(p, func(ctx context.Context) error {
			return p.Cmd(ctx, "let g:stdlambda_map = get(g:, 'stdlambda_map', 0) + 1", nil)
		})
		onUser := lambda.Register(p, func(ctx context.Context, match string) error {
			return p.Cmd(ctx, "let g:stdlambda_au = l:m", map[string]any{"m": match})
		})
		double := lambda.Register(p, func(n int) int { return 2 * n })
		cmds := []string{
			"nnoremap <F2> <Cmd>call " + onKey.Notify() + "<CR>",
			"augroup stdlambda | autocmd! | autocmd User StdLambda call " + onUser.Notify("expand('<amatch>')") + " | augroup END",
			"call timer_start(0, {t -> extend(g:, {'stdlambda_timer': " + double.Request("21") + "})})",
		}
		for _, c := range cmds {
			if err := p.Cmd(ctx, c, nil); err != nil {
				return nil, fmt.Errorf("%s: %w", c, err)
			}
		}
		return map[string]string{
			"map": keep(onKey), "au": keep(onUser), "double": keep(double),
			"request": double.Request("a:1"), "notify": onUser.Notify("'direct'"),
		}, nil
	})
	p.Handle("unregister", func(method string) error {
		mu.Lock()
		defer mu.Unlock()
		l, ok := lambdas[method]
		if !ok {
			return fmt.Errorf("no lambda %s", method)
		}
		l.Unregister()
		delete(lambdas, method)
		return nil
	})
	return nil
}
