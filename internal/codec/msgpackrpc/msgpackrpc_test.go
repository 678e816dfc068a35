package msgpackrpc_test

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/vigorvim/vigor/internal/codec/msgpackrpc"
	"github.com/vigorvim/vigor/internal/wire"
)

// hx decodes hex bytes written with optional spaces, e.g. "94 00 01".
func hx(s string) []byte {
	b, err := hex.DecodeString(strings.Join(strings.Fields(s), ""))
	if err != nil {
		panic(err)
	}
	return b
}

// str returns the hex of a msgpack fixstr, for tests that spell out frames.
func str(s string) string {
	if len(s) > 31 {
		panic("str: too long for a fixstr")
	}
	return hex.EncodeToString(append([]byte{0xa0 | byte(len(s))}, s...))
}

func newCodec(b []byte) *msgpackrpc.Codec { return msgpackrpc.New(bytes.NewReader(b)) }

func hexOf(b []byte) string { return hex.EncodeToString(b) }

// ---------------------------------------------------------------------------
// Framing: what we send.

func TestAppendGolden(t *testing.T) {
	c := newCodec(nil)
	tests := []struct {
		name string
		enc  func(b []byte) ([]byte, error)
		want string
	}{
		{"request", func(b []byte) ([]byte, error) { return c.AppendRequest(b, 1, "Discard", []any{"x"}) },
			"94 00 01 a7 44 69 73 63 61 72 64 91 a1 78"},
		{"request nil params", func(b []byte) ([]byte, error) { return c.AppendRequest(b, 300, "F", nil) },
			"94 00 cd 01 2c a1 46 90"},
		{"request uint32 id", func(b []byte) ([]byte, error) { return c.AppendRequest(b, 70000, "F", []any{}) },
			"94 00 ce 00 01 11 70 a1 46 90"},
		{"request big id", func(b []byte) ([]byte, error) { return c.AppendRequest(b, 1<<40, "F", nil) },
			"94 00 cf 00 00 01 00 00 00 00 00 a1 46 90"},
		{"notification", func(b []byte) ([]byte, error) { return c.AppendNotification(b, "Echo", []any{"hi", 1}) },
			"93 02 a4 45 63 68 6f 92 a2 68 69 01"},
		{"notification no params", func(b []byte) ([]byte, error) { return c.AppendNotification(b, "F", nil) },
			"93 02 a1 46 90"},
		{"response", func(b []byte) ([]byte, error) { return c.AppendResponse(b, 3, "ok") },
			"94 01 03 c0 a2 6f 6b"},
		{"response nil", func(b []byte) ([]byte, error) { return c.AppendResponse(b, 3, nil) },
			"94 01 03 c0 c0"},
		{"response list", func(b []byte) ([]byte, error) { return c.AppendResponse(b, 5, []any{1, nil}) },
			"94 01 05 c0 92 01 c0"},
		{"response raw", func(b []byte) ([]byte, error) { return c.AppendResponse(b, 6, wire.Raw(hx("92 01 02"))) },
			"94 01 06 c0 92 01 02"},
		{"long method", func(b []byte) ([]byte, error) {
			return c.AppendNotification(b, strings.Repeat("m", 32), nil)
		}, "93 02 d9 20" + strings.Repeat("6d", 32) + "90"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.enc(nil)
			if err != nil {
				t.Fatal(err)
			}
			if want := hx(tt.want); !bytes.Equal(got, want) {
				t.Errorf("got  % x\nwant % x", got, want)
			}
			// Appending keeps what is already in the buffer.
			got, err = tt.enc([]byte("pre"))
			if err != nil {
				t.Fatal(err)
			}
			if want := append([]byte("pre"), hx(tt.want)...); !bytes.Equal(got, want) {
				t.Errorf("with a prefix: got % x\nwant % x", got, want)
			}
		})
	}
}

type inner struct {
	N float64 `json:"n"`
}

type point struct {
	X     int               `json:"x"`
	Y     string            `json:"y,omitempty"`
	Skip  int               `json:"-"`
	Inner *inner            `json:"inner"`
	Tags  []string          `json:"tags"`
	Meta  map[string]string `json:"meta,omitempty"`
}

