// Command helpertest is the end-to-end tests' plugin for std/helper: each
// handler calls one function of the package, directly or in a batch.
package main

import (
	"context"
	"strings"
	"time"

	"github.com/vigorvim/vigor"
	"github.com/vigorvim/vigor/std/helper"
)

func main() {
	vigor.Main(setup)
}

// words are what the completion of ask offers.
var words = []string{"alpha", "beta", "gamma"}

func setup(ctx context.Context, p *vigor.Plugin) error {
	p.Handle("echo", func(ctx context.Context, msg string) error { return helper.Echo(ctx, p, msg) })
	p.Handle("echoerr", func(ctx context.Context, msg string) error { return helper.EchoErr(ctx, p, msg) })
	// later echoes msg from a goroutine, after delay ms: a message that
	// no call of the editor waits for.
	p.Handle("later", func(msg string, delay int) {
		pctx := p.Context()
		go func() {
			select {
			case <-time.After(time.Duration(delay) * time.Millisecond):
				_ = helper.Echo(pctx, p, msg)
			case <-pctx.Done():
			}
		}()
	})
	p.Handle("keys", func(ctx context.Context, keys string, remap bool) error {
		return helper.Keys(ctx, p, keys, remap)
	})
	p.Handle("load", func(ctx context.Context, path string) error { return helper.Load(ctx, p, path) })
	// ask asks with the Go completion of complete (go true) or the
	// editor's completion by name, and returns "answer: ..." or
	// "cancelled".
	p.Handle("ask", func(ctx context.Context, prompt, def, completion string, goComplete bool) (string, error) {
		opts := helper.InputOptions{Prompt: prompt, Default: def, Completion: completion}
		if goComplete {
			opts.Complete = "vigor#request('helpertest', 'complete', [a:lead, a:line, a:pos])"
		}
		answer, ok, err := helper.Input(ctx, p, opts)
		if err != nil || !ok {
			return "cancelled", err
		}
		return "answer: [" + answer + "]", nil
	})
	p.Handle("complete", func(lead, line string, pos int) []string {
		var out []string
		for _, w := range words {
			if strings.HasPrefix(w, lead) {
				out = append(out, w)
			}
		}
		return out
	})
	// batch echoes, loads and sends keys (if any: Vim in Ex mode waits
	// for input at feedkeys() with 'x') in one batch; input in a batch is
	// an error.
	p.Handle("batch", func(ctx context.Context, msg, path string, input bool, keys string) error {
		return p.Batch(ctx, func(b *vigor.Batch) error {
			if err := helper.Echo(ctx, b, msg); err != nil {
				return err
			}
			if err := helper.EchoErr(ctx, b, "err "+msg); err != nil {
				return err
			}
			if err := helper.Load(ctx, b, path); err != nil {
				return err
			}
			if input {
				if _, _, err := helper.Input(ctx, b, helper.InputOptions{}); err != nil {
					return err
				}
			}
			if keys == "" {
				return nil
			}
			return helper.Keys(ctx, b, keys, false)
		})
	})
	// execute runs script with vars; executebatch runs it twice in one
	// batch, with a call between, and returns both outputs.
	p.Handle("execute", func(ctx context.Context, script string, vars map[string]any) (string, error) {
		return helper.Execute(ctx, p, script, vars)
	})
	p.Handle("executebatch", func(ctx context.Context, script string, vars map[string]any) ([]string, error) {
		var a, b string
		err := p.Batch(ctx, func(bt *vigor.Batch) error {
			if _, err := helper.Execute(ctx, bt.Into(&a), script, vars); err != nil {
				return err
			}
			if err := bt.Cmd(ctx, "let g:helpertest_between = 1", nil); err != nil {
				return err
			}
			_, err := helper.Execute(ctx, bt.Into(&b), script, vars)
			return err
		})
		return []string{a, b}, err
	})
	return nil
}
