package variables

import (
	"context"
	"strings"
	"testing"

	"github.com/vigorvim/vigor"
)

// noEditor fails the test on any call: a bad name must fail before one.
type noEditor struct{ t *testing.T }

func (e noEditor) CallInto(context.Context, any, string, ...any) error {
	e.t.Error("a call to the editor")
	return nil
}

func (e noEditor) EvalInto(context.Context, any, string, map[string]any) error {
	e.t.Error("an evaluation")
	return nil
}

func (e noEditor) Cmd(context.Context, string, map[string]any) error {
	e.t.Error("a command")
	return nil
}

func (noEditor) Meta() vigor.Meta                        { return vigor.Meta{} }
func (noEditor) Batching() (*vigor.Plugin, *vigor.Batch) { return nil, nil }

func TestCheck(t *testing.T) {
	good := []struct {
		s    Scope
		name string
	}{
		{G, "x"}, {G, "_x1"}, {G, "plugin#sub#opt"}, {B, "Abc_9"}, {W, "x"}, {T, "x"},
		{V, "errmsg"}, {Env, "HOME"}, {Env, "_A1"}, {Register, "a"}, {Register, "Z"},
		{Register, `"`}, {Register, "+"}, {Register, "="}, {Register, "0"},
	}
	for _, g := range good {
		if err := g.s.check("f", g.name); err != nil {
			t.Errorf("%s%s: %v", g.s, g.name, err)
		}
	}
	bad := []struct {
		s          Scope
		name, want string
	}{
		{G, "", `f: "" is not a variable name`},
		{G, "1x", `f: "1x" is not a variable name`},
		{G, "#x", `f: "#x" is not a variable name`},
		{B, "a#b", `f: "a#b" is not a variable name`},
		{W, "a b", `f: "a b" is not a variable name`},
		{T, "a:b", `f: "a:b" is not a variable name`},
		{V, "x|y", `f: "x|y" is not a variable name`},
		{G, "é", `f: "é" is not a variable name`},
		{Env, "A#B", `f: "A#B" is not an environment variable name`},
		{Env, "A-B", `f: "A-B" is not an environment variable name`},
		{Register, "", `f: "" is not a register name`},
		{Register, "ab", `f: "ab" is not a register name`},
		{Register, "~", `f: "~" is not a register name`},
		{Scope{}, "x", "f: the scope is the zero Scope"},
	}
	for _, b := range bad {
		err := b.s.check("f", b.name)
		if err == nil || !strings.HasPrefix(err.Error(), b.want) {
			t.Errorf("%q%s: %v, want %s", b.s, b.name, err, b.want)
		}
	}
}

// A bad name fails every function without a call to the editor.
func TestBadNameNoCall(t *testing.T) {
	ctx := context.Background()
	c := noEditor{t}
	if _, err := Get(ctx, c, G, "1x", 0); err == nil || err.Error() != `variables.Get: "1x" is not a variable name` {
		t.Errorf("Get: %v", err)
	}
	if err := Set(ctx, c, Env, "a b", 0); err == nil || err.Error() != `variables.Set: "a b" is not an environment variable name` {
		t.Errorf("Set: %v", err)
	}
	if err := Remove(ctx, c, Register, "ab"); err == nil || err.Error() != `variables.Remove: "ab" is not a register name` {
		t.Errorf("Remove: %v", err)
	}
	if err := Remove(ctx, c, V, "errmsg"); err == nil || err.Error() != "variables.Remove: v:errmsg: v: variables cannot be removed" {
		t.Errorf("Remove of v:errmsg: %v", err)
	}
}