// TestValueGolden checks how single values are encoded, as the only param
// of a notification to "F".
func TestValueGolden(t *testing.T) {
	tests := []struct {
		name string
		in   any
		want string
	}{
		{"true", true, "c3"},
		{"false", false, "c2"},
		{"nil", nil, "c0"},
		{"small int", 5, "05"},
		{"int8", int8(5), "05"},
		{"minus one", -1, "ff"},
		{"int 200", 200, "cc c8"},
		{"int -33", -33, "d0 df"},
		{"int -200", -200, "d1 ff 38"},
		{"int 65536", 65536, "ce 00 01 00 00"},
		{"int64 1<<40", int64(1) << 40, "cf 00 00 01 00 00 00 00 00"},
		{"min int64", int64(math.MinInt64), "d3 80 00 00 00 00 00 00 00"},
		{"max uint64 that is a Number", uint64(math.MaxInt64), "cf 7f ff ff ff ff ff ff ff"},
		// Floats stay floats, even when integral, so Neovim sees a Float.
		{"float64", 1.5, "cb 3f f8 00 00 00 00 00 00"},
		{"integral float64", 1.0, "cb 3f f0 00 00 00 00 00 00"},
		{"float32", float32(1.5), "ca 3f c0 00 00"},
		{"string", "hi", "a2 68 69"},
		{"empty string", "", "a0"},
		{"string with NUL", "a\x00b", "a3 61 00 62"},
		{"unicode", "é", "a2 c3 a9"},
		{"str8", strings.Repeat("x", 32), "d9 20" + strings.Repeat("78", 32)},
		{"bytes as bin", []byte{1, 2}, "c4 02 01 02"},
		{"empty bin", []byte{}, "c4 00"},
		{"raw", wire.Raw(hx("92 01 02")), "92 01 02"},
		{"nested list", []any{[]any{1, "a"}}, "91 92 01 a1 61"},
		{"raw in list", []any{wire.Raw(hx("c3"))}, "91 c3"},
		{"string slice", []string{"a"}, "91 a1 61"},
		{"dict", map[string]any{"k": 1}, "81 a1 6b 01"},
		// {"x":1,"inner":nil,"tags":nil}: the "-" field and the empty
		// omitempty ones are left out.
		{"struct", point{X: 1, Skip: 9}, "83 a1 78 01 a5 69 6e 6e 65 72 c0 a4 74 61 67 73 c0"},
		{"struct omitempty", struct {
			A int    `json:"a"`
			B string `json:"b,omitempty"`
			C int    `json:"-"`
		}{A: 1, C: 3}, "81 a1 61 01"},
		{"struct all", struct {
			A int    `json:"a"`
			B string `json:"b,omitempty"`
		}{A: 1, B: "y"}, "82 a1 61 01 a1 62 a1 79"},
	}
	c := newCodec(nil)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := c.AppendNotification(nil, "F", []any{tt.in})
			if err != nil {
				t.Fatal(err)
			}
			want := hx("93 02 a1 46 91" + tt.want)
			if !bytes.Equal(got, want) {
				t.Errorf("got  % x\nwant % x", got, want)
			}
		})
	}
}

func TestAppendErrors(t *testing.T) {
	c := newCodec(nil)
	for _, v := range []any{make(chan int), func() {}, []any{1, make(chan int)}} {
		if _, err := c.AppendRequest(nil, 1, "F", []any{v}); err == nil {
			t.Errorf("AppendRequest with %T: no error", v)
		}
		if _, err := c.AppendNotification(nil, "F", []any{v}); err == nil {
			t.Errorf("AppendNotification with %T: no error", v)
		}
		if _, err := c.AppendResponse(nil, 1, v); err == nil {
			t.Errorf("AppendResponse with %T: no error", v)
		}
	}
	// The codec still works after an error.
	got, err := c.AppendResponse(nil, 3, "ok")
	if err != nil || !bytes.Equal(got, hx("94 01 03 c0 a2 6f 6b")) {
		t.Errorf("after an error: % x, %v", got, err)
	}
}

// ---------------------------------------------------------------------------
// Framing: what Neovim sends.

