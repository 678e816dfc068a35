package vigor

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/vigorvim/vigor/internal/fakeeditor"
	"github.com/vigorvim/vigor/internal/protocol"
)

// batchEditor starts a fake editor of kind whose calls, those of its
// batches too, run through run, and returns it and its plugin, ready.
func batchEditor(t *testing.T, kind string, run func(fn string, args []any) (any, string)) (*fakeEditor, *Plugin) {
	t.Helper()
	e := startServe(t, kind, serveOpts{answer: run}, func(ctx context.Context, p *Plugin) error { return nil })
	e.ready()
	return e, e.p()
}

// echoRun answers a call with its first argument, and an expression
// with its l:a if it has one; Nope fails.
func echoRun(fn string, args []any) (any, string) {
	if fn == "Nope" {
		return nil, "Vim(call):E117: Unknown function: Nope"
	}
	if fn == protocol.FuncEval {
		if a, ok := args[1].(map[string]any)["a"]; ok {
			return a, ""
		}
	}
	if len(args) == 0 {
		return 0, ""
	}
	return args[0], ""
}

// The calls recorded through a Batch, its Into Callers and CallAs go to
// the editor in one call, in order, and the result pointers are filled in.
func TestBatchRecords(t *testing.T) {
	forEachEditor(t, func(t *testing.T, kind string) {
		e, p := batchEditor(t, kind, echoRun)
		ctx := context.Background()
		var n int
		var s string
		var words []string
		var evaled int
		err := p.Batch(ctx, func(b *Batch) error {
			if b.Meta() != p.Meta() {
				t.Errorf("Meta() = %v, want %v", b.Meta(), p.Meta())
			}
			if err := b.CallInto(ctx, &n, "abs", 7); err != nil {
				return err
			}
			v, err := CallAs[string](ctx, b.Into(&s), "toupper", "x")
			if err != nil || v != "" {
				return fmt.Errorf("CallAs in a batch = %q, %v; want the zero value", v, err)
			}
			if err := b.Cmd(ctx, "let g:x = 1", nil); err != nil {
				return err
			}
			if err := b.EvalInto(ctx, &evaled, "l:a", map[string]any{"a": 3}); err != nil {
				return err
			}
			return b.CallInto(ctx, &words, "split", []string{"a", "b"})
		})
		if err != nil {
			t.Fatal(err)
		}
		checkEqual(t, "n", n, 7)
		checkEqual(t, "s", s, "x")
		checkEqual(t, "evaled", evaled, 3)
		checkEqual(t, "words", words, []string{"a", "b"})
		c := e.next()
		wantFn := protocol.FuncVimBatch
		if kind == "nvim" {
			wantFn = "nvim_call_atomic"
		}
		if c.Fn != wantFn || len(c.Batch) != 5 {
			t.Fatalf("the editor got %v, want one %s of 5 calls", c, wantFn)
		}
	})
}

// A call that fails stops the batch: a *BatchError with its index, the
// results before it, in Results and in their pointers, and no call after
// it. A Cmd or Eval that fails has no Fn.
func TestBatchError(t *testing.T) {
	forEachEditor(t, func(t *testing.T, kind string) {
		_, p := batchEditor(t, kind, func(fn string, args []any) (any, string) {
			if fn == protocol.FuncCmd {
				return nil, "Vim(echo):E121: Undefined variable: x"
			}
			return echoRun(fn, args)
		})
		ctx := context.Background()
		first, after := 0, -1
		err := p.Batch(ctx, func(b *Batch) error {
			_ = b.CallInto(ctx, &first, "abs", 5)
			_ = b.CallInto(ctx, nil, "Nope")
			return b.CallInto(ctx, &after, "abs", 6)
		})
		var be *BatchError
		if !errors.As(err, &be) {
			t.Fatalf("err = %v, want a *BatchError", err)
		}
		checkEqual(t, "the error", err.Error(), "batch call 1: Nope(): Vim(call):E117: Unknown function: Nope")
		checkEqual(t, "Index, Fn, Results", []any{be.Index, be.Fn, be.Results}, []any{1, "Nope", []any{int64(5)}})
		var ee *EditorError
		if !errors.As(err, &ee) || ee.Fn != "Nope" {
			t.Fatalf("Err = %#v, want an *EditorError of Nope", be.Err)
		}
		checkEqual(t, "first, after", []int{first, after}, []int{5, -1})

		err = p.Batch(ctx, func(b *Batch) error {
			_ = b.CallInto(ctx, nil, "abs", 5)
			return b.Cmd(ctx, "echo x", nil)
		})
		if !errors.As(err, &be) {
			t.Fatalf("err = %v, want a *BatchError", err)
		}
		checkEqual(t, "the error", err.Error(), "batch call 1: Vim(echo):E121: Undefined variable: x")
		checkEqual(t, "Fn", be.Fn, "")
	})
}

