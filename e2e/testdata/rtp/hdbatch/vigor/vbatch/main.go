// Command vbatch is the fixture plugin of the batch recorder's tests:
// batches that mix the Caller's calls, fail in the middle, nest, are
// empty or misused, and run from many goroutines at once.
package main

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/vigorvim/vigor"
)

func main() {
	vigor.Main(setup)
}

func setup(ctx context.Context, p *vigor.Plugin) error {
	p.Handle("leaf", func(i int) int { return i * 10 })

	// mixed records CallInto through Into, CallAs, Cmd and EvalInto; fail
	// adds a failing call ("call") or command ("cmd") in the middle.
	p.Handle("mixed", func(ctx context.Context, fail string) map[string]any {
		var n, ev int
		var up string
		after := "unset"
		err := p.Batch(ctx, func(b *vigor.Batch) error {
			if err := b.Into(&n).CallInto(ctx, nil, "abs", -4); err != nil {
				return err
			}
			if _, err := vigor.CallAs[string](ctx, b.Into(&up), "toupper", "ab"); err != nil {
				return err
			}
			if err := b.Cmd(ctx, "let g:vbatch_cmd = l:v", map[string]any{"v": 5}); err != nil {
				return err
			}
			if _, err := vigor.EvalAs[int](ctx, b.Into(&ev), "l:x * 2", map[string]any{"x": 21}); err != nil {
				return err
			}
			switch fail {
			case "call":
				_ = b.CallInto(ctx, nil, "VbatchNoSuchFunction", 1)
			case "cmd":
				_ = b.Cmd(ctx, "echo l:nosuchvar", nil)
			}
			if err := b.Cmd(ctx, "let g:vbatch_after = 1", nil); err != nil {
				return err
			}
			return b.CallInto(ctx, &after, "toupper", "z")
		})
		return report(err, map[string]any{"n": n, "up": up, "ev": ev, "after": after})
	})

	// nested runs sum, a helper that takes a Caller and groups its calls
	// with RunBatch, on its own and inside a batch, where its calls join
	// the batch: a failure in it counts from the start of the batch.
	p.Handle("nested", func(ctx context.Context) map[string]any {
		alone, err := sum(ctx, p, -1, -2)
		if err != nil {
			return report(err, nil)
		}
		var inside, first int
		err = p.Batch(ctx, func(b *vigor.Batch) error {
			if err := b.CallInto(ctx, &first, "abs", -7); err != nil {
				return err
			}
			var err error
			inside, err = sum(ctx, b, -3, -4) // 0: the results come later
			return err
		})
		if err != nil {
			return report(err, nil)
		}
		err = p.Batch(ctx, func(b *vigor.Batch) error {
			_ = b.CallInto(ctx, nil, "abs", -1)
			_ = b.CallInto(ctx, nil, "abs", -1)
			_, err := sum(ctx, b, -5, "x")
			return err
		})
		return report(err, map[string]any{"alone": alone, "inside": inside, "first": first})
	})

	// wrapped makes calls through a logging Caller that wraps the Plugin
	// or a Batch: sum given the wrapped Plugin runs a batch of its own,
	// and given a wrapped Batch joins it; CallAs through the wrapper
	// records the call (a String for an int is no error: no pointer takes
	// it), through a wrapped Into its result goes to Into's pointer.
	p.Handle("wrapped", func(ctx context.Context) map[string]any {
		var log []string
		wrap := func(c vigor.Caller) vigor.Caller { return logged{c, &log} }
		alone, err := sum(ctx, wrap(p), -1, -2)
		if err != nil {
			return report(err, nil)
		}
		var zero, inside int
		var up string
		err = p.Batch(ctx, func(b *vigor.Batch) error {
			var err error
			if zero, err = vigor.CallAs[int](ctx, wrap(b), "toupper", "a"); err != nil {
				return err
			}
			if _, err = vigor.CallAs[string](ctx, wrap(b.Into(&up)), "toupper", "ab"); err != nil {
				return err
			}
			inside, err = sum(ctx, wrap(b), -3, -4)
			return err
		})
		if err != nil {
			return report(err, nil)
		}
		err = p.Batch(ctx, func(b *vigor.Batch) error {
			_ = wrap(b).CallInto(ctx, nil, "abs", -1)
			_, err := sum(ctx, wrap(b), -5, "x")
			return err
		})
		return report(err, map[string]any{"alone": alone, "zero": zero, "up": up, "inside": inside, "log": log})
	})

	// empty runs a batch without calls, and one whose record func fails
	// after recording a command, which is not sent.
	p.Handle("empty", func(ctx context.Context) (string, error) {
		if err := p.Batch(ctx, func(b *vigor.Batch) error { return nil }); err != nil {
			return "", err
		}
		err := p.Batch(ctx, func(b *vigor.Batch) error {
			if err := b.Cmd(ctx, "let g:vbatch_unsent = 1", nil); err != nil {
				return err
			}
			return errors.New("record gave up")
		})
		return fmt.Sprint(err), nil
	})

	// after uses a Batch, and a Caller from its Into, after its record
	// func returned.
	p.Handle("after", func(ctx context.Context) ([]string, error) {
		var kept *vigor.Batch
		var into vigor.Caller
		if err := p.Batch(ctx, func(b *vigor.Batch) error {
			kept, into = b, b.Into(new(int))
			return nil
		}); err != nil {
			return nil, err
		}
		_, err := vigor.CallAs[int](ctx, into, "abs", -1)
		return []string{fmt.Sprint(kept.Cmd(ctx, "let g:vbatch_late = 1", nil)), fmt.Sprint(err)}, nil
	})

	// fanout runs n goroutines, each running rounds batches of two calls
	// of vbatch#reenter, which calls leaf back: the editor nests the
	// handlers while the batches wait.
	p.Handle("fanout", func(ctx context.Context, n, rounds int) ([]int, error) {
		var wg sync.WaitGroup
		out := make([][]int, n)
		errs := make([]error, n)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for r := range rounds {
					var a, b int
					if errs[i] = p.Batch(ctx, func(bt *vigor.Batch) error {
						if err := bt.CallInto(ctx, &a, "vbatch#reenter", i); err != nil {
							return err
						}
						_, err := vigor.CallAs[int](ctx, bt.Into(&b), "vbatch#reenter", r)
						return err
					}); errs[i] != nil {
						return
					}
					out[i] = append(out[i], a+b)
				}
			}()
		}
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			return nil, err
		}
		var all []int
		for _, o := range out {
			all = append(all, o...)
		}
		return all, nil
	})
	return nil
}

