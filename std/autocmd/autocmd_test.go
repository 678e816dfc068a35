package autocmd

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/vigorvim/vigor"
)

// recorder records the calls made to it; a test with bad input checks
// that there are none.
type recorder struct {
	calls []string
	ops   []map[string]any
}

func (r *recorder) CallInto(_ context.Context, _ any, fn string, args ...any) error {
	r.calls = append(r.calls, fn)
	if ops, ok := args[0].([]map[string]any); ok {
		r.ops = ops
	}
	return nil
}

func (r *recorder) EvalInto(context.Context, any, string, map[string]any) error {
	r.calls = append(r.calls, "eval")
	return nil
}

func (r *recorder) Cmd(context.Context, string, map[string]any) error {
	r.calls = append(r.calls, "cmd")
	return nil
}

func (*recorder) Meta() vigor.Meta                        { return vigor.Meta{} }
func (*recorder) Batching() (*vigor.Plugin, *vigor.Batch) { return nil, nil }

func TestBadInputMakesNoCall(t *testing.T) {
	ctx := context.Background()
	user := []string{"User"}
	for _, tc := range []struct {
		name string
		call func(c vigor.Caller) error
		want string
	}{
		{"event with a space", func(c vigor.Caller) error {
			return Define(ctx, c, Def{Events: []string{"Buf Enter"}, Cmd: "x"})
		}, `autocmd.Define: "Buf Enter" is not an event name`},
		{"no event", func(c vigor.Caller) error { return Define(ctx, c, Def{Cmd: "x"}) }, "autocmd.Define: no event"},
		{"no command", func(c vigor.Caller) error { return Define(ctx, c, Def{Events: user}) }, "autocmd.Define: no command"},
		{"group END", func(c vigor.Caller) error {
			return Define(ctx, c, Def{Group: "end", Events: user, Cmd: "x"})
		}, `autocmd.Define: "end" is not a group name`},
		{"group with a #", func(c vigor.Caller) error { return Remove(ctx, c, Filter{Group: "a#b"}) }, `autocmd.Remove: "a#b" is not a group name`},
		{"Group's dropped error", func(c vigor.Caller) error {
			return Group(ctx, c, "g", func(g *GroupDefs) error {
				_ = g.Define(Def{Events: user})
				return g.Define(Def{Events: user, Cmd: "x"})
			})
		}, "autocmd.Group: Define: no command"},
		{"group with a bar", func(c vigor.Caller) error { return Remove(ctx, c, Filter{Group: "a|b"}) }, `autocmd.Remove: "a|b" is not a group name`},
		{"AnyGroup in Remove", func(c vigor.Caller) error { return Remove(ctx, c, Filter{Group: AnyGroup}) }, "only for List"},
		{"empty pattern", func(c vigor.Caller) error {
			_, err := List(ctx, c, Filter{Patterns: []string{" "}})
			return err
		}, `autocmd.List: " " is not a pattern`},
		{"<buffer> pattern", func(c vigor.Caller) error {
			return Define(ctx, c, Def{Events: user, Patterns: []string{"<Buffer>"}, Cmd: "x"})
		}, "use Buffer"},
		{"patterns and a buffer", func(c vigor.Caller) error {
			return Remove(ctx, c, Filter{Patterns: []string{"*"}, Buffer: 2})
		}, "autocmd.Remove: both patterns and a buffer"},
		{"negative buffer", func(c vigor.Caller) error {
			return Define(ctx, c, Def{Events: user, Buffer: -1, Cmd: "x"})
		}, "autocmd.Define: -1 is not a buffer number"},
		{"Emit of a bad event", func(c vigor.Caller) error { return Emit(ctx, c, "", "") }, `autocmd.Emit: "" is not an event name`},
		{"EmitAll with a line break", func(c vigor.Caller) error { return EmitAll(ctx, c, "User", "a\nb") }, "line break"},
		{"Group without a name", func(c vigor.Caller) error {
			return Group(ctx, c, "", func(*GroupDefs) error { return nil })
		}, `autocmd.Group: the group name is ""`},
		{"Group's Define in another group", func(c vigor.Caller) error {
			return Group(ctx, c, "g", func(g *GroupDefs) error {
				return g.Define(Def{Group: "h", Events: user, Cmd: "x"})
			})
		}, `autocmd.Group: Define: the group is "g", not "h"`},
		{"Group's Remove of a bad event", func(c vigor.Caller) error {
			return Group(ctx, c, "g", func(g *GroupDefs) error {
				return g.Remove(Filter{Events: []string{"*"}})
			})
		}, `autocmd.Group: Remove: "*" is not an event name`},
	} {
		r := &recorder{}
		err := tc.call(r)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
		}
		if len(r.calls) > 0 {
			t.Errorf("%s: calls %v, want none", tc.name, r.calls)
		}
	}
}

// Group sends its clearing and what its function records in one call,
// and nothing if the function fails.
func TestGroupIsOneCall(t *testing.T) {
	ctx := context.Background()
	r := &recorder{}
	err := Group(ctx, r, "g", func(g *GroupDefs) error {
		if err := g.Define(Def{Events: []string{"BufEnter"}, Cmd: "x"}); err != nil {
			return err
		}
		return g.Remove(Filter{Patterns: []string{"*.c"}})
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.calls) != 1 || r.calls[0] != runFn {
		t.Fatalf("calls %v, want one of %s", r.calls, runFn)
	}
	var got []string
	for _, op := range r.ops {
		got = append(got, op["op"].(string)+" "+op["group"].(string))
	}
	if strings.Join(got, ", ") != "clear g, define g, remove g" {
		t.Errorf("ops %v", got)
	}
	if p := r.ops[1]["patterns"].([]string); len(p) != 1 || p[0] != "*" {
		t.Errorf("Define without patterns sends %v, want [*]", p)
	}

	r = &recorder{}
	stop := errors.New("stop")
	if err := Group(ctx, r, "g", func(*GroupDefs) error { return stop }); err != stop {
		t.Errorf("err = %v, want the function's", err)
	}
	if len(r.calls) > 0 {
		t.Errorf("calls %v after the function failed, want none", r.calls)
	}
}

func TestEditorErrDropsTheInternalName(t *testing.T) {
	err := editorErr("autocmd.Define", &vigor.EditorError{Fn: listFn, Msg: "no event 'X' in this editor"})
	if got := err.Error(); got != "autocmd.Define: no event 'X' in this editor" {
		t.Errorf("err = %q", got)
	}
	var ee *vigor.EditorError
	if !errors.As(err, &ee) {
		t.Error("the *vigor.EditorError is not wrapped")
	}
}
