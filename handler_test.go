package vigor

import (
	"bytes"
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/vigorvim/vigor/internal/codec/msgpackrpc"
	"github.com/vigorvim/vigor/internal/codec/vimjson"
	"github.com/vigorvim/vigor/internal/wire"
)

// ---------------------------------------------------------------------------
// Signatures

func TestNewHandlerAccepts(t *testing.T) {
	for _, tc := range []struct {
		name    string
		fn      any
		hasCtx  bool
		params  []reflect.Type
		varargs bool
		hasRes  bool
		hasErr  bool
		sig     string
	}{
		{"nothing", func() {}, false, nil, false, false, false, "()"},
		{"ctx only", func(context.Context) {}, true, nil, false, false, false, "()"},
		{"one param", func(string) {}, false, types((*string)(nil)), false, false, false, "(string)"},
		{"ctx and params", func(context.Context, string, int) {}, true, types((*string)(nil), (*int)(nil)), false, false, false, "(string, int)"},
		{"variadic", func(...string) {}, false, types((*[]string)(nil)), true, false, false, "(...string)"},
		{"ctx, fixed and variadic", func(context.Context, int, ...any) {}, true, types((*int)(nil), (*[]any)(nil)), true, false, false, "(int, ...interface {})"},
		{"error only", func() error { return nil }, false, nil, false, false, true, "()"},
		{"result only", func() int { return 0 }, false, nil, false, true, false, "()"},
		{"result and error", func(context.Context) (any, error) { return nil, nil }, true, nil, false, true, true, "()"},
		{"struct and map params", func(struct{ X int }, map[string]any) (string, error) { return "", nil },
			false, types((*struct{ X int })(nil), (*map[string]any)(nil)), false, true, true, "(struct { X int }, map[string]interface {})"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, err := newHandler("m", tc.fn)
			if err != nil {
				t.Fatalf("newHandler: %v", err)
			}
			if h.method != "m" || h.hasCtx != tc.hasCtx || h.varargs != tc.varargs || h.hasRes != tc.hasRes || h.hasErr != tc.hasErr {
				t.Errorf("handler = {method %q, hasCtx %v, varargs %v, hasRes %v, hasErr %v}, want {m, %v, %v, %v, %v}",
					h.method, h.hasCtx, h.varargs, h.hasRes, h.hasErr, tc.hasCtx, tc.varargs, tc.hasRes, tc.hasErr)
			}
			if !reflect.DeepEqual(h.params, tc.params) && (len(h.params) != 0 || len(tc.params) != 0) {
				t.Errorf("params = %v, want %v", h.params, tc.params)
			}
			if got := h.signature(); got != tc.sig {
				t.Errorf("signature() = %q, want %q", got, tc.sig)
			}
		})
	}
}

// types lists the types that ptrs point to: types((*string)(nil)).
func types(ptrs ...any) []reflect.Type {
	var out []reflect.Type
	for _, p := range ptrs {
		out = append(out, reflect.TypeOf(p).Elem())
	}
	return out
}

func TestNewHandlerRejects(t *testing.T) {
	var nilFunc func()
	for _, tc := range []struct {
		name, method string
		fn           any
		want         string
	}{
		{"empty method", "", func() {}, "the method name is empty"},
		{"reserved method", "$unload", func() {}, "reserved for Vigor"},
		{"reserved prefix only", "$", func() {}, "reserved for Vigor"},
		{"not a func", "m", 42, "the handler is a int, not a func"},
		{"a string", "m", "greet", "the handler is a string, not a func"},
		{"nil", "m", nil, "the handler is a <nil>, not a func"},
		{"nil func", "m", nilFunc, "the handler is a nil func()"},
		{"ctx second", "m", func(string, context.Context) {}, "context.Context must be the first parameter"},
		{"ctx twice", "m", func(context.Context, context.Context) {}, "context.Context must be the first parameter"},
		{"second result not error", "m", func() (int, string) { return 0, "" }, "the second result must be error, not string"},
		{"three results", "m", func() (int, int, error) { return 0, 0, nil }, "at most (result, error), not 3 values"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, err := newHandler(tc.method, tc.fn)
			if err == nil {
				t.Fatalf("newHandler(%q, %T) = %+v, want an error", tc.method, tc.fn, h)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("newHandler(%q, %T): %q, want it to contain %q", tc.method, tc.fn, err, tc.want)
			}
		})
	}
}

// Plugin.Handle panics with the method and the reason, which setup turns
// into the load failure.
func TestHandlePanicsOnBadSignature(t *testing.T) {
	p := &Plugin{handlers: make(map[string]*handler)}
	defer func() {
		r := recover()
		msg, _ := r.(string)
		if want := `vigor: Handle("x"): context.Context must be the first parameter`; msg != want {
			t.Fatalf("panic %#v, want %q", r, want)
		}
		if len(p.handlers) != 0 {
			t.Fatalf("a rejected handler was registered: %v", p.handlers)
		}
	}()
	p.Handle("x", func(int, context.Context) {})
}

// ---------------------------------------------------------------------------
// Calls, with the arguments as each editor sends them

// handlerCodec is one editor's encoding of a message's arguments.
type handlerCodec struct {
	name string
	// params encodes args as the editor would in a notification and
	// returns them as the plugin's codec reads them.
	params func(t *testing.T, args []any) (wire.Codec, []wire.Raw)
}

var handlerCodecs = []handlerCodec{
	{"vim", func(t *testing.T, args []any) (wire.Codec, []wire.Raw) {
		b, err := vimjson.AppendValue(nil, []any{0, []any{"m", args}})
		if err != nil {
			t.Fatal(err)
		}
		return readParams(t, vimjson.New(bytes.NewReader(append(b, '\n'))))
	}},
	{"nvim", func(t *testing.T, args []any) (wire.Codec, []wire.Raw) {
		b, err := msgpackrpc.New(bytes.NewReader(nil)).AppendNotification(nil, "m", args)
		if err != nil {
			t.Fatal(err)
		}
		return readParams(t, msgpackrpc.New(bytes.NewReader(b)))
	}},
}

