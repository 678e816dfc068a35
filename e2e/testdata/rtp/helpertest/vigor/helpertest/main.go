// Command helpertest is the end-to-end tests' plugin for std/helper: each
// handler calls one function of the package, directly or in a batch.
package main

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/vigorvim/vigor"
	"github.com/vigorvim/vigor/std/helper"
	"github.com/vigorvim/vigor/std/lambda"
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
	// ask asks with the completion that how names: "expr" for Complete
	// (the handler complete), "func" for CompleteFunc, "fail" for a
	// CompleteFunc that fails, "" for the editor's completion by name.
	// It returns "answer: [...]" or "cancelled". With a CompleteFunc it
	// sets g:helpertest_lambda to the name of the lambda that Input
	// registers, and checks that Input registered that one alone.
	p.Handle("ask", func(ctx context.Context, prompt, def, completion, how string) (string, error) {
		opts := helper.InputOptions{Prompt: prompt, Default: def, Completion: completion}
		switch how {
		case "expr":
			opts.Complete = "vigor#request('helpertest', 'complete', [a:lead, a:line, a:pos])"
		case "func":
			opts.CompleteFunc = func(ctx context.Context, lead, line string, pos int) ([]string, error) {
				return complete(lead), nil
			}
		case "save":
			opts.SaveTypeahead = true
		case "fail":
			opts.CompleteFunc = func(ctx context.Context, lead, line string, pos int) ([]string, error) {
				return nil, errors.New("no words today")
			}
		}
		var seq uint64
		if opts.CompleteFunc != nil {
			prefix, n, err := nextLambda(p)
			if err != nil {
				return "", err
			}
			seq = n
			if err := p.Cmd(ctx, "let g:helpertest_lambda = l:name", map[string]any{"name": prefix + strconv.FormatUint(seq, 10)}); err != nil {
				return "", err
			}
		}
		answer, ok, err := helper.Input(ctx, p, opts)
		if seq != 0 {
			if _, n, err := nextLambda(p); err != nil || n != seq+2 {
				return "", fmt.Errorf("Input registered lambdas up to %d, want %d alone (%v)", n-2, seq, err)
			}
		}
		if err != nil || !ok {
			return "cancelled", err
		}
		return "answer: [" + answer + "]", nil
	})
	p.Handle("complete", func(lead, line string, pos int) []string { return complete(lead) })
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

// complete returns the words that start with lead, nil for none.
func complete(lead string) []string {
	var out []string
	for _, w := range words {
		if strings.HasPrefix(w, lead) {
			out = append(out, w)
		}
	}
	return out
}

// nextLambda returns the sequence number that the plugin's next lambda
// gets, and the prefix of its name ("$lambda:1."): it registers one and
// unregisters it.
func nextLambda(p *vigor.Plugin) (prefix string, seq uint64, err error) {
	l := lambda.Register(p, func() {})
	l.Unregister()
	m := l.Method()
	i := strings.LastIndex(m, ".")
	n, err := strconv.ParseUint(m[i+1:], 10, 64)
	return m[:i+1], n + 1, err
}
