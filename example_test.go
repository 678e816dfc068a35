package vigor_test

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/vigorvim/vigor"
)

// The hello plugin: vigor#request('hello', 'greet', ['CI']) returns
// 'Hello, CI!'. Its main.go lives in <repo>/vigor/hello/.
func ExampleMain() {
	vigor.Main(func(ctx context.Context, p *vigor.Plugin) error {
		p.Handle("greet", func(ctx context.Context, name string) (string, error) {
			return "Hello, " + name + "!", nil
		})
		return nil
	})
}

// Handlers take typed parameters: the editor's arguments are decoded into
// them, in order. A Dict decodes into a struct by its json tags, and a
// variadic last parameter takes the remaining arguments.
func ExamplePlugin_Handle() {
	type Range struct {
		First int `json:"first"`
		Last  int `json:"last"`
	}
	vigor.Main(func(ctx context.Context, p *vigor.Plugin) error {
		// vigor#request('demo', 'span', [{'first': 3, 'last': 9}])
		p.Handle("span", func(r Range) int { return r.Last - r.First + 1 })
		// vigor#request('demo', 'join', ['-', 'a', 'b', 'c'])
		p.Handle("join", func(sep string, words ...string) string {
			return strings.Join(words, sep)
		})
		// vigor#notify('demo', 'log', ['saved']): no result; an error is
		// shown to the user.
		p.Handle("log", func(ctx context.Context, msg string) error {
			p.Logger().Info(msg)
			return nil
		})
		return nil
	})
}

// Batch sends the calls that its record func makes in one round trip.
// Inside it, a function that returns a value returns the zero value: pass
// b.Into(&v) as the Caller to receive the value once the batch has run.
func ExamplePlugin_Batch() {
	vigor.Main(func(ctx context.Context, p *vigor.Plugin) error {
		p.Handle("fill", func(ctx context.Context, lines []string) (int, error) {
			var last int
			err := p.Batch(ctx, func(b *vigor.Batch) error {
				if err := b.CallInto(ctx, nil, "setline", 1, lines); err != nil {
					return err
				}
				if err := b.Cmd(ctx, "normal! G", nil); err != nil {
					return err
				}
				_, err := vigor.CallAs[int](ctx, b.Into(&last), "line", "$")
				return err
			})
			return last, err
		})
		return nil
	})
}

// A failed Batch returns a *BatchError: which call failed, the results of
// the calls before it, and the editor's error.
func ExampleBatchError() {
	// What a batch of line("$") and Nope() returns when Nope does not
	// exist.
	var err error = &vigor.BatchError{
		Index:   1,
		Fn:      "Nope",
		Results: []any{int64(42)},
		Err:     &vigor.EditorError{Fn: "Nope", Msg: "Vim(call):E117: Unknown function: Nope"},
	}

	var be *vigor.BatchError
	if errors.As(err, &be) {
		fmt.Println(be)
		fmt.Println("failed:", be.Fn, "results before it:", be.Results)
	}
	var ee *vigor.EditorError
	if errors.As(err, &ee) {
		fmt.Println("the editor said:", ee.Msg)
	}
	// Output:
	// batch call 1: Nope(): Vim(call):E117: Unknown function: Nope
	// failed: Nope results before it: [42]
	// the editor said: Vim(call):E117: Unknown function: Nope
}

// CallAs decodes an editor function's result into a Go type.
func ExampleCallAs() {
	vigor.Main(func(ctx context.Context, p *vigor.Plugin) error {
		p.Handle("words", func(ctx context.Context) (int, error) {
			lines, err := vigor.CallAs[[]string](ctx, p, "getline", 1, "$")
			if err != nil {
				return 0, err
			}
			n := 0
			for _, l := range lines {
				n += len(strings.Fields(l))
			}
			return n, nil
		})
		return nil
	})
}

// Exec runs several lines as a script, as :source runs a file (one
// argument may hold them all); Cmd runs one Ex command. The first error of
// a script names its line.
func ExamplePlugin_Exec() {
	vigor.Main(func(ctx context.Context, p *vigor.Plugin) error {
		p.Handle("watch", func(ctx context.Context, pattern string) error {
			if err := p.Cmd(ctx, "let g:watch_pattern = l:pattern", map[string]any{"pattern": pattern}); err != nil {
				return err
			}
			// An error here reads "line 3: Vim(autocmd):...".
			return p.Exec(ctx, `augroup watch
  autocmd!
  execute 'autocmd BufWritePost' g:watch_pattern
        \ 'call vigor#notify("watch", "saved", [expand("<afile>")])'
augroup END`)
		})
		p.Handle("saved", func(ctx context.Context, file string) {
			p.Infof(ctx, "saved %s", file)
		})
		return nil
	})
}