type wantMsg struct {
	kind   wire.Kind
	id     int64
	method string
	params []string // hex
	result string   // hex
	err    string   // hex
}

func checkMsg(t *testing.T, m *wire.Message, w wantMsg) {
	t.Helper()
	if m.Kind != w.kind || m.ID != w.id || m.Method != w.method {
		t.Errorf("got %s id=%d method=%q, want %s id=%d method=%q", m.Kind, m.ID, m.Method, w.kind, w.id, w.method)
	}
	var params []string
	for _, p := range m.Params {
		params = append(params, hexOf(p))
	}
	var wparams []string
	for _, p := range w.params {
		wparams = append(wparams, hexOf(hx(p)))
	}
	if !reflect.DeepEqual(params, wparams) {
		t.Errorf("params = %q, want %q", params, wparams)
	}
	if got, want := hexOf(m.Result), hexOf(hx(w.result)); got != want {
		t.Errorf("result = %s, want %s", got, want)
	}
	if got, want := hexOf(m.Error), hexOf(hx(w.err)); got != want {
		t.Errorf("error = %s, want %s", got, want)
	}
	if w.err == "" && m.Error != nil {
		t.Errorf("error = % x, want nil", m.Error)
	}
}

const errMsg = "Vim:E117: Unknown function: Foo"

var readTests = []struct {
	name string
	in   string
	want wantMsg
}{
	{"request", "94 00 07" + str("greet") + "91" + str("CI"),
		wantMsg{kind: wire.Request, id: 7, method: "greet", params: []string{str("CI")}}},
	{"request uint16 id", "94 00 cd 01 2c" + str("m") + "93 01 c0 92 c3 c2",
		wantMsg{kind: wire.Request, id: 300, method: "m", params: []string{"01", "c0", "92 c3 c2"}}},
	{"request str8 method", "94 00 01 d9 03 61 62 63 90",
		wantMsg{kind: wire.Request, id: 1, method: "abc"}},
	{"request array16 params", "94 00 01" + str("m") + "dc 00 02 a1 61 cb 3f f8 00 00 00 00 00 00",
		wantMsg{kind: wire.Request, id: 1, method: "m", params: []string{str("a"), "cb 3f f8 00 00 00 00 00 00"}}},
	{"notification", "93 02" + str("$interrupt") + "90",
		wantMsg{kind: wire.Notification, method: "$interrupt"}},
	{"notification params", "93 02" + str("ev") + "92 81 a1 6b c4 01 ff d4 00 01",
		wantMsg{kind: wire.Notification, method: "ev", params: []string{"81 a1 6b c4 01 ff", "d4 00 01"}}},
	{"response", "94 01 05 c0 92 01 c0",
		wantMsg{kind: wire.Response, id: 5, result: "92 01 c0"}},
	{"response uint8 id", "94 01 cc c8 c0 01",
		wantMsg{kind: wire.Response, id: 200, result: "01"}},
	{"response error", "94 01 05 92 00 bf" + hex.EncodeToString([]byte(errMsg)) + "c0",
		wantMsg{kind: wire.Response, id: 5, result: "c0", err: "92 00 bf" + hex.EncodeToString([]byte(errMsg))}},
}

func TestReadMessage(t *testing.T) {
	for _, tt := range readTests {
		t.Run(tt.name, func(t *testing.T) {
			c := newCodec(hx(tt.in))
			var m wire.Message
			if err := c.ReadMessage(&m); err != nil {
				t.Fatal(err)
			}
			checkMsg(t, &m, tt.want)
			if err := c.ReadMessage(&m); err != io.EOF {
				t.Errorf("after the last message: err = %v, want io.EOF", err)
			}
		})
	}
}

func TestReadMessageStream(t *testing.T) {
	var in []byte
	for _, tt := range readTests {
		in = append(in, hx(tt.in)...)
	}
	c := newCodec(in)
	var m wire.Message // reused: ReadMessage must reset it
	var kept []wire.Message
	for _, tt := range readTests {
		if err := c.ReadMessage(&m); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		checkMsg(t, &m, tt.want)
		kept = append(kept, m)
	}
	if err := c.ReadMessage(&m); err != io.EOF {
		t.Errorf("at the end err = %v, want io.EOF", err)
	}
	// Values of earlier messages are not overwritten by later reads.
	for i, tt := range readTests {
		checkMsg(t, &kept[i], tt.want)
	}
}

