package vigor

import (
	"bytes"
	"context"
	"errors"
	"math"
	"net"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/vigorvim/vigor/internal/codec/msgpackrpc"
	"github.com/vigorvim/vigor/internal/codec/vimjson"
	"github.com/vigorvim/vigor/internal/host"
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
		{"one param", func(string) {}, false, types((*string)(nil)), false, false, false, "(a String)"},
		{"ctx and params", func(context.Context, string, int) {}, true, types((*string)(nil), (*int)(nil)), false, false, false, "(a String, a Number)"},
		{"variadic", func(...string) {}, false, types((*[]string)(nil)), true, false, false, "(any number of Strings)"},
		{"ctx, fixed and variadic", func(context.Context, int, ...any) {}, true, types((*int)(nil), (*[]any)(nil)), true, false, false, "(a Number, then any number of values)"},
		{"error only", func() error { return nil }, false, nil, false, false, true, "()"},
		{"result only", func() int { return 0 }, false, nil, false, true, false, "()"},
		{"result and error", func(context.Context) (any, error) { return nil, nil }, true, nil, false, true, true, "()"},
		{"struct and map params", func(struct{ X int }, map[string]any) (string, error) { return "", nil },
			false, types((*struct{ X int })(nil), (*map[string]any)(nil)), false, true, true, "(a Dict, a Dict)"},
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
				got, err := h.call(ctx, &decoder{}, host.NewValues(codec, params))
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
		{"too few", func(string, int) {}, []any{"x"}, "takes 2 arguments (a String, a Number), got 1"},
		{"too many", func(context.Context, string) {}, []any{"x", "y"}, "takes 1 argument (a String), got 2"},
		{"none wanted", func() {}, []any{1}, "takes no arguments, got 1"},
		{"too few for variadic", func(string, ...int) {}, nil, "takes at least 1 argument (a String, then any number of Numbers), got 0"},
		{"kinds in the signature", func(bool, float64, []byte, map[string]any, point, *int, any, []string, uint8) {}, nil,
			"takes 9 arguments (a Boolean, a Float, a Blob or a String, a Dict, a Dict, a Number, any value, a List, a Number from 0 to 255), got 0"},
		{"String as int", func(int) {}, []any{"seven"}, `argument 1: expected a Number, got a String ("seven")`},
		{"Number as string", func(string) {}, []any{7}, "argument 1: expected a String, got a Number (7)"},
		{"Number as list", func(string, []string) {}, []any{"x", 5}, "argument 2: expected a List, got a Number (5)"},
		{"List as struct", func(point) {}, []any{[]any{1}}, "argument 1: expected a Dict, got a List of 1 item"},
		{"Dict as list", func([]int) {}, []any{map[string]any{"a": 1}}, "argument 1: expected a List, got a Dict"},
		{"bad variadic item", func(string, ...int) {}, []any{"x", 1, "two"}, `argument 3: expected a Number, got a String ("two")`},
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
				_, err = h.call(context.Background(), &decoder{}, host.NewValues(codec, params))
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
	res, err := h.call(context.Background(), &decoder{}, host.NewValues(codec, params))
	if !errors.Is(err, errBad) {
		t.Fatalf("err = %v, want errBad", err)
	}
	if res != "partial" {
		t.Fatalf("res = %#v, want the handler's result", res)
	}
}

