package vigor_test

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/vigorvim/vigor"
	"github.com/vigorvim/vigor/vigortest"
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

// One batch collects results of different types in one round trip: each
// b.Into takes a pointer of its own type. The plugin runs against a
// vigortest.Fake, whose line(), bufname() and getline() are Go functions.
func ExampleBatch_Into() {
	setup := func(ctx context.Context, p *vigor.Plugin) error {
		p.Handle("summary", func(ctx context.Context) (string, error) {
			var (
				last  int
				name  string
				lines []string
			)
			err := p.Batch(ctx, func(b *vigor.Batch) error {
				if _, err := vigor.CallAs[int](ctx, b.Into(&last), "line", "$"); err != nil {
					return err
				}
				if _, err := vigor.CallAs[string](ctx, b.Into(&name), "bufname", "%"); err != nil {
					return err
				}
				_, err := vigor.CallAs[[]string](ctx, b.Into(&lines), "getline", 1, 2)
				return err
			})
			return fmt.Sprintf("%s: %d lines, starting %q", name, last, lines), err
		})
		return nil
	}
	f, err := vigortest.StartFake(vigortest.FakeOptions{Funcs: map[string]vigortest.Func{
		"line":    func(args ...any) (any, error) { return 3, nil },
		"bufname": func(args ...any) (any, error) { return "notes.txt", nil },
		"getline": func(args ...any) (any, error) { return []string{"one", "two"}, nil },
	}}, setup)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer f.Close()
	got, err := f.Request("summary")
	fmt.Println(got, err)
	// Output:
	// notes.txt: 3 lines, starting ["one" "two"] <nil>
}

// RunBatch groups a helper's calls: in a batch of their own when the
// helper is given the plugin, or in the caller's batch when it is given
// one.
func ExampleRunBatch() {
	// setLines replaces the buffer's lines, in one round trip.
	setLines := func(ctx context.Context, c vigor.Caller, lines []string) error {
		return vigor.RunBatch(ctx, c, func(b *vigor.Batch) error {
			if err := b.Cmd(ctx, "silent %delete _", nil); err != nil {
				return err
			}
			return b.CallInto(ctx, nil, "setline", 1, lines)
		})
	}
	vigor.Main(func(ctx context.Context, p *vigor.Plugin) error {
		p.Handle("reset", func(ctx context.Context) error {
			return setLines(ctx, p, []string{"new"}) // one round trip
		})
		p.Handle("reset_and_count", func(ctx context.Context) (int, error) {
			var n int
			err := p.Batch(ctx, func(b *vigor.Batch) error {
				if err := setLines(ctx, b, []string{"a", "b"}); err != nil {
					return err
				}
				_, err := vigor.CallAs[int](ctx, b.Into(&n), "line", "$")
				return err
			}) // one round trip for all three calls
			return n, err
		})
		return nil
	})
}

// Code that takes a Caller works with the plugin and in a batch, and can
// be tested without an editor, with a Caller of its own.
func ExampleCaller() {
	// wordCount is a helper, as a plugin or a library may have.
	wordCount := func(ctx context.Context, c vigor.Caller) (int, error) {
		lines, err := vigor.CallAs[[]string](ctx, c, "getline", 1, "$")
		n := 0
		for _, l := range lines {
			n += len(strings.Fields(l))
		}
		return n, err
	}

	n, err := wordCount(context.Background(), fakeBuffer{"one two", "three"})
	fmt.Println(n, err)
	// Output:
	// getline [1 $]
	// 3 <nil>
}

// fakeBuffer is a Caller that answers getline() with its lines.
type fakeBuffer []string

func (f fakeBuffer) CallInto(ctx context.Context, result any, fn string, args ...any) error {
	fmt.Println(fn, args)
	if fn != "getline" {
		return fmt.Errorf("%s(): not in this example", fn)
	}
	*result.(*[]string) = f
	return nil
}

func (f fakeBuffer) EvalInto(ctx context.Context, result any, expr string, vars map[string]any) error {
	return errors.New("no expressions in this example")
}

func (f fakeBuffer) Cmd(ctx context.Context, cmd string, vars map[string]any) error {
	return errors.New("no commands in this example")
}

func (f fakeBuffer) Meta() vigor.Meta { return vigor.Meta{Host: "vim"} }

// Batching says that fakeBuffer answers each call at once, with no
// editor behind it.
func (f fakeBuffer) Batching() (*vigor.Plugin, *vigor.Batch) { return nil, nil }

// A Caller that wraps another, here to print the calls made through it,
// changes the methods it needs and forwards the others by embedding the
// Caller it wraps, Batching among them: CallAs, EvalAs and RunBatch then
// batch through it as through the Caller it wraps. The plugin runs
// against a vigortest.Fake, whose setline() and line() are Go functions.
func ExampleCaller_wrapper() {
	setup := func(ctx context.Context, p *vigor.Plugin) error {
		p.Handle("fill", func(ctx context.Context, lines []string) (int, error) {
			var last int
			err := p.Batch(ctx, func(b *vigor.Batch) error {
				if err := (printCalls{b}).CallInto(ctx, nil, "setline", 1, lines); err != nil {
					return err
				}
				// Recorded, and the result goes to last once the batch
				// has run.
				_, err := vigor.CallAs[int](ctx, printCalls{b.Into(&last)}, "line", "$")
				return err
			})
			return last, err
		})
		return nil
	}
	var buf []any
	f, err := vigortest.StartFake(vigortest.FakeOptions{Funcs: map[string]vigortest.Func{
		"setline": func(args ...any) (any, error) { buf = args[1].([]any); return 0, nil },
		"line":    func(args ...any) (any, error) { return len(buf), nil },
	}}, setup)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer f.Close()
	got, err := f.Request("fill", []string{"one", "two"})
	fmt.Println(got, err)
	// Output:
	// setline [1 [one two]]
	// line [$]
	// 2 <nil>
}

// printCalls is a Caller that prints the calls made through it, then
// makes them through the Caller it wraps. Its EvalInto, Cmd, Meta and
// Batching are those of the wrapped Caller.
type printCalls struct{ vigor.Caller }

func (c printCalls) CallInto(ctx context.Context, result any, fn string, args ...any) error {
	fmt.Println(fn, args)
	return c.Caller.CallInto(ctx, result, fn, args...)
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