func TestReadMessageMalformedRecovers(t *testing.T) {
	tests := []struct {
		name string
		in   string
		// For a request that is bad after its id, the codec still reports
		// the kind and id, so that the session can answer it.
		kind wire.Kind
		id   int64
	}{
		{name: "empty array", in: "90"},
		{name: "two items", in: "92 01 02"},
		{name: "five items", in: "95 00 01" + str("F") + "90 c0"},
		{name: "array16 of five", in: "dc 00 05 00 01" + str("F") + "90 c0"},
		{name: "nil", in: "c0"},
		{name: "request of three", in: "93 00 01" + str("F")},
		{name: "notification of four", in: "94 02" + str("F") + "90 c0"},
		{name: "response of three", in: "93 01 01 c0"},
		{name: "type 3", in: "94 03 01" + str("F") + "90"},
		{name: "type -1", in: "93 ff" + str("F") + "90"},
		{name: "type is a string", in: "94" + str("x") + "01" + str("F") + "90"},
		{name: "number", in: "2a"},
		{name: "string", in: str("abc")},
		{name: "map", in: "81 a1 61 01"},
		{name: "bin", in: "c4 02 94 00"},
		{name: "request id is a string", in: "94 00" + str("x") + str("F") + "90"},
		{name: "request method is a number", in: "94 00 09 2a 90", kind: wire.Request, id: 9},
		{name: "request method is a list", in: "94 00 09 91 a1 61 90", kind: wire.Request, id: 9},
		{name: "request params is a string", in: "94 00 09" + str("F") + str("x"), kind: wire.Request, id: 9},
		{name: "request params is a map", in: "94 00 09" + str("F") + "81 a1 61 01", kind: wire.Request, id: 9},
		{name: "notification method is a number", in: "93 02 2a 90", kind: wire.Notification},
		{name: "notification params is a number", in: "93 02" + str("F") + "07", kind: wire.Notification},
		{name: "response id is a string", in: "94 01" + str("x") + "c0 c0"},
	}
	next := "94 01 09 c0" + str("next")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newCodec(hx(tt.in + next))
			var m wire.Message
			err := c.ReadMessage(&m)
			if !errors.Is(err, wire.ErrMalformed) {
				t.Fatalf("err = %v, want one wrapping wire.ErrMalformed", err)
			}
			if m.Kind != tt.kind || m.ID != tt.id {
				t.Errorf("malformed message: kind %s id %d, want kind %s id %d", m.Kind, m.ID, tt.kind, tt.id)
			}
			if err := c.ReadMessage(&m); err != nil {
				t.Fatalf("the message after a malformed one: %v", err)
			}
			checkMsg(t, &m, wantMsg{kind: wire.Response, id: 9, result: str("next")})
		})
	}
}

// Bytes that are not msgpack, or that end early, break the stream: the error
// must not claim to be recoverable.
func TestReadMessageBrokenStream(t *testing.T) {
	for _, in := range []string{"c1", "94 00 01 c1", "94 00 01" + str("F") + "91 c1"} {
		c := newCodec(hx(in + "94 01 09 c0 c0"))
		var m wire.Message
		err := c.ReadMessage(&m)
		if err == nil || errors.Is(err, wire.ErrMalformed) {
			t.Errorf("% s: err = %v, want an error that is not ErrMalformed", in, err)
		}
	}
	for _, in := range []string{"94", "94 00 01", "94 00 01 a5 61", "94 01 01 c0 dc 00 03 01"} {
		c := newCodec(hx(in))
		var m wire.Message
		err := c.ReadMessage(&m)
		if err != io.EOF && err != io.ErrUnexpectedEOF {
			t.Errorf("truncated % s: err = %v, want io.EOF or io.ErrUnexpectedEOF", in, err)
		}
	}
	c := newCodec(nil)
	var m wire.Message
	if err := c.ReadMessage(&m); err != io.EOF {
		t.Errorf("empty stream: err = %v, want io.EOF", err)
	}
}