// The rules by which the editor's values fill a handler's parameters, and
// the messages for those that do not fit: the same on both editors (the
// decoders of the two codecs do not agree, so the SDK does not use them
// for typed values; decode.go). Each argument is what the editor sends:
// a Go value that encodes as that editor's value would.
func TestDecodeRules(t *testing.T) {
	type inner struct {
		X int `json:"x"`
	}
	type shape struct {
		Name   string  `json:"name"`
		Points []inner `json:"points"`
		Skip   int     `json:"-"`
	}
	type Named struct {
		Name string `json:"name"`
	}
	type embedded struct {
		inner
		*Named
		Y int
	}
	big := func(v any) []any { return []any{v} }
	for _, tc := range []struct {
		name string
		fn   any
		args []any
		want any // the result, or the error's text when it is a string starting with "!"
	}{
		// Item 1 of the issue: a List is never a struct.
		{"List for a struct", func(p point) point { return p }, big([]any{1, "n", 2}), "!argument 1: expected a Dict, got a List of 3 items"},
		{"List for a struct field", func(s shape) string { return s.Name }, big(map[string]any{"points": []any{[]any{1}}}),
			`!argument 1: field "points": index 0: expected a Dict, got a List of 1 item`},
		// Item 3: v:null for what cannot be nil.
		{"v:null for int", func(n int) int { return n }, big(nil), "!argument 1: expected a Number, got v:null"},
		{"v:null for string", func(s string) string { return s }, big(nil), "!argument 1: expected a String, got v:null"},
		{"v:null for bool", func(b bool) bool { return b }, big(nil), "!argument 1: expected a Boolean, got v:null"},
		{"1 for bool", func(b bool) bool { return b }, big(1), true},
		{"0 for bool", func(b bool) bool { return b }, big(0), false},
		{"2 for bool", func(b bool) bool { return b }, big(2), "!argument 1: expected a Boolean, got a Number (2)"},
		{"v:null for float64", func(f float64) float64 { return f }, big(nil), "!argument 1: expected a Float, got v:null"},
		{"v:null for a struct", func(p point) point { return p }, big(nil), "!argument 1: expected a Dict, got v:null"},
		{"v:null for a pointer", func(p *int) bool { return p == nil }, big(nil), true},
		{"v:null for a slice", func(s []int) bool { return s == nil }, big(nil), true},
		{"v:null for a map", func(m map[string]int) bool { return m == nil }, big(nil), true},
		{"v:null for any", func(v any) bool { return v == nil }, big(nil), true},
		{"v:null inside is the zero value", func(s []int, p point) []any { return []any{s, p.X} },
			[]any{[]any{1, nil}, map[string]any{"x": nil}}, []any{[]int{1, 0}, 0}},
		{"v:null variadic", func(n ...int) int { return len(n) }, big(nil), "!argument 1: expected a Number, got v:null"},
		// Item 4: where, and in Vim's words, with the value.
		{"Float for an int field", func(p point) int { return p.X }, big(map[string]any{"x": 1.5}),
			`!argument 1: field "x": expected a Number, got a Float (1.5)`},
		{"integral Float for int", func(n int) int { return n }, big(2.0), "!argument 1: expected a Number, got a Float (2.0)"},
		{"deep path", func(s shape) int { return 0 }, big(map[string]any{"points": []any{map[string]any{"x": 1}, map[string]any{"x": "b"}}}),
			`!argument 1: field "points": index 1: field "x": expected a Number, got a String ("b")`},
		{"map value", func(m map[string]int) int { return 0 }, big(map[string]any{"k": true}), `!argument 1: key "k": expected a Number, got v:true`},
		{"long String", func(n int) int { return n }, big(strings.Repeat("é", 30)), `!argument 1: expected a Number, got a String ("` + strings.Repeat("é", 20) + `"...)`},
		{"Dict for a String", func(s string) string { return s }, big(map[string]any{}), "!argument 1: expected a String, got a Dict"},
		// Numbers that do not fit are refused, not wrapped (msgpack wrapped
		// them on Neovim: 300 into a uint8 was 44).
		{"300 into uint8", func(n uint8) uint8 { return n }, big(300), "!argument 1: expected a Number from 0 to 255, got a Number (300)"},
		{"-1 into uint", func(n uint) uint { return n }, big(-1), "!argument 1: expected a Number of 0 or more, got a Number (-1)"},
		{"2^40 into int32", func(n int32) int32 { return n }, big(int64(1) << 40),
			"!argument 1: expected a Number from -2147483648 to 2147483647, got a Number (1099511627776)"},
		{"-129 into int8", func(n int8) int8 { return n }, big(-129), "!argument 1: expected a Number from -128 to 127, got a Number (-129)"},
		{"1e300 into float32", func(f float32) float32 { return f }, big(1e300), "!argument 1: expected a Float from -3.4e38 to 3.4e38, got a Float (1e+300)"},
		{"fits", func(a uint8, b int8, c uint32, d float32) []any { return []any{a, b, c, d} }, []any{255, -128, 1 << 31, 1}, []any{uint8(255), int8(-128), uint32(1 << 31), float32(1)}},
		{"a Number for a float64", func(f float64) float64 { return f }, big(3), 3.0},
		{"NaN and Infinity in typed values", func(f []float64, p struct{ F float64 }) []bool {
			return []bool{math.IsNaN(f[0]), math.IsInf(f[1], -1), math.IsInf(p.F, 1)}
		}, []any{[]any{math.NaN(), math.Inf(-1)}, map[string]any{"F": math.Inf(1)}}, []bool{true, true, true}},
		// Arrays: more items than the array holds are refused.
		{"array", func(a [2]int) [2]int { return a }, big([]any{1}), [2]int{1, 0}},
		{"array too long", func(a [2]int) [2]int { return a }, big([]any{1, 2, 3}), "!argument 1: expected a List of at most 2 items, got 3"},
		// Dicts: keys by json tag, else without regard to case, as
		// encoding/json does; integer keys for integer maps.
		{"keys", func(p inner) int { return p.X }, big(map[string]any{"X": 4}), 4},
		{"exact key wins", func(p inner) int { return p.X }, big(map[string]any{"x": 5, "X": 4}), 5},
		{"json:\"-\"", func(s shape) int { return s.Skip }, big(map[string]any{"Skip": 3, "-": 3}), 0},
		{"embedded", func(e embedded) []any { return []any{e.X, e.Name, e.Y} }, big(map[string]any{"x": 1, "name": "n", "Y": 2}), []any{1, "n", 2}},
		{"integer keys", func(m map[int]string) string { return m[12] }, big(map[string]any{"12": "a"}), "a"},
		{"not an integer key", func(m map[int]string) int { return 0 }, big(map[string]any{"a": "b"}), `!argument 1: key "a": expected a Number`},
		{"bad key type", func(m map[bool]int) int { return 0 }, big(map[string]any{}), "!argument 1: cannot decode a Dict into a map[bool]int: its keys must be strings or integers"},
		// Blobs: a []byte takes a Blob, a String or a List of bytes.
		{"bytes from a String", func(b []byte) []byte { return b }, big("a\x00b"), []byte("a\x00b")},
		{"bytes from a List", func(b []byte) []byte { return b }, big([]any{0, 255}), []byte{0, 255}},
		{"bytes from a bad List", func(b []byte) []byte { return b }, big([]any{1, 256}), "!argument 1: index 1: expected a Number from 0 to 255, got a Number (256)"},
		// Types that decode themselves, as with encoding/json.
		{"json.Unmarshaler", func(t time.Time) int { return t.Year() }, big("2024-05-06T07:08:09Z"), 2024},
		{"json.Unmarshaler fails", func(t time.Time) int { return 0 }, big(7), "!argument 1: cannot decode a Number (7) into a time.Time: Time.UnmarshalJSON: input is not a JSON string"},
		{"TextUnmarshaler", func(ip net.IP) string { return ip.String() }, big("127.0.0.1"), "127.0.0.1"},
		// What no value fits.
		{"chan", func(c chan int) int { return 0 }, big(1), "!argument 1: cannot decode into a chan int"},
		{"interface with methods", func(e error) int { return 0 }, big(1), "!argument 1: cannot decode into error, an interface with methods"},
	} {
		for _, hc := range handlerCodecs {
			t.Run(tc.name+"/"+hc.name, func(t *testing.T) {
				h, err := newHandler("m", tc.fn)
				if err != nil {
					t.Fatal(err)
				}
				codec, params := hc.params(t, tc.args)
				got, err := h.call(context.Background(), &decoder{}, host.NewValues(codec, params))
				if msg, ok := tc.want.(string); ok && strings.HasPrefix(msg, "!") {
					if err == nil || err.Error() != msg[1:] {
						t.Fatalf("call: %#v, %v; want the error %q", got, err, msg[1:])
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got, tc.want) {
					t.Fatalf("got %#v, want %#v", got, tc.want)
				}
			})
		}
	}
}
