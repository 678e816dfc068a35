package msgpackrpc_test

import (
	"bytes"
	"errors"
	"math"
	"testing"

	"github.com/vigorvim/vigor/internal/codec/msgpackrpc"
	"github.com/vigorvim/vigor/internal/wire"
)

// nest wraps leaf in n Lists.
func nest(n int, leaf any) any {
	v := leaf
	for i := 0; i < n; i++ {
		v = []any{v}
	}
	return v
}

func valueError(t *testing.T, err error) *wire.ValueError {
	t.Helper()
	var ve *wire.ValueError
	if !errors.As(err, &ve) {
		t.Fatalf("err = %#v, want a *wire.ValueError", err)
	}
	return ve
}

// Neovim closes the channel, without a word, for a message with a value
// deeper than MaxMessageDepth: the codec refuses it, naming how deep the
// value at each place of the path may nest. The limits were found against
// Neovim 0.11 (e2e TestValuesTooDeep): an argument of nvim_call_function
// holds 28 levels of Lists and Dicts around a String, 29 around a Number
// or an empty List or Dict, and a result one more.
func TestMessageDepth(t *testing.T) {
	type wrap struct{ V any }
	c := newCodec(nil)
	call := func(arg any) error {
		_, err := c.AppendRequest(nil, 1, "nvim_call_function", []any{"F", []any{arg}})
		return err
	}
	for _, arg := range []any{nest(28, "leaf"), nest(29, 1), nest(29, ""), nest(29, 1.5), nest(29, nil), nest(29, true), nest(29, []any{}),
		nest(29, map[string]any{}), nest(28, []any{1}), nest(27, wrap{V: 1}), nest(28, []map[string]any{{}}), nest(27, wire.Raw{0x91, 0x91, 0x01}),
		nest(28, wire.Raw{0x91, 0xa0}), nest(28, []byte{})} {
		if err := call(arg); err != nil {
			t.Errorf("%.80v: %v", arg, err)
		}
	}
	for _, arg := range []any{nest(29, "leaf"), nest(30, 1), nest(29, []any{1}), nest(28, wrap{V: 1}), nest(29, []map[string]any{{}}),
		nest(28, wire.Raw{0x91, 0x91, 0x01}), nest(28, wire.Raw{0x91, 0xa1, 'x'}), nest(29, []byte{1})} {
		err := call(arg)
		if err == nil {
			t.Errorf("%.80v: no error", arg)
			continue
		}
		ve := valueError(t, err)
		if len(ve.Path) < 2 || ve.Path[0] != 1 || ve.Path[1] != 0 {
			t.Errorf("%#v: path %v, want [1 0 ...]", arg, ve.Path)
		}
		if got, want := ve.At(2), "Lists and Dicts nested more than 28 deep, more than Neovim reads (one more if the innermost hold no Strings)"; got != want {
			t.Errorf("%#v: At(2) = %q, want %q", arg, got, want)
		}
	}
	// A result, inside the reply tuple, holds one more.
	if _, err := c.AppendResponse(nil, 1, []any{nest(29, "leaf"), nil}); err != nil {
		t.Errorf("result 29 deep: %v", err)
	}
	if _, err := c.AppendResponse(nil, 1, []any{nest(30, 1), nil}); err != nil {
		t.Errorf("result 30 deep around a Number: %v", err)
	}
	_, err := c.AppendResponse(nil, 1, []any{nest(30, "leaf"), nil})
	if got := valueError(t, err).At(1); got != "Lists and Dicts nested more than 29 deep, more than Neovim reads (one more if the innermost hold no Strings)" {
		t.Errorf("result 30 deep: %q", got)
	}
	if _, err := c.AppendResponse(nil, 1, []any{nest(31, 1), nil}); err == nil {
		t.Errorf("result 31 deep around a Number: no error")
	}
	// A batch's arguments lie deeper still.
	calls := []string{"a", "b"}
	args := func(fn string) (string, []any) {
		if fn == "b" {
			return fn, []any{1, nest(27, 1)}
		}
		return fn, []any{nest(26, 1), nest(25, "x")}
	}
	_, err = msgpackrpc.AppendAtomicCalls(nil, calls, args)
	ve := valueError(t, err)
	if len(ve.Path) != 2 || ve.Path[0] != 1 || ve.Path[1] != 1 || ve.At(2) != "Lists and Dicts nested more than 25 deep, more than Neovim reads (one more if the innermost hold no Strings)" {
		t.Errorf("batch: path %v, %q", ve.Path, ve.At(2))
	}
}