// ---------------------------------------------------------------------------
// Values.

// roundTrip encodes v as a response result and returns the result as read
// back from the stream.
func roundTrip(t *testing.T, v any) wire.Raw {
	t.Helper()
	b, err := newCodec(nil).AppendResponse(nil, 1, v)
	if err != nil {
		t.Fatalf("AppendResponse(%#v): %v", v, err)
	}
	var m wire.Message
	if err := newCodec(b).ReadMessage(&m); err != nil {
		t.Fatalf("ReadMessage(% x): %v", b, err)
	}
	return m.Result
}

func TestValuesIntoAny(t *testing.T) {
	tests := []struct {
		in   any
		want any
	}{
		{1, int64(1)},
		{0, int64(0)},
		{-1, int64(-1)},
		{127, int64(127)},
		{128, int64(128)},
		{200, int64(200)},
		{-200, int64(-200)},
		{65535, int64(65535)},
		{int64(1) << 40, int64(1) << 40},
		{uint8(255), int64(255)},
		{uint64(math.MaxInt64), int64(math.MaxInt64)},
		{int64(math.MinInt64), int64(math.MinInt64)},
		{1.5, 1.5},
		{1.0, 1.0},
		{float32(1.5), 1.5},
		{"s", "s"},
		{"a\x00b", "a\x00b"},
		{nil, nil},
		{true, true},
		{[]any{1, "a", []any{2.5, 300}}, []any{int64(1), "a", []any{2.5, int64(300)}}},
		{map[string]any{"n": 300, "l": []any{200}, "m": map[string]any{"k": -5}},
			map[string]any{"n": int64(300), "l": []any{int64(200)}, "m": map[string]any{"k": int64(-5)}}},
		{point{X: 1000, Tags: []string{"t"}},
			map[string]any{"x": int64(1000), "inner": nil, "tags": []any{"t"}}},
	}
	c := newCodec(nil)
	for _, tt := range tests {
		r := roundTrip(t, tt.in)
		var got any
		if err := c.Unmarshal(r, &got); err != nil {
			t.Errorf("Codec.Unmarshal(% x): %v", r, err)
		} else if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Codec.Unmarshal(% x) = %#v, want %#v", r, got, tt.want)
		}
		got = nil
		if err := msgpackrpc.Unmarshal(r, &got); err != nil {
			t.Errorf("Unmarshal(% x): %v", r, err)
		} else if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Unmarshal(% x) = %#v, want %#v", r, got, tt.want)
		}
	}
}

func TestStrings(t *testing.T) {
	c := newCodec(nil)
	for _, n := range []int{0, 1, 31, 32, 255, 256, 65535, 65536, 70000} {
		s := strings.Repeat("é\x00x", n/4+1)[:n]
		r := roundTrip(t, s)
		var got string
		if err := c.Unmarshal(r, &got); err != nil || got != s {
			t.Errorf("string of %d bytes: %v (len %d)", n, err, len(got))
		}
		got = ""
		if err := msgpackrpc.Unmarshal(r, &got); err != nil || got != s {
			t.Errorf("Unmarshal: string of %d bytes: %v (len %d)", n, err, len(got))
		}
		var a any
		if err := c.Unmarshal(r, &a); err != nil || a != s {
			t.Errorf("string of %d bytes into any: %v", n, err)
		}
	}
	// A String that Neovim sends as bin still decodes into a string.
	var s string
	if err := c.Unmarshal(wire.Raw(hx("c4 03 61 00 62")), &s); err != nil || s != "a\x00b" {
		t.Errorf("bin into string: %q, %v", s, err)
	}
	// Truncated or mistyped values fail instead of returning junk.
	for _, in := range []string{"a3 61 62", "d9 05 61", "da 00 05 61", "01", "c3", "91 a1 61"} {
		s = ""
		if err := c.Unmarshal(wire.Raw(hx(in)), &s); err == nil {
			t.Errorf("% s into string: no error (got %q)", in, s)
		}
	}
	if err := c.Unmarshal(nil, &s); err == nil {
		t.Errorf("empty Raw into string: no error")
	}
}