// sum returns abs(x) + abs(y), in one batch of c.
func sum(ctx context.Context, c vigor.Caller, x, y any) (int, error) {
	var a, b int
	err := vigor.RunBatch(ctx, c, func(bt *vigor.Batch) error {
		if err := bt.CallInto(ctx, &a, "abs", x); err != nil {
			return err
		}
		return bt.CallInto(ctx, &b, "vbatch#abs", y)
	})
	return a + b, err
}

// logged is a Caller that wraps another and logs the calls made through
// it.
type logged struct {
	vigor.Caller
	log *[]string
}

func (c logged) CallInto(ctx context.Context, result any, fn string, args ...any) error {
	*c.log = append(*c.log, fmt.Sprintf("%s%v", fn, args))
	return c.Caller.CallInto(ctx, result, fn, args...)
}

// report adds what err says to m: its text, and for a *BatchError its
// index, function, results and editor's message.
func report(err error, m map[string]any) map[string]any {
	if m == nil {
		m = map[string]any{}
	}
	m["error"] = ""
	if err != nil {
		m["error"] = err.Error()
	}
	var be *vigor.BatchError
	if errors.As(err, &be) {
		m["index"], m["fn"], m["results"] = be.Index, be.Fn, be.Results
		var ee *vigor.EditorError
		if errors.As(be.Err, &ee) {
			m["msg"] = ee.Msg
		}
	}
	return m
}