func readParams(t *testing.T, c wire.Codec) (wire.Codec, []wire.Raw) {
	t.Helper()
	var m wire.Message
	if err := c.ReadMessage(&m); err != nil {
		t.Fatal(err)
	}
	return c, m.Params
}

type point struct {
	X    int    `json:"x"`
	Name string `json:"name"`
	Tag  any    `json:"tag"`
}

type ctxKey struct{}

func TestHandlerCallDecodes(t *testing.T) {
	for _, tc := range []struct {
		name string
		fn   any
		args []any
		want any
	}{
		{"string and int", func(ctx context.Context, s string, n int) (string, error) {
			return strings.Repeat(s, n), nil
		}, []any{"ab", 3}, "ababab"},
		{"ctx is passed", func(ctx context.Context) string {
			v, _ := ctx.Value(ctxKey{}).(string)
			return v
		}, nil, "the ctx"},
		{"bool and float", func(b bool, f float64) any { return []any{b, f} }, []any{true, 1.5}, []any{true, 1.5}},
		{"struct by json tags", func(p point) point { return p },
			[]any{map[string]any{"x": 7, "name": "n", "tag": 1}}, point{X: 7, Name: "n", Tag: int64(1)}},
		{"pointer", func(p *point) int { return p.X }, []any{map[string]any{"x": 9}}, 9},
		{"any numbers are int64", func(xs []any) []any { return xs }, []any{[]any{1, -2, "s", 2.5}}, []any{int64(1), int64(-2), "s", 2.5}},
		{"map", func(m map[string]any) any { return m["k"] }, []any{map[string]any{"k": []any{1}}}, []any{int64(1)}},
		{"list of strings", func(xs []string) int { return len(xs) }, []any{[]string{"a", "b"}}, 2},
		{"variadic", func(prefix string, xs ...int) []any {
			return []any{prefix, xs}
		}, []any{"p", 1, 2, 3}, []any{"p", []int{1, 2, 3}}},
		{"variadic with none", func(prefix string, xs ...int) int { return len(xs) }, []any{"p"}, 0},
		{"no results", func(string) {}, []any{"x"}, nil},
		{"nil result", func() (any, error) { return nil, nil }, nil, nil},
	} {
		for _, hc := range handlerCodecs {
			t.Run(tc.name+"/"+hc.name, func(t *testing.T) {
				h, err := newHandler("m", tc.fn)
				if err != nil {
					t.Fatal(err)
				}
				codec, params := hc.params(t, tc.args)
				ctx := context.WithValue(context.Background(), ctxKey{}, "the ctx")
				got, err := h.call(ctx, codec, params)
				if err != nil {
					t.Fatalf("call: %v", err)
				}
				if !reflect.DeepEqual(got, tc.want) {
					t.Fatalf("call = %#v, want %#v", got, tc.want)
				}
			})
		}
	}
}

func TestHandlerCallErrors(t *testing.T) {
	errBad := errors.New("bad input")
	for _, tc := range []struct {
		name string
		fn   any
		args []any
		want string
	}{
		{"too few", func(string, int) {}, []any{"x"}, "takes 2 arguments (string, int), got 1"},
		{"too many", func(context.Context, string) {}, []any{"x", "y"}, "takes 1 argument (string), got 2"},
		{"none wanted", func() {}, []any{1}, "takes 0 arguments (), got 1"},
		{"too few for variadic", func(string, ...int) {}, nil, "takes at least 1 argument (string, ...int), got 0"},
		{"String as int", func(int) {}, []any{"seven"}, "argument 1: cannot use String as int"},
		{"Number as string", func(string) {}, []any{7}, "argument 1: cannot use Number as string"},
		{"Number as list", func(string, []string) {}, []any{"x", 5}, "argument 2: cannot use Number as []string"},
		{"List as struct", func(point) {}, []any{[]any{1}}, "argument 1: cannot use List as vigor.point"},
		{"Dict as list", func([]int) {}, []any{map[string]any{"a": 1}}, "argument 1: cannot use Dict as []int"},
		{"bad variadic item", func(string, ...int) {}, []any{"x", 1, "two"}, "argument 3: cannot use String as int"},
		{"handler error", func() error { return errBad }, nil, "bad input"},
		{"handler result and error", func() (int, error) { return 1, errBad }, nil, "bad input"},
	} {
		for _, hc := range handlerCodecs {
			t.Run(tc.name+"/"+hc.name, func(t *testing.T) {
				h, err := newHandler("m", tc.fn)
				if err != nil {
					t.Fatal(err)
				}
				codec, params := hc.params(t, tc.args)
				_, err = h.call(context.Background(), codec, params)
				if err == nil || err.Error() != tc.want {
					t.Fatalf("call: %v, want %q", err, tc.want)
				}
			})
		}
	}
}

// A handler's error is returned as it is, for errors.Is.
func TestHandlerCallKeepsError(t *testing.T) {
	errBad := errors.New("bad input")
	h, err := newHandler("m", func() (string, error) { return "partial", errBad })
	if err != nil {
		t.Fatal(err)
	}
	codec, params := handlerCodecs[0].params(t, nil)
	res, err := h.call(context.Background(), codec, params)
	if !errors.Is(err, errBad) {
		t.Fatalf("err = %v, want errBad", err)
	}
	if res != "partial" {
		t.Fatalf("res = %#v, want the handler's result", res)
	}
}