func TestBytes(t *testing.T) {
	c := newCodec(nil)
	for _, p := range [][]byte{{0, 1, 127, 128, 255}, {}, []byte("\x00text\xff"), bytes.Repeat([]byte{7}, 300)} {
		r := roundTrip(t, p)
		if tn := msgpackrpc.TypeName(r); tn != "Blob" {
			t.Errorf("TypeName of an encoded []byte = %q, want Blob", tn)
		}
		var got []byte
		if err := c.Unmarshal(r, &got); err != nil || !bytes.Equal(got, p) {
			t.Errorf("[]byte %v: %v, %v", p, got, err)
		}
	}
	var got []byte
	if err := c.Unmarshal(wire.Raw(hx("a2 68 69")), &got); err != nil || string(got) != "hi" {
		t.Errorf("str into []byte: %q, %v", got, err)
	}
	got = []byte("old")
	if err := c.Unmarshal(wire.Raw(hx("c0")), &got); err != nil || got != nil {
		t.Errorf("nil into []byte: %v, %v", got, err)
	}
}

func TestNumbers(t *testing.T) {
	c := newCodec(nil)
	for _, n := range []int64{0, 1, -1, 127, 128, -32, -33, 255, 256, 65535, 65536, 1 << 32, math.MaxInt64, math.MinInt64} {
		var got int64
		if err := c.Unmarshal(roundTrip(t, n), &got); err != nil || got != n {
			t.Errorf("int64 %d: %d, %v", n, got, err)
		}
	}
	for _, f := range []float64{0, 1, -2.5, 1e20, math.MaxFloat64, math.Inf(1), math.Inf(-1)} {
		var got float64
		if err := c.Unmarshal(roundTrip(t, f), &got); err != nil || got != f {
			t.Errorf("float64 %v: %v, %v", f, got, err)
		}
	}
	var got float64
	if err := c.Unmarshal(roundTrip(t, math.NaN()), &got); err != nil || !math.IsNaN(got) {
		t.Errorf("NaN: %v, %v", got, err)
	}
	var b bool
	if err := c.Unmarshal(roundTrip(t, true), &b); err != nil || !b {
		t.Errorf("bool: %v, %v", b, err)
	}
}

func TestStructs(t *testing.T) {
	c := newCodec(nil)
	in := point{X: -3, Y: "ü", Skip: 5, Inner: &inner{N: 4}, Tags: []string{"a", "b"}, Meta: map[string]string{"k": "v"}}
	r := roundTrip(t, in)
	// The field names on the wire are the json tags.
	var m map[string]any
	if err := c.Unmarshal(r, &m); err != nil {
		t.Fatal(err)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	for _, k := range []string{"x", "y", "inner", "tags", "meta"} {
		if _, ok := m[k]; !ok {
			t.Errorf("key %q missing from %v", k, keys)
		}
	}
	if len(m) != 5 {
		t.Errorf("keys = %v, want x y inner tags meta", keys)
	}
	var got point
	if err := c.Unmarshal(r, &got); err != nil {
		t.Fatal(err)
	}
	in.Skip = 0
	if !reflect.DeepEqual(got, in) {
		t.Errorf("got %+v, want %+v", got, in)
	}
	// Extra keys from the editor are ignored; missing ones stay zero.
	extra := hx("83 a5 65 78 74 72 61 01 a1 79 a1 62 a1 78 02")
	got = point{}
	if err := c.Unmarshal(wire.Raw(extra), &got); err != nil || got.X != 2 || got.Y != "b" {
		t.Errorf("with extra keys: %+v, %v", got, err)
	}
	var n int
	if err := c.Unmarshal(wire.Raw(hx("a1 78")), &n); err == nil {
		t.Error("a String into int: no error")
	}
}

func TestTypeName(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"00", "Number"},
		{"7f", "Number"},
		{"ff", "Number"},
		{"e0", "Number"},
		{"cc c8", "Number"},
		{"cd 01 00", "Number"},
		{"d3 00 00 00 00 00 00 00 00", "Number"},
		{"80", "Dict"},
		{"81 a1 61 01", "Dict"},
		{"de 00 00", "Dict"},
		{"df 00 00 00 00", "Dict"},
		{"90", "List"},
		{"9f", "List"},
		{"dc 00 00", "List"},
		{"dd 00 00 00 00", "List"},
		{"a0", "String"},
		{"bf", "String"},
		{"d9 00", "String"},
		{"da 00 00", "String"},
		{"db 00 00 00 00", "String"},
		{"c0", "v:null"},
		{"c2", "Boolean"},
		{"c3", "Boolean"},
		{"c4 00", "Blob"},
		{"c5 00 00", "Blob"},
		{"c6 00 00 00 00", "Blob"},
		{"ca 00 00 00 00", "Float"},
		{"cb 00 00 00 00 00 00 00 00", "Float"},
		{"d4 00 01", "extension value"}, // Neovim's Buffer, Window, Tabpage
		{"c7 01 00 01", "extension value"},
		{"", "nothing"},
	}
	c := newCodec(nil)
	for _, tt := range tests {
		r := wire.Raw(hx(tt.in))
		if got := msgpackrpc.TypeName(r); got != tt.want {
			t.Errorf("TypeName(% s) = %q, want %q", tt.in, got, tt.want)
		}
		if got := c.TypeName(r); got != tt.want {
			t.Errorf("Codec.TypeName(% s) = %q, want %q", tt.in, got, tt.want)
		}
	}
	for _, tt := range []struct {
		v    any
		want string
	}{
		{1.0, "Float"}, {float32(2), "Float"}, {3, "Number"}, {-300, "Number"}, {uint64(1) << 62, "Number"},
		{[]byte{1}, "Blob"}, {map[string]any{}, "Dict"}, {"x", "String"}, {nil, "v:null"}, {[]any{}, "List"},
		{point{}, "Dict"},
	} {
		if got := msgpackrpc.TypeName(roundTrip(t, tt.v)); got != tt.want {
			t.Errorf("TypeName(encoded %#v) = %q, want %q", tt.v, got, tt.want)
		}
	}
}

