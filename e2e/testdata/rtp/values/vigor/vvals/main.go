// Command vvals is the end-to-end tests' plugin for values and error
// texts: what a handler's parameters accept, what results and calls into
// the editor may carry, and how their errors read.
package main

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"

	"github.com/vigorvim/vigor"
)

func main() {
	vigor.Main(setup)
}

type point struct {
	X int `json:"x"`
	Y int `json:"y"`
}

type shape struct {
	Name   string  `json:"name"`
	Points []point `json:"points"`
}

func setup(ctx context.Context, p *vigor.Plugin) error {
	p.Handle("point", func(pt point) point { return pt })
	p.Handle("shape", func(s shape) string { return s.Name })
	p.Handle("int", func(n int) int { return n })
	p.Handle("int2", func(name string, n int) int { return n })
	p.Handle("str", func(s string) string { return s })
	p.Handle("float", func(f float64) float64 { return f })
	p.Handle("bool", func(b bool) bool { return b })
	p.Handle("none", func() string { return "none" })
	p.Handle("u8", func(n uint8) uint8 { return n })
	p.Handle("ptr", func(n *int) bool { return n == nil })
	p.Handle("slice", func(s []int) bool { return s == nil })
	p.Handle("map", func(m map[string]int) bool { return m == nil })
	p.Handle("anynil", func(v any) bool { return v == nil })
	p.Handle("ints", func(n []int) int { return len(n) })
	p.Handle("nonfinite", func(f []float64, pt struct{ F float64 }) []bool {
		return []bool{math.IsInf(f[0], 1), math.IsNaN(f[1]), math.IsInf(pt.F, -1)}
	})
	// typeof names the Go type a value decodes to as any.
	p.Handle("typeof", func(v any) string { return fmt.Sprintf("%T", v) })
	p.Handle("typeof_in", func(v []any) string { return fmt.Sprintf("%T", v[0]) })
	p.Handle("bytes_of", func(b []byte) []int {
		out := make([]int, len(b))
		for i, c := range b {
			out[i] = int(c)
		}
		return out
	})
	p.Handle("pid", func() int { return os.Getpid() })
	// Values the editor cannot take.
	p.Handle("latin1", func() string { return "caf\xe9" })
	p.Handle("latin1_list", func() []string { return []string{"ok", "caf\xe9 \xff"} })
	p.Handle("latin1_big", func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = 'x'
		}
		b[n/2] = 0xe9
		return string(b)
	})
	p.Handle("nested", func(n int, leaf any) any {
		v := leaf
		for i := 0; i < n; i++ {
			v = []any{v}
		}
		return v
	})
	p.Handle("depth", func(v any) int {
		d := 0
		for {
			l, ok := v.([]any)
			if !ok || len(l) == 0 {
				return d
			}
			d++
			v = l[0]
		}
	})
	p.Handle("intkeys", func() map[int]string { return map[int]string{1: "a"} })
	p.Handle("uint", func() uint64 { return math.MaxUint64 })
	p.Handle("uint_ok", func() uint64 { return math.MaxInt64 })
	// Calls into the editor.
	p.Handle("call", func(ctx context.Context, fn string, args []any) (any, error) {
		return p.Call(ctx, fn, args...)
	})
	// call_depth returns how deep the result of a call nests.
	p.Handle("call_depth", func(ctx context.Context, fn string, args []any) (int, error) {
		v, err := p.Call(ctx, fn, args...)
		d := 0
		for {
			l, ok := v.([]any)
			if !ok || len(l) == 0 {
				return d, err
			}
			d++
			v = l[0]
		}
	})
	p.Handle("call_uint", func(ctx context.Context, fn string) (any, error) {
		return p.Call(ctx, fn, uint64(math.MaxUint64))
	})
	// send_uint passes a Number that no editor holds through each way of
	// reaching the editor.
	p.Handle("send_uint", func(ctx context.Context, how string) (any, error) {
		const big = uint64(math.MaxUint64)
		switch how {
		case "notify":
			return nil, p.Notify(ctx, "setline", 1, big)
		case "dispatch":
			return p.Dispatch(ctx, "vvals", "int", big)
		case "eval":
			return p.Eval(ctx, "l:n", map[string]any{"n": big})
		case "cmd":
			return nil, p.Cmd(ctx, "let g:n = l:n", map[string]any{"n": big})
		case "batch":
			return batch(ctx, p, []any{"abs", 1}, []any{"abs", big})
		}
		return p.Call(ctx, "abs", big)
	})
	p.Handle("call_nested", func(ctx context.Context, fn string, n int) (any, error) {
		var v any = "leaf"
		for i := 0; i < n; i++ {
			v = []any{v}
		}
		return p.Call(ctx, fn, v)
	})
	p.Handle("call_latin1", func(ctx context.Context) (any, error) {
		return p.Call(ctx, "strlen", "caf\xe9")
	})
	p.Handle("notify_latin1", func(ctx context.Context) error {
		return p.Notify(ctx, "setline", 1, "caf\xe9")
	})
	p.Handle("call_int", func(ctx context.Context, fn string, args []any) (int, error) {
		return vigor.CallAs[int](ctx, p, fn, args...)
	})
	p.Handle("call_point", func(ctx context.Context, fn string, args []any) (point, error) {
		return vigor.CallAs[point](ctx, p, fn, args...)
	})
	p.Handle("cmd", func(ctx context.Context, cmd string) error { return p.Cmd(ctx, cmd, nil) })
	p.Handle("eval", func(ctx context.Context, expr string) (any, error) { return p.Eval(ctx, expr, nil) })
	p.Handle("dispatch", func(ctx context.Context, plugin, method string, args []any) (any, error) {
		return p.Dispatch(ctx, plugin, method, args...)
	})
	// editor_error returns the EditorError's Msg of a call, for the tests.
	p.Handle("editor_error", func(ctx context.Context, what, arg string) (string, error) {
		var err error
		switch what {
		case "call":
			_, err = p.Call(ctx, arg)
		case "cmd":
			err = p.Cmd(ctx, arg, nil)
		case "eval":
			_, err = p.Eval(ctx, arg, nil)
		case "batch":
			_, err = batch(ctx, p, []any{"abs", 1}, []any{arg})
		}
		var ee *vigor.EditorError
		if errors.As(err, &ee) {
			return ee.Msg, nil
		}
		if err == nil {
			return "", errors.New("no error")
		}
		return "", fmt.Errorf("not an EditorError: %w", err)
	})
	p.Handle("batch", func(ctx context.Context, fn string, args []any) ([]any, error) {
		return batch(ctx, p, []any{"abs", -1}, append([]any{fn}, args...))
	})
	return nil
}

// batch runs calls, each [fn, args...], in one batch and returns their
// results.
func batch(ctx context.Context, p *vigor.Plugin, calls ...[]any) ([]any, error) {
	results := make([]any, len(calls))
	err := p.Batch(ctx, func(b *vigor.Batch) error {
		for i, c := range calls {
			if err := b.Into(&results[i]).CallInto(ctx, nil, c[0].(string), c[1:]...); err != nil {
				return err
			}
		}
		return nil
	})
	return results, err
}