// A result that does not fit its pointer names the call; the others are
// filled in.
func TestBatchResultDoesNotFit(t *testing.T) {
	forEachEditor(t, func(t *testing.T, kind string) {
		_, p := batchEditor(t, kind, echoRun)
		ctx := context.Background()
		var n, m int
		var s string
		err := p.Batch(ctx, func(b *Batch) error {
			_ = b.CallInto(ctx, &n, "toupper", "x")
			_ = b.EvalInto(ctx, &s, "1", nil)
			return b.CallInto(ctx, &m, "abs", 2)
		})
		checkEqual(t, "the error", fmt.Sprint(err), `batch call 0, toupper(): the result: expected a Number, got a String ("x")`)
		checkEqual(t, "m", m, 2)
		err = p.Batch(ctx, func(b *Batch) error { return b.EvalInto(ctx, &n, "'x'", nil) })
		checkEqual(t, "the error", fmt.Sprint(err), `batch call 0, the expression: the result: expected a Number, got a String ("'x'")`)
	})
}

// What cannot be recorded or sent fails with an error that names the
// call, and nothing is sent: a result that is not a pointer, a Cmd of
// several lines, an argument the editor cannot take, an error from
// record. A batch without calls is not sent either.
func TestBatchNotSent(t *testing.T) {
	forEachEditor(t, func(t *testing.T, kind string) {
		e, p := batchEditor(t, kind, echoRun)
		ctx := context.Background()
		var n int
		checkEqual(t, "no pointer", fmt.Sprint(p.Batch(ctx, func(b *Batch) error {
			_ = b.CallInto(ctx, nil, "abs", 1)
			_ = b.CallInto(ctx, n, "abs", 1) // the error is kept, though record drops it
			return nil
		})), "batch call 1, abs(): the result must go to a non-nil pointer, not int")
		checkEqual(t, "nil pointer", fmt.Sprint(p.Batch(ctx, func(b *Batch) error {
			return b.EvalInto(ctx, (*int)(nil), "1", nil)
		})), "batch call 0, the expression: the result must go to a non-nil pointer, not *int")
		checkEqual(t, "cmd of 2 lines", fmt.Sprint(p.Batch(ctx, func(b *Batch) error {
			return b.Cmd(ctx, "a\nb", nil)
		})), "Cmd runs one Ex command, and this one has 2 lines: use Exec to run several lines")
		checkEqual(t, "record's error", fmt.Sprint(p.Batch(ctx, func(b *Batch) error {
			_ = b.CallInto(ctx, nil, "abs", 1)
			return errors.New("no")
		})), "no")
		checkEqual(t, "empty", p.Batch(ctx, func(b *Batch) error { return nil }), nil)
		checkEqual(t, "an argument", fmt.Sprint(p.Batch(ctx, func(b *Batch) error {
			_ = b.CallInto(ctx, nil, "abs", 1)
			return b.CallInto(ctx, nil, "abs", 1, make(chan int))
		})), "batch call 1, abs(): argument 2: a chan int cannot be sent to the editor")
		if err := p.Batch(ctx, func(b *Batch) error {
			return b.Cmd(ctx, "echo l:f", map[string]any{"f": func() {}})
		}); err == nil || !strings.HasPrefix(err.Error(), "batch call 0, vars: ") {
			t.Errorf("a var: %v, want batch call 0, vars: ...", err)
		}
		// None of these reached the editor: the next call is this one.
		if _, err := p.Call(ctx, "abs", 9); err != nil {
			t.Fatal(err)
		}
		checkEqual(t, "the next call", e.next(), fakeeditor.Call{Fn: "abs", Args: []any{int64(9)}, Request: true})
	})
}