// A Number holds at most math.MaxInt64 on both editors; msgpack's uint 64
// above it reached Neovim as a negative Number.
func TestUintAboveMaxInt64(t *testing.T) {
	const msg = "18446744073709551615 does not fit in a Number (at most 9223372036854775807)"
	type big struct{ N uint64 }
	c := newCodec(nil)
	for _, v := range []any{uint64(math.MaxUint64), uint(math.MaxUint64), []uint64{1, math.MaxUint64},
		map[string]any{"n": uint64(math.MaxUint64)}, big{math.MaxUint64}, []any{"x", big{math.MaxUint64}}} {
		_, err := c.AppendRequest(nil, 1, "F", []any{v})
		if ve := valueError(t, err); ve.Msg != msg || len(ve.Path) == 0 || ve.Path[0] != 0 {
			t.Errorf("%#v: %q at %v, want %q", v, ve.Msg, ve.Path, msg)
		}
		_, err = msgpackrpc.AppendAtomicCalls(nil, []int{0}, func(int) (string, []any) { return "F", []any{v} })
		if ve := valueError(t, err); ve.Msg != msg {
			t.Errorf("batch %#v: %q", v, ve.Msg)
		}
	}
	if _, err := c.AppendRequest(nil, 1, "F", []any{uint64(math.MaxInt64), big{math.MaxInt64}}); err != nil {
		t.Errorf("MaxInt64: %v", err)
	}
}

// Neovim closes the channel for a Dict whose keys are not Strings.
func TestDictKeysMustBeStrings(t *testing.T) {
	c := newCodec(nil)
	for _, v := range []any{map[int]string{1: "a"}, []any{map[bool]int{true: 1}}, struct{ M map[int]int }{map[int]int{1: 1}}} {
		_, err := c.AppendRequest(nil, 1, "F", []any{v})
		if ve := valueError(t, err); ve.Msg != "Dict keys must be Strings" {
			t.Errorf("%#v: %q", v, ve.Msg)
		}
	}
	if _, err := c.AppendRequest(nil, 1, "F", []any{map[string]map[string]int{"a": {"b": 1}}}); err != nil {
		t.Error(err)
	}
}

// A Fallible response is written as its Value, or as its Fallback when the
// Value cannot be sent.
func TestAppendResponseFallible(t *testing.T) {
	c := newCodec(nil)
	got, err := c.AppendResponse([]byte{0xff}, 3, fallible{uint64(math.MaxUint64), nil})
	if err != nil {
		t.Fatal(err)
	}
	var m wire.Message
	if err := newCodec(got[1:]).ReadMessage(&m); err != nil {
		t.Fatal(err)
	}
	var v any
	if err := c.Unmarshal(m.Result, &v); err != nil {
		t.Fatal(err)
	}
	if want := []any{nil, "18446744073709551615 does not fit in a Number (at most 9223372036854775807)"}; !equal(v, want) || got[0] != 0xff {
		t.Fatalf("fallback: %#v", v)
	}
}

func equal(a, b any) bool {
	x, err1 := msgpackrpc.New(nil).AppendResponse(nil, 0, a)
	y, err2 := msgpackrpc.New(nil).AppendResponse(nil, 0, b)
	return err1 == nil && err2 == nil && bytes.Equal(x, y)
}

// Values from Neovim nested deeper than wire.MaxDepth: the message is read
// whole (the framing follows any depth), and decoding the value is an
// error wrapping wire.ErrTooDeep, as it is on Vim.
func TestReadTooDeep(t *testing.T) {
	deep := func(n int) []byte {
		var b []byte
		for i := 0; i < n; i++ {
			b = append(b, 0x91)
		}
		return append(b, 0x01)
	}
	var msg []byte
	msg = append(msg, 0x94, 0x00, 0x07, 0xa1, 'm', 0x93)
	msg = append(msg, deep(wire.MaxDepth)...)
	msg = append(msg, deep(3*wire.MaxDepth)...)
	msg = append(msg, 0xa1, 'x')
	c := newCodec(append(msg, 0x93, 0x02, 0xa1, 'n', 0x90)) // and a notification after it
	var m wire.Message
	if err := c.ReadMessage(&m); err != nil {
		t.Fatal(err)
	}
	if m.Kind != wire.Request || m.ID != 7 || len(m.Params) != 3 {
		t.Fatalf("read %v %d with %d params", m.Kind, m.ID, len(m.Params))
	}
	var v any
	if err := c.Unmarshal(m.Params[0], &v); err != nil {
		t.Errorf("%d deep: %.200v", wire.MaxDepth, err)
	}
	for _, p := range []any{new(any), new([]any), new(string)} {
		if err := c.Unmarshal(m.Params[1], p); !errors.Is(err, wire.ErrTooDeep) {
			t.Errorf("%d deep into %T: %.200v", 3*wire.MaxDepth, p, err)
		}
	}
	var x any
	if err := c.Unmarshal(m.Params[2], &x); err != nil || x != "x" {
		t.Errorf("after it: %#v, %v", x, err)
	}
	items, err := c.SplitList(append([]byte{0x92}, append(deep(3*wire.MaxDepth), 0x02)...))
	if err != nil || len(items) != 2 {
		t.Errorf("SplitList: %d items, %v", len(items), err)
	}
	if err := c.ReadMessage(&m); err != nil || m.Kind != wire.Notification || m.Method != "n" {
		t.Fatalf("the next message: %v %q, %v", m.Kind, m.Method, err)
	}
}

// fallible is a wire.Fallible of a List that answers an error with
// [null, message].
type fallible []any

func (f fallible) Value() any             { return []any(f) }
func (f fallible) Fallback(err error) any { return []any{nil, err.Error()} }
