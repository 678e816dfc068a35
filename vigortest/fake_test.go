package vigortest_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/vigorvim/vigor"
	"github.com/vigorvim/vigor/std/fn"
	"github.com/vigorvim/vigor/vigortest"
)

// wordcount is a plugin's setup, as a test would take it from its main.go.
func wordcount(ctx context.Context, p *vigor.Plugin) error {
	p.Handle("count", func(ctx context.Context) (int, error) {
		lines, err := fn.GetlineEnd(ctx, p, 1, "$")
		if err != nil {
			return 0, err
		}
		n := 0
		for _, l := range lines {
			n += len(strings.Fields(l))
		}
		p.Infof(ctx, "%d words", n)
		return n, p.Cmd(ctx, "let b:words = l:n", map[string]any{"n": n})
	})
	p.Handle("both", func(ctx context.Context) ([]any, error) {
		var a, b int
		err := p.Batch(ctx, func(bt *vigor.Batch) error {
			if _, err := fn.Strlen(ctx, bt.Into(&a), "abc"); err != nil {
				return err
			}
			_, err := fn.Strlen(ctx, bt.Into(&b), "hello")
			return err
		})
		return []any{a, b}, err
	})
	p.Handle("eval", func(ctx context.Context, expr string) (any, error) { return p.Eval(ctx, expr, nil) })
	return nil
}

func TestFake(t *testing.T) {
	var cmds []string
	f := vigortest.NewFake(t, vigortest.FakeOptions{
		Name: "wordcount",
		Funcs: map[string]vigortest.Func{
			"getline": func(args ...any) (any, error) { return []any{"one two", "three"}, nil },
			"strlen":  func(args ...any) (any, error) { return len(args[0].(string)), nil },
		},
		Cmd: func(cmd string, vars map[string]any) error {
			cmds = append(cmds, cmd)
			return nil
		},
		Eval: func(expr string, vars map[string]any) (any, error) {
			if expr == "bad" {
				return nil, errors.New("Vim:E121: Undefined variable: bad")
			}
			return expr + "!", nil
		},
	}, wordcount)
	got, err := f.Request("count")
	if err != nil || got != int64(3) {
		t.Fatalf("count = %#v, %v; want 3", got, err)
	}
	if len(cmds) != 1 || cmds[0] != "let b:words = l:n" {
		t.Fatalf("commands: %q", cmds)
	}
	if m := f.Messages(); len(m) != 1 || m[0] != "[wordcount] 3 words" {
		t.Fatalf("messages: %q", m)
	}
	if got, err := f.Request("both"); err != nil || len(got.([]any)) != 2 || got.([]any)[1] != int64(5) {
		t.Fatalf("both = %#v, %v", got, err)
	}
	if got, err := f.Request("eval", "x"); err != nil || got != "x!" {
		t.Fatalf("eval x = %#v, %v", got, err)
	}
	if _, err := f.Request("eval", "bad"); err == nil || !strings.Contains(err.Error(), "E121: Undefined variable: bad") {
		t.Fatalf("eval bad: %v", err)
	}
	if _, err := f.Request("count", 1); err == nil || !strings.Contains(err.Error(), "takes no arguments, got 1") {
		t.Fatalf("count with an argument: %v", err)
	}
	if _, err := f.Request("nosuch"); err == nil || !strings.Contains(err.Error(), `no method "nosuch"`) {
		t.Fatalf("an unknown method: %v", err)
	}
}

// A function that the Fake does not have fails as in the editor.
func TestFakeUnknownFunction(t *testing.T) {
	f := vigortest.NewFake(t, vigortest.FakeOptions{}, wordcount)
	if _, err := f.Request("count"); err == nil || !strings.Contains(err.Error(), "E117: Unknown function: getline") {
		t.Fatalf("count without getline: %v", err)
	}
}