func TestSplitList(t *testing.T) {
	c := newCodec(nil)
	got, err := c.SplitList(wire.Raw(hx("94 01 a1 61 92 02 91 03 81 a1 6b c0")))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"01", "a161", "92029103", "81a16bc0"}
	var gots []string
	for _, r := range got {
		gots = append(gots, hexOf(r))
	}
	if !reflect.DeepEqual(gots, want) {
		t.Errorf("got %q, want %q", gots, want)
	}
	if got, err := c.SplitList(wire.Raw(hx("dc 00 02 c3 c2"))); err != nil || len(got) != 2 {
		t.Errorf("array16: %v, %v", got, err)
	}
	if got, err := c.SplitList(wire.Raw(hx("90"))); err != nil || len(got) != 0 {
		t.Errorf("empty list: %v, %v", got, err)
	}
	if got, err := c.SplitList(wire.Raw(hx("c0"))); err != nil || got != nil {
		t.Errorf("nil: %v, %v", got, err)
	}
	for _, in := range []string{"2a", "a1 61", "81 a1 61 01", "92 01", "91 c1", ""} {
		if _, err := c.SplitList(wire.Raw(hx(in))); err == nil {
			t.Errorf("SplitList(% s): no error", in)
		}
	}
}

// Unmarshal is called from many handler goroutines at once.
func TestConcurrentUnmarshal(t *testing.T) {
	c := newCodec(nil)
	type sample struct {
		raw  wire.Raw
		want any
	}
	samples := []sample{
		{roundTrip(t, "hello"), "hello"},
		{roundTrip(t, strings.Repeat("long ", 100)), strings.Repeat("long ", 100)},
		{roundTrip(t, 300), int64(300)},
		{roundTrip(t, []any{1, "a", 2.5}), []any{int64(1), "a", 2.5}},
		{roundTrip(t, map[string]any{"k": []any{true, nil}}), map[string]any{"k": []any{true, nil}}},
	}
	pt := point{X: 7, Y: "y", Tags: []string{"t"}}
	ptRaw := roundTrip(t, pt)
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := 0; g < 16; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 300; i++ {
				s := samples[(g+i)%len(samples)]
				var got any
				unmarshal := c.Unmarshal
				if i%3 == 0 {
					unmarshal = msgpackrpc.Unmarshal
				}
				if err := unmarshal(s.raw, &got); err != nil || !reflect.DeepEqual(got, s.want) {
					errs <- fmt.Sprintf("any: got %#v, %v; want %#v", got, err, s.want)
					return
				}
				var p point
				if err := c.Unmarshal(ptRaw, &p); err != nil || !reflect.DeepEqual(p, pt) {
					errs <- "struct mismatch"
					return
				}
				var str string
				if err := c.Unmarshal(samples[1].raw, &str); err != nil || str != samples[1].want {
					errs <- "string mismatch"
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

func TestCodecInterface(t *testing.T) {
	var c wire.Codec = newCodec(hx("94 00 01" + str("m") + "91 c4 02 01 02"))
	var m wire.Message
	if err := c.ReadMessage(&m); err != nil {
		t.Fatal(err)
	}
	var b []byte
	if err := c.Unmarshal(m.Params[0], &b); err != nil || !bytes.Equal(b, []byte{1, 2}) {
		t.Errorf("Unmarshal: %v, %v", b, err)
	}
}

// Integers inside interface values become int64 too, whatever the target
// (the vimjson codec does the same), so []any and struct fields of type any
// see the same types as *any.
func TestNestedIntsBecomeInt64(t *testing.T) {
	c := newCodec(nil)
	r := roundTrip(t, []any{200, -1, 1.5, "s", []any{300}, map[string]any{"k": 65536}})
	want := []any{int64(200), int64(-1), 1.5, "s", []any{int64(300)}, map[string]any{"k": int64(65536)}}

	var l []any
	if err := c.Unmarshal(r, &l); err != nil || !reflect.DeepEqual(l, want) {
		t.Errorf("into []any: %#v, %v", l, err)
	}
	var arr [6]any
	if err := msgpackrpc.Unmarshal(r, &arr); err != nil || !reflect.DeepEqual(arr[:], want) {
		t.Errorf("into [6]any: %#v, %v", arr, err)
	}
	var m map[string]any
	if err := c.Unmarshal(roundTrip(t, map[string]any{"a": 200, "b": []any{128}}), &m); err != nil ||
		!reflect.DeepEqual(m, map[string]any{"a": int64(200), "b": []any{int64(128)}}) {
		t.Errorf("into map[string]any: %#v, %v", m, err)
	}
	var ml map[string][]any
	if err := c.Unmarshal(roundTrip(t, map[string]any{"a": []any{200}}), &ml); err != nil ||
		!reflect.DeepEqual(ml, map[string][]any{"a": {int64(200)}}) {
		t.Errorf("into map[string][]any: %#v, %v", ml, err)
	}
	type withAny struct {
		N    any            `json:"n"`
		L    []any          `json:"l"`
		P    *any           `json:"p"`
		M    map[string]any `json:"m"`
		Next *withAny       `json:"next"`
	}
	var s withAny
	in := map[string]any{"n": 200, "l": []any{255}, "p": 1000, "m": map[string]any{"x": 40000}, "next": map[string]any{"n": 129}}
	if err := c.Unmarshal(roundTrip(t, in), &s); err != nil {
		t.Fatal(err)
	}
	if s.N != int64(200) || !reflect.DeepEqual(s.L, []any{int64(255)}) || s.P == nil || *s.P != int64(1000) ||
		!reflect.DeepEqual(s.M, map[string]any{"x": int64(40000)}) || s.Next == nil || s.Next.N != int64(129) {
		t.Errorf("into a struct: %+v (next %+v)", s, s.Next)
	}
	// Typed targets are untouched.
	var u []uint64
	if err := c.Unmarshal(roundTrip(t, []any{200}), &u); err != nil || !reflect.DeepEqual(u, []uint64{200}) {
		t.Errorf("into []uint64: %#v, %v", u, err)
	}
	// Beyond int64 stays uint64 rather than wrapping around.
	var big []any
	if err := c.Unmarshal(wire.Raw(hx("91 cf ff ff ff ff ff ff ff ff")), &big); err != nil || big[0] != uint64(math.MaxUint64) {
		t.Errorf("MaxUint64 in []any: %#v, %v", big, err)
	}
}
