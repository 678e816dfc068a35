// Command vtest is the end-to-end tests' main plugin: one method per
// behaviour under test.
package main

import (
	"context"
	"errors"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/vigorvim/vigor"
)

func main() {
	vigor.Main(setup)
}

func setup(ctx context.Context, p *vigor.Plugin) error {
	var mu sync.Mutex
	var records []any

	p.Handle("greet", func(name string) string { return "Hello, " + name + "!" })
	p.Handle("echo", func(v any) any { return v })
	p.Handle("echo2", func(a, b any) []any { return []any{a, b} })
	p.Handle("int", func(n int) int { return n * 2 })
	p.Handle("float", func(f float64) float64 { return f * 2 })
	p.Handle("str", func(s string) string { return s })
	p.Handle("strlen", func(s string) int { return len(s) })
	p.Handle("bool", func(b bool) bool { return !b })
	p.Handle("blob", func(b []byte) []byte { return b })
	p.Handle("bloblen", func(b []byte) int { return len(b) })
	p.Handle("strs", func(s []string) string { return strings.Join(s, "+") })
	p.Handle("dict", func(m map[string]int) int {
		n := 0
		for _, v := range m {
			n += v
		}
		return n
	})
	type point struct {
		X int    `json:"x"`
		Y int    `json:"y"`
		L string `json:"label,omitempty"`
	}
	p.Handle("point", func(pt point) point { return point{X: pt.Y, Y: pt.X, L: "swapped"} })
	type record struct {
		F     float64  `json:"f"`
		Bytes []byte   `json:"bytes"`
		Nil   []string `json:"nil"`
		Inner *point   `json:"inner,omitempty"`
	}
	p.Handle("record_value", func() record {
		return record{F: 2, Bytes: []byte{1, 2}, Inner: &point{X: 1}}
	})
	p.Handle("sum", func(nums ...int) int {
		n := 0
		for _, x := range nums {
			n += x
		}
		return n
	})
	p.Handle("nul", func() string { return "a\x00b" })
	p.Handle("nil_list", func() []any { return nil })
	p.Handle("big", func(n int) string { return strings.Repeat("x", n) })
	p.Handle("fail", func() error { return errors.New("it failed on purpose") })
	p.Handle("panic", func() string { panic("boom") })
	p.Handle("nothing", func() {})
	p.Handle("record", func(v any) {
		mu.Lock()
		defer mu.Unlock()
		records = append(records, v)
	})
	p.Handle("records", func() []any {
		mu.Lock()
		defer mu.Unlock()
		return append([]any{}, records...)
	})
	p.Handle("block", func(ctx context.Context) error {
		<-ctx.Done()
		return context.Cause(ctx)
	})
	p.Handle("block_mark", func(ctx context.Context) error {
		// Records on the editor side that its context ended.
		<-ctx.Done()
		cause := context.Cause(ctx).Error()
		c, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		_ = p.Cmd(c, "let g:vtest_cause = cause", map[string]any{"cause": cause})
		return nil
	})
	p.Handle("call", func(ctx context.Context, fn string, args []any) (any, error) {
		return p.Call(ctx, fn, args...)
	})
	p.Handle("call_int", func(ctx context.Context, fn string, args []any) (int, error) {
		return vigor.CallAs[int](ctx, p, fn, args...)
	})
	p.Handle("cmd", func(ctx context.Context, cmd string, vars map[string]any) error {
		return p.Cmd(ctx, cmd, vars)
	})
	p.Handle("eval", func(ctx context.Context, expr string, vars map[string]any) (any, error) {
		return p.Eval(ctx, expr, vars)
	})
	p.Handle("batch", func(ctx context.Context, calls [][]any) map[string]any {
		res := make([]any, len(calls))
		err := p.Batch(ctx, func(b *vigor.Batch) error {
			for i, c := range calls {
				fn, _ := c[0].(string)
				if err := b.CallInto(ctx, &res[i], fn, c[1:]...); err != nil {
					return err
				}
			}
			return nil
		})
		out := map[string]any{"results": res, "index": -1, "error": ""}
		var be *vigor.BatchError
		if errors.As(err, &be) {
			out["results"] = be.Results
			out["index"] = be.Index
			out["error"] = be.Error()
			out["partial"] = be.Results
		} else if err != nil {
			out["error"] = err.Error()
		}
		return out
	})
	p.Handle("redraw", func(ctx context.Context, force bool) error { return p.Redraw(ctx, force) })
	p.Handle("notify", func(ctx context.Context, fn string, args []any) error {
		return p.Notify(ctx, fn, args...)
	})
	p.Handle("dispatch", func(ctx context.Context, plugin, method string, args []any) (any, error) {
		return p.Dispatch(ctx, plugin, method, args...)
	})
	p.Handle("meta", func() vigor.Meta { return p.Meta() })
	p.Handle("name", func() string { return p.Name() })
	// reenter recurses through the editor: vigor#request -> reenter(n-1).
	p.Handle("reenter", func(ctx context.Context, n int) (any, error) {
		if n <= 0 {
			return 0, nil
		}
		v, err := p.Call(ctx, "vigor#request", "vtest", "reenter", []any{n - 1})
		if err != nil {
			return nil, err
		}
		return v.(int64) + 1, nil
	})
	p.Handle("crash", func() string {
		go func() {
			time.Sleep(50 * time.Millisecond)
			os.Exit(3)
		}()
		return "crashing"
	})
	p.Handle("die", func() { os.Exit(4) })
	p.Handle("info", func(ctx context.Context, msg string) { p.Infof(ctx, "%s", msg) })
	p.Handle("warn", func(ctx context.Context, msg string) { p.Warnf(ctx, "%s", msg) })
	p.Handle("pid", func() int { return os.Getpid() })
	p.Handle("stdout", func() string {
		// A stray print must not corrupt the channel.
		os.Stdout.WriteString("stray output\n")
		return "still fine"
	})
	p.OnUnload(func(ctx context.Context) error {
		if f := os.Getenv("VTEST_UNLOAD_FILE"); f != "" {
			// The editor may be gone (it quit): leave a trace in a file.
			_ = os.WriteFile(f, []byte("unloaded"), 0o644)
		}
		return p.Cmd(ctx, "let g:vtest_unloaded = get(g:, 'vtest_unloaded', 0) + 1", nil)
	})
	return nil
}
