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

// A bad number, name or scope fails the functions of a buffer's, a
// window's or a tab page's variables and of a Dict's keys without a call.
func TestBadLocalAndDictNoCall(t *testing.T) {
	ctx := context.Background()
	c := noEditor{t}
	for _, tc := range []struct {
		err  error
		want string
	}{
		{second(BufGet(ctx, c, 0, "x", 0)), "variables.BufGet: 0 is not a buffer number"},
		{BufSet(ctx, c, 1, "a#b", 0), `variables.BufSet: "a#b" is not a variable name`},
		{BufRemove(ctx, c, -1, "x"), "variables.BufRemove: -1 is not a buffer number"},
		{second(WinGet(ctx, c, 1000, "", "")), `variables.WinGet: "" is not a variable name`},
		{WinSet(ctx, c, 0, "x", 1), "variables.WinSet: 0 is not a window number"},
		{WinRemove(ctx, c, 1000, "x y"), `variables.WinRemove: "x y" is not a variable name`},
		{second(TabGet(ctx, c, 0, "x", 0)), "variables.TabGet: 0 is not a tab page number"},
		{TabSet(ctx, c, 1, "1x", 0), `variables.TabSet: "1x" is not a variable name`},
		{TabRemove(ctx, c, 0, "x"), "variables.TabRemove: 0 is not a tab page number"},
		{second(DictGet(ctx, c, V, "event", "k", 0)), "variables.DictGet: a Dict variable is a g:, b:, w: or t: variable, not v:"},
		{DictSet(ctx, c, Env, "HOME", "k", 0), "variables.DictSet: a Dict variable is a g:, b:, w: or t: variable, not $"},
		{DictRemove(ctx, c, Register, "a", "k"), "variables.DictRemove: a Dict variable is a g:, b:, w: or t: variable, not @"},
		{DictSet(ctx, c, B, "a#b", "k", 0), `variables.DictSet: "a#b" is not a variable name`},
		{DictRemove(ctx, c, Scope{}, "x", "k"), "variables.DictRemove: the scope is the zero Scope"},
	} {
		if tc.err == nil || !strings.HasPrefix(tc.err.Error(), tc.want) {
			t.Errorf("%v, want %s", tc.err, tc.want)
		}
	}
}

// second is the error of a (value, error) pair.
func second[T any](_ T, err error) error { return err }