// A Batch used after its record func returned, or by two goroutines at
// once, fails with an error that says so.
func TestBatchMisuse(t *testing.T) {
	forEachEditor(t, func(t *testing.T, kind string) {
		_, p := batchEditor(t, kind, echoRun)
		ctx := context.Background()
		var kept *Batch
		var into Caller
		if err := p.Batch(ctx, func(b *Batch) error {
			kept, into = b, b.Into(new(int))
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		const after = "Batch: used after its record func returned: make the calls inside record, or start another batch"
		checkEqual(t, "CallInto after", fmt.Sprint(kept.CallInto(ctx, nil, "abs", 1)), after)
		checkEqual(t, "Cmd after", fmt.Sprint(kept.Cmd(ctx, "", nil)), after)
		checkEqual(t, "Into after", fmt.Sprint(into.EvalInto(ctx, nil, "1", nil)), after)
		checkEqual(t, "RunBatch after", fmt.Sprint(RunBatch(ctx, kept, func(b *Batch) error {
			return b.CallInto(ctx, nil, "abs", 1)
		})), after)
		func() {
			defer func() { _ = recover() }()
			_ = p.Batch(ctx, func(b *Batch) error {
				kept = b
				panic("record panics")
			})
		}()
		checkEqual(t, "CallInto after a panic", fmt.Sprint(kept.CallInto(ctx, nil, "abs", 1)), after)

		err := p.Batch(ctx, func(b *Batch) error {
			b.state = batchBusy // another goroutine's call is being recorded
			err := b.CallInto(ctx, nil, "abs", 1)
			b.state = batchOpen
			return err
		})
		checkEqual(t, "at once", fmt.Sprint(err), errBatchShared.Error())
		err = p.Batch(ctx, func(b *Batch) error {
			b.state = batchBusy
			_ = b.CallInto(ctx, nil, "abs", 1)
			b.state = batchOpen
			return nil // the clash is kept, though record drops it
		})
		checkEqual(t, "at once, dropped", fmt.Sprint(err), errBatchShared.Error())
	})
}

// RunBatch with a Batch (or a Caller from Into) records into it: nested
// batches are one round trip. With a Plugin it is Plugin.Batch. A Caller
// with no plugin behind it has no batch.
func TestRunBatchNests(t *testing.T) {
	forEachEditor(t, func(t *testing.T, kind string) {
		e, p := batchEditor(t, kind, echoRun)
		ctx := context.Background()
		helper := func(c Caller, into *int) error {
			return RunBatch(ctx, c, func(b *Batch) error {
				_ = b.CallInto(ctx, nil, "abs", 1)
				return b.CallInto(ctx, into, "abs", 2)
			})
		}
		var a, b2, c int
		err := RunBatch(ctx, p, func(b *Batch) error {
			if err := helper(b, &a); err != nil {
				return err
			}
			if err := helper(b.Into(new(int)), &b2); err != nil {
				return err
			}
			return b.CallInto(ctx, &c, "abs", 3)
		})
		if err != nil {
			t.Fatal(err)
		}
		checkEqual(t, "results", []int{a, b2, c}, []int{2, 2, 3})
		call := e.next()
		if len(call.Batch) != 5 {
			t.Fatalf("the editor got %v, want one batch of 5 calls", call)
		}
		// A pointer given to Into that no call took before RunBatch
		// receives nothing, and the next Into is not an error.
		var pending, after int
		err = p.Batch(ctx, func(b *Batch) error {
			_ = b.Into(&pending)
			if err := helper(b, &a); err != nil {
				return err
			}
			_, err := CallAs[int](ctx, b.Into(&after), "abs", 4)
			return err
		})
		checkEqual(t, "pending, after", []any{pending, after, err}, []any{0, 4, nil})
		e.next()
		checkEqual(t, "another Caller", fmt.Sprint(RunBatch(ctx, otherCaller{}, func(*Batch) error { return nil })),
			"RunBatch: a batch needs a *vigor.Plugin or a *vigor.Batch, not a vigor.otherCaller")
	})
}

// Into's pointer takes the result of the next call only.
func TestBatchIntoNextCall(t *testing.T) {
	forEachEditor(t, func(t *testing.T, kind string) {
		_, p := batchEditor(t, kind, echoRun)
		ctx := context.Background()
		var first, second int
		err := p.Batch(ctx, func(b *Batch) error {
			c := b.Into(&first)
			_ = c.CallInto(ctx, &second, "abs", 1)
			return c.CallInto(ctx, &second, "abs", 2)
		})
		if err != nil {
			t.Fatal(err)
		}
		checkEqual(t, "first, second", []int{first, second}, []int{1, 2})
	})
}

// Into's Caller is the batch's result view: an Into whose pointer no call
// took before the next Into fails the batch, and sends nothing.
func TestBatchIntoTwice(t *testing.T) {
	forEachEditor(t, func(t *testing.T, kind string) {
		e, p := batchEditor(t, kind, echoRun)
		ctx := context.Background()
		var first, second, third int
		err := p.Batch(ctx, func(b *Batch) error {
			c := b.Into(&first)
			d := b.Into(&second)
			_ = c.CallInto(ctx, nil, "abs", 1)
			return d.CallInto(ctx, nil, "abs", 2)
		})
		checkEqual(t, "twice", fmt.Sprint(err), "batch call 0: Into was called again before a call took the pointer of the Into before: pass b.Into(&v) to the call it is for, right away")
		err = p.Batch(ctx, func(b *Batch) error {
			_, err := CallAs[int](ctx, b.Into(nil), "abs", 1)
			return err
		})
		checkEqual(t, "nil", fmt.Sprint(err), "batch call 0, Into: the result must go to a non-nil pointer, not nil")
		// A later Into of the same view, once its pointer is taken, is
		// the next call's.
		err = p.Batch(ctx, func(b *Batch) error {
			c := b.Into(&first)
			_ = c.CallInto(ctx, nil, "abs", 1)
			_ = c.CallInto(ctx, nil, "abs", 2)
			_ = b.Into(&third)
			return c.CallInto(ctx, nil, "abs", 3)
		})
		if err != nil {
			t.Fatal(err)
		}
		checkEqual(t, "first, second, third", []int{first, second, third}, []int{1, 0, 3})
		if call := e.next(); len(call.Batch) != 3 {
			t.Fatalf("the editor got %v, want one batch of 3 calls", call)
		}
	})
}

// otherCaller is a Caller with no editor behind it.
type otherCaller struct{ Caller }

func (otherCaller) Batching() (*Plugin, *Batch) { return nil, nil }

// loggedCaller wraps a Caller and logs the calls made through it, as an
// author's logging or tracing Caller would.
type loggedCaller struct {
	Caller
	log *[]string
}

func (c loggedCaller) CallInto(ctx context.Context, result any, fn string, args ...any) error {
	*c.log = append(*c.log, fmt.Sprintf("%s%v", fn, args))
	return c.Caller.CallInto(ctx, result, fn, args...)
}

func (c loggedCaller) EvalInto(ctx context.Context, result any, expr string, vars map[string]any) error {
	*c.log = append(*c.log, "eval "+expr)
	return c.Caller.EvalInto(ctx, result, expr, vars)
}

func (c loggedCaller) Cmd(ctx context.Context, cmd string, vars map[string]any) error {
	*c.log = append(*c.log, "cmd "+cmd)
	return c.Caller.Cmd(ctx, cmd, vars)
}

// A Caller that wraps a Batch, or a Caller from its Into, keeps the
// batch's behaviour: CallAs and EvalAs through it record the call, which
// the wrapper sees, and return the zero value, without a pointer whose
// result would be decoded for nobody (a String into an int would fail the
// batch); through Into's Caller the result goes to Into's pointer.
func TestWrappedCallerInBatch(t *testing.T) {
	forEachEditor(t, func(t *testing.T, kind string) {
		e, p := batchEditor(t, kind, echoRun)
		ctx := context.Background()
		var log []string
		wrap := func(c Caller) Caller { return loggedCaller{c, &log} }
		var s string
		var ev int
		err := p.Batch(ctx, func(b *Batch) error {
			if n, err := CallAs[int](ctx, wrap(b), "toupper", "a"); n != 0 || err != nil {
				return fmt.Errorf("CallAs through the wrapper = %d, %v; want 0, nil", n, err)
			}
			if n, err := EvalAs[int](ctx, wrap(b), "'b'", nil); n != 0 || err != nil {
				return fmt.Errorf("EvalAs through the wrapper = %d, %v; want 0, nil", n, err)
			}
			if _, err := CallAs[string](ctx, wrap(b.Into(&s)), "toupper", "x"); err != nil {
				return err
			}
			if _, err := EvalAs[int](ctx, wrap(b.Into(&ev)), "l:a", map[string]any{"a": 3}); err != nil {
				return err
			}
			return wrap(b).Cmd(ctx, "let g:x = 1", nil)
		})
		if err != nil {
			t.Fatal(err)
		}
		checkEqual(t, "s, ev", []any{s, ev}, []any{"x", 3})
		checkEqual(t, "the log", log, []string{"toupper[a]", "eval 'b'", "toupper[x]", "eval l:a", "cmd let g:x = 1"})
		if c := e.next(); len(c.Batch) != 5 {
			t.Fatalf("the editor got %v, want one batch of 5 calls", c)
		}

		// Outside a batch, the wrapper's calls go at once.
		log = nil
		n, err := CallAs[int](ctx, wrap(p), "abs", 4)
		checkEqual(t, "CallAs through a wrapped Plugin", []any{n, err}, []any{4, nil})
		checkEqual(t, "its log", log, []string{"abs[4]"})
		checkEqual(t, "its call", e.next(), fakeeditor.Call{Fn: "abs", Args: []any{int64(4)}, Request: true})
	})
}

// RunBatch through a Caller that wraps a Plugin runs a batch of that
// plugin; through one that wraps a Batch, or a Caller from its Into, it
// joins that batch, and Into's pointer receives nothing (the next Into is
// not an error).
func TestRunBatchThroughWrapper(t *testing.T) {
	forEachEditor(t, func(t *testing.T, kind string) {
		e, p := batchEditor(t, kind, echoRun)
		ctx := context.Background()
		var log []string
		wrap := func(c Caller) Caller { return loggedCaller{c, &log} }
		helper := func(c Caller, into *int) error {
			return RunBatch(ctx, c, func(b *Batch) error {
				_ = b.CallInto(ctx, nil, "abs", 1)
				return b.CallInto(ctx, into, "abs", 2)
			})
		}
		var a int
		if err := helper(wrap(p), &a); err != nil {
			t.Fatal(err)
		}
		checkEqual(t, "a", a, 2)
		if c := e.next(); len(c.Batch) != 2 {
			t.Fatalf("the editor got %v, want one batch of 2 calls", c)
		}

		var b1, b2, dropped, c3 int
		err := p.Batch(ctx, func(b *Batch) error {
			if err := helper(wrap(b), &b1); err != nil {
				return err
			}
			if err := helper(wrap(b.Into(&dropped)), &b2); err != nil {
				return err
			}
			_, err := CallAs[int](ctx, b.Into(&c3), "abs", 3)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		checkEqual(t, "results", []int{b1, b2, dropped, c3}, []int{2, 2, 0, 3})
		if c := e.next(); len(c.Batch) != 5 {
			t.Fatalf("the editor got %v, want one batch of 5 calls", c)
		}
		checkEqual(t, "the log", len(log), 0) // record's calls are made on b
	})
}
