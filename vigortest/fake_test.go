package vigortest_test

import (
	"context"
	"errors"
	"fmt"
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

// forEachEditor runs body against a Fake of each editor.
func forEachEditor(t *testing.T, body func(t *testing.T, editor string)) {
	for _, editor := range vigortest.Kinds {
		t.Run(editor, func(t *testing.T) { body(t, editor) })
	}
}

func TestFake(t *testing.T) { forEachEditor(t, testFake) }

func testFake(t *testing.T, editor string) {
	var cmds []string
	f := vigortest.NewFake(t, vigortest.FakeOptions{
		Name:   "wordcount",
		Editor: editor,
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
	forEachEditor(t, func(t *testing.T, editor string) {
		f := vigortest.NewFake(t, vigortest.FakeOptions{Editor: editor}, wordcount)
		if _, err := f.Request("count"); err == nil || !strings.Contains(err.Error(), "E117: Unknown function: getline") {
			t.Fatalf("count without getline: %v", err)
		}
	})
}

// The plugin's Meta().Host is the Fake's editor, Neovim by default; an
// editor that is not one of Kinds fails.
func TestFakeEditor(t *testing.T) {
	host := func(ctx context.Context, p *vigor.Plugin) error {
		p.Handle("host", func() string { return p.Meta().Host })
		return nil
	}
	for editor, want := range map[string]string{"": "nvim", "vim": "vim", "nvim": "nvim"} {
		f := vigortest.NewFake(t, vigortest.FakeOptions{Editor: editor}, host)
		if got, err := f.Request("host"); err != nil || got != want {
			t.Errorf("Editor %q: host = %#v, %v; want %q", editor, got, err, want)
		}
	}
	if _, err := vigortest.StartFake(vigortest.FakeOptions{Editor: "emacs"}, host); err == nil || !strings.Contains(err.Error(), `unknown editor "emacs"`) {
		t.Errorf("Editor emacs: %v", err)
	}
}

// An editor function may call the plugin while the plugin waits for it,
// as a Vim function that calls vigor#request() does; p.Notify's function
// fails with a message; a setup that fails says why.
func TestFakeReentrant(t *testing.T) {
	forEachEditor(t, func(t *testing.T, editor string) {
		var f *vigortest.Fake
		f = vigortest.NewFake(t, vigortest.FakeOptions{
			Editor: editor,
			Funcs: map[string]vigortest.Func{
				"Twice": func(args ...any) (any, error) { return f.Request("double", args[0]) },
			},
		}, func(ctx context.Context, p *vigor.Plugin) error {
			p.Handle("double", func(n int) int { return 2 * n })
			p.Handle("quad", func(ctx context.Context, n int) (any, error) { return p.Call(ctx, "Twice", 2*n) })
			p.Handle("tell", func(ctx context.Context) error { return p.Notify(ctx, "Nope") })
			return nil
		})
		if got, err := f.Request("quad", 5); err != nil || got != int64(20) {
			t.Fatalf("quad 5 = %#v, %v; want 20", got, err)
		}
		if err := f.Notify("tell"); err != nil {
			t.Fatal(err)
		}
		// The request after the notification is answered after it has run.
		if _, err := f.Request("double", 1); err != nil {
			t.Fatal(err)
		}
		if m := f.Messages(); len(m) != 1 || m[0] != "[fake] Nope(): Vim:E117: Unknown function: Nope" {
			t.Fatalf("messages: %q", m)
		}
		_, err := vigortest.StartFake(vigortest.FakeOptions{Editor: editor}, func(context.Context, *vigor.Plugin) error {
			return errors.New("no config")
		})
		if err == nil || !strings.Contains(err.Error(), "fake failed to load: no config") {
			t.Fatalf("a setup that fails: %v", err)
		}
	})
}

// Large values go both ways: in Vim's protocol they come in chunks.
func TestFakeLarge(t *testing.T) {
	forEachEditor(t, func(t *testing.T, editor string) {
		big := strings.Repeat("é.", 400<<10) // 1.2 MB of JSON text
		f := vigortest.NewFake(t, vigortest.FakeOptions{
			Editor: editor,
			Funcs: map[string]vigortest.Func{
				"strlen": func(args ...any) (any, error) { return len(args[0].(string)), nil },
			},
		}, func(ctx context.Context, p *vigor.Plugin) error {
			p.Handle("len", func(ctx context.Context) (any, error) { return p.Call(ctx, "strlen", big) })
			p.Handle("big", func() string { return big })
			return nil
		})
		if got, err := f.Request("len"); err != nil || got != int64(len(big)) {
			t.Fatalf("len = %#v, %v; want %d", got, err, len(big))
		}
		if got, err := f.Request("big"); err != nil || got != big {
			t.Fatalf("big: %d bytes, %v; want %d", len(fmt.Sprint(got)), err, len(big))
		}
	})
}
