package vimjson_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/vigorvim/vigor/internal/codec/vimjson"
	"github.com/vigorvim/vigor/internal/wire"
)

// newCodec returns a codec that reads s.
func newCodec(s string) *vimjson.Codec { return vimjson.New(strings.NewReader(s)) }

func rawStrings(rs []wire.Raw) []string {
	if len(rs) == 0 {
		return nil
	}
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = string(r)
	}
	return out
}

// ---------------------------------------------------------------------------
// Framing: what we send to Vim.

func TestAppendRequestGolden(t *testing.T) {
	tests := []struct {
		name   string
		id     int64
		method string
		params []any
		want   string
	}{
		// [0, [-id, func, args]]: a message for the runtime's channel
		// callback, which answers [-id, [result, error]].
		{"one string", 5, "Discard", []any{"x"}, `[0,[-5,"Discard",["x"]]]` + "\n"},
		{"nil params", 1, "F", nil, `[0,[-1,"F",[]]]` + "\n"},
		{"empty params", 2, "F", []any{}, `[0,[-2,"F",[]]]` + "\n"},
		{"scalars", 123, "vigor#x", []any{1, 2.0, true, false, nil, `a"b`},
			`[0,[-123,"vigor#x",[1,2.0,true,false,null,"a\"b"]]]` + "\n"},
		{"blob and raw", 9, "F", []any{[]byte{0, 7, 255}, wire.Raw(`{"k":[1]}`)},
			`[0,[-9,"F",[[0,7,255],{"k":[1]}]]]` + "\n"},
		{"nested", 10, "F", []any{[]any{"a", []any{1}}, map[string]any{"b": 1, "a": 2}},
			`[0,[-10,"F",[["a",[1]],{"a":2,"b":1}]]]` + "\n"},
		{"escaped method", 11, "a\"\\b", nil, `[0,[-11,"a\"\\b",[]]]` + "\n"},
		{"global function", 12, "g:Foo", []any{1}, `[0,[-12,"g:Foo",[1]]]` + "\n"},
		{"big id", math.MaxInt64, "F", nil, `[0,[-9223372036854775807,"F",[]]]` + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newCodec("")
			got, err := c.AppendRequest(nil, tt.id, tt.method, tt.params)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
			if !json.Valid(bytes.TrimSuffix(got, []byte("\n"))) {
				t.Errorf("not valid JSON: %q", got)
			}
		})
	}
}

func TestAppendNotificationGolden(t *testing.T) {
	tests := []struct {
		method string
		params []any
		want   string
	}{
		{"Echo", []any{"hi", 1}, `["call","Echo",["hi",1]]` + "\n"},
		{"Redraw", nil, `["call","Redraw",[]]` + "\n"},
		{"F", []any{[]string{"a", "b"}, []int{1, -2}}, `["call","F",[["a","b"],[1,-2]]]` + "\n"},
	}
	for _, tt := range tests {
		c := newCodec("")
		got, err := c.AppendNotification(nil, tt.method, tt.params)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != tt.want {
			t.Errorf("AppendNotification(%q, %v):\ngot  %q\nwant %q", tt.method, tt.params, got, tt.want)
		}
	}
}

func TestAppendResponseGolden(t *testing.T) {
	tests := []struct {
		id     int64
		result any
		want   string
	}{
		{3, "hello CI", `[3,"hello CI"]` + "\n"},
		{7, nil, `[7,null]` + "\n"},
		{2, []any{nil, "E1: x"}, `[2,[null,"E1: x"]]` + "\n"},
		{4, map[string]any{"z": 1, "a": []any{}}, `[4,{"a":[],"z":1}]` + "\n"},
		{5, 1.0, `[5,1.0]` + "\n"},
		{6, wire.Raw(`[1, 2]`), `[6,[1, 2]]` + "\n"},
	}
	for _, tt := range tests {
		c := newCodec("")
		got, err := c.AppendResponse(nil, tt.id, tt.result)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != tt.want {
			t.Errorf("AppendResponse(%d, %#v):\ngot  %q\nwant %q", tt.id, tt.result, got, tt.want)
		}
	}
}

func TestAppendKeepsPrefix(t *testing.T) {
	c := newCodec("")
	b := []byte("prefix")
	b, err := c.AppendRequest(b, 1, "A", nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err = c.AppendNotification(b, "B", []any{1})
	if err != nil {
		t.Fatal(err)
	}
	b, err = c.AppendResponse(b, 2, "r")
	if err != nil {
		t.Fatal(err)
	}
	want := "prefix" + `[0,[-1,"A",[]]]` + "\n" + `["call","B",[1]]` + "\n" + `[2,"r"]` + "\n"
	if string(b) != want {
		t.Errorf("got %q, want %q", b, want)
	}
}

// chunkFrames splits what a codec wrote into its frames (one a line: JSON
// strings escape newlines) and checks that the first ones are FuncChunk
// calls for key, at most ChunkSize bytes each, whose pieces are whole
// UTF-8.
// It returns the joined pieces and the frame after them.
func chunkFrames(t *testing.T, out []byte, key string) (body, last string, n int) {
	t.Helper()
	if !bytes.HasSuffix(out, []byte("\n")) {
		t.Fatalf("output does not end with a newline: ...%q", out[max(0, len(out)-40):])
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) < 2 {
		t.Fatalf("%d frames, want chunks and a call", len(lines))
	}
	var joined strings.Builder
	for i, line := range lines[:len(lines)-1] {
		var chunk struct {
			cmd, fn, key, text string
		}
		var items []json.RawMessage
		if err := json.Unmarshal([]byte(line), &items); err != nil || len(items) != 3 {
			t.Fatalf("chunk %d is not a call command: %.80q (%v)", i, line, err)
		}
		var args []string
		if json.Unmarshal(items[0], &chunk.cmd) != nil || json.Unmarshal(items[1], &chunk.fn) != nil ||
			json.Unmarshal(items[2], &args) != nil || len(args) != 2 {
			t.Fatalf("chunk %d: %.80q", i, line)
		}
		chunk.key, chunk.text = args[0], args[1]
		if chunk.cmd != "call" || chunk.fn != vimjson.FuncChunk || chunk.key != key {
			t.Errorf("chunk %d is %q %q key %q, want \"call\" %q key %q", i, chunk.cmd, chunk.fn, chunk.key, vimjson.FuncChunk, key)
		}
		if len(chunk.text) == 0 || len(line)+1 > vimjson.ChunkSize {
			t.Errorf("chunk %d is %d bytes and carries %d, want at most %d and at least 1", i, len(line)+1, len(chunk.text), vimjson.ChunkSize)
		}
		// The pieces are joined as Vim Strings: one must not end inside a
		// UTF-8 sequence (Go's JSON reader would have made it U+FFFD).
		if !utf8.ValidString(chunk.text) || strings.ContainsRune(chunk.text, utf8.RuneError) {
			t.Errorf("chunk %d splits a UTF-8 sequence", i)
		}
		joined.WriteString(chunk.text)
	}
	return joined.String(), lines[len(lines)-1] + "\n", len(lines) - 1
}

// A large call goes as chunks of [method, params] followed by the same kind
// of call of FuncChunked(key, n): [0, [-id, FuncChunked, [key, n]]] for a
// request, ["call", FuncChunked, [key, n]] for a notification.
func TestAppendRequestChunked(t *testing.T) {
	// Bytes that need escapes, and characters of 2 to 4 bytes, so that
	// pieces end in awkward places.
	big := strings.Repeat(`ab"\é✓🎉`+"\n", vimjson.ChunkThreshold/10)
	params := []any{big, 1, []any{"x", 2.0}}
	want, err := vimjson.AppendValue(nil, []any{"Big", params})
	if err != nil {
		t.Fatal(err)
	}
	c := newCodec("")

	out, err := c.AppendRequest([]byte("prefix"), 7, "Big", params)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(out, []byte("prefix")) {
		t.Fatalf("the prefix is gone: %.20q", out)
	}
	body, last, n := chunkFrames(t, out[len("prefix"):], "c1")
	if body != string(want) {
		t.Errorf("the chunks join to %.80q..., want %.80q...", body, want)
	}
	// The pieces fill their frames: escaped, the JSON text takes up about
	// 1.3 times its length here.
	if min, most := len(want)/vimjson.ChunkSize, 2*len(want)/vimjson.ChunkSize+2; n < min || n > most {
		t.Errorf("%d chunks for %d bytes, want %d to %d", n, len(want), min, most)
	}
	if wantLast := fmt.Sprintf(`[0,[-7,"%s",["c1",%d]]]`+"\n", vimjson.FuncChunked, n); last != wantLast {
		t.Errorf("the call after the chunks is %q, want %q", last, wantLast)
	}
	// The runtime decodes what the chunks carry back into the call.
	var call []any
	if err := vimjson.Unmarshal(wire.Raw(body), &call); err != nil {
		t.Fatal(err)
	}
	if wantCall := []any{"Big", []any{big, int64(1), []any{"x", 2.0}}}; !reflect.DeepEqual(call, wantCall) {
		t.Errorf("the chunks carry %.80v", call)
	}

	// Each chunked message has a key of its own; a notification ends with
	// a call command, which Vim does not answer.
	out, err = c.AppendNotification(nil, "Big", params)
	if err != nil {
		t.Fatal(err)
	}
	body, last, n = chunkFrames(t, out, "c2")
	if body != string(want) {
		t.Errorf("the notification's chunks join to %.80q..., want %.80q...", body, want)
	}
	if wantLast := fmt.Sprintf(`["call","%s",["c2",%d]]`+"\n", vimjson.FuncChunked, n); last != wantLast {
		t.Errorf("the call after the chunks is %q, want %q", last, wantLast)
	}

	// A small call is not chunked, and does not use up a key.
	out, err = c.AppendRequest(nil, 8, "Small", []any{strings.Repeat("x", vimjson.ChunkThreshold/2)})
	if err != nil || bytes.Count(out, []byte("\n")) != 1 || !bytes.HasPrefix(out, []byte(`[0,[-8,"Small",["xxx`)) {
		t.Errorf("small call: %.40q, %v", out, err)
	}
	out, err = c.AppendRequest(nil, 9, "Big", params)
	if err != nil {
		t.Fatal(err)
	}
	if _, last, n = chunkFrames(t, out, "c3"); last != fmt.Sprintf(`[0,[-9,"%s",["c3",%d]]]`+"\n", vimjson.FuncChunked, n) {
		t.Errorf("the third chunked call ends with %q", last)
	}
}

func TestAppendErrors(t *testing.T) {
	c := newCodec("")
	bad := []any{
		make(chan int),
		func() {},
		map[int]string{1: "a"},
		[]any{1, make(chan int)},
		map[string]any{"a": func() {}},
		struct{ C chan int }{},
	}
	for _, v := range bad {
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
	_, err := vimjson.AppendValue(nil, map[int]string{1: "a"})
	if err == nil || !strings.Contains(err.Error(), "Dict keys must be Strings") {
		t.Errorf("map[int]string: err = %v, want a Dict keys error", err)
	}
	// The codec still works after an error.
	got, err := c.AppendResponse(nil, 1, "ok")
	if err != nil || string(got) != "[1,\"ok\"]\n" {
		t.Errorf("after error: %q, %v", got, err)
	}
}

// ---------------------------------------------------------------------------
// Framing: what Vim sends us.

type wantMsg struct {
	kind   wire.Kind
	id     int64
	method string
	params []string
	result string
	err    string // the error slot of an answer
}

func checkMsg(t *testing.T, m *wire.Message, w wantMsg) {
	t.Helper()
	if m.Kind != w.kind || m.ID != w.id || m.Method != w.method {
		t.Errorf("got %s id=%d method=%q, want %s id=%d method=%q", m.Kind, m.ID, m.Method, w.kind, w.id, w.method)
	}
	if got := rawStrings(m.Params); !reflect.DeepEqual(got, w.params) {
		t.Errorf("params = %q, want %q", got, w.params)
	}
	if string(m.Result) != w.result {
		t.Errorf("result = %q, want %q", m.Result, w.result)
	}
	if string(m.Error) != w.err {
		t.Errorf("Error = %q, want %q", m.Error, w.err)
	}
	// An answer has a result or an error, never both; other messages have
	// neither.
	if m.Kind == wire.Response && (m.Result == nil) == (m.Error == nil) {
		t.Errorf("answer with result %q and error %q: want exactly one", m.Result, m.Error)
	}
}

func TestReadMessage(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want wantMsg
	}{
		{"request", `[3,["greet",["CI"]]]`, wantMsg{kind: wire.Request, id: 3, method: "greet", params: []string{`"CI"`}}},
		{"request no params", `[12,["m",[]]]`, wantMsg{kind: wire.Request, id: 12, method: "m"}},
		{"notification", `[0,["$interrupt",["user",1,[2.5,{"a":null}]]]]`,
			wantMsg{kind: wire.Notification, method: "$interrupt", params: []string{`"user"`, `1`, `[2.5,{"a":null}]`}}},
		// Answers to our calls: [-id, [result, error]], unwrapped.
		{"response", `[-5,[1,null]]`, wantMsg{kind: wire.Response, id: 5, result: `1`}},
		{"response string", `[-1,["x",null]]`, wantMsg{kind: wire.Response, id: 1, result: `"x"`}},
		{"response null", `[-77,[null,null]]`, wantMsg{kind: wire.Response, id: 77, result: `null`}},
		{"response list", `[-6,[[1,null],null]]`, wantMsg{kind: wire.Response, id: 6, result: `[1,null]`}},
		{"response dict", `[-8,[{"a":[null]},null]]`, wantMsg{kind: wire.Response, id: 8, result: `{"a":[null]}`}},
		{"response spaced", "[-9, [ 1.5 ,\n null ] ]", wantMsg{kind: wire.Response, id: 9, result: `1.5`}},
		{"error", `[-3,[null,"E117: Unknown function: g:Foo"]]`,
			wantMsg{kind: wire.Response, id: 3, err: `"E117: Unknown function: g:Foo"`}},
		{"error spaced", `[-3,[ null , "boom" ]]`, wantMsg{kind: wire.Response, id: 3, err: `"boom"`}},
		{"error not a string", `[-4,[null,[0,"x"]]]`, wantMsg{kind: wire.Response, id: 4, err: `[0,"x"]`}},
		// The error slot wins over a result.
		{"error and result", `[-2,[1,"boom"]]`, wantMsg{kind: wire.Response, id: 2, err: `"boom"`}},
		{"whitespace", " \t[ 2 ,\n [ \"m\" , [ 1 , {\"a\" : [ ] } ] ] ] \r\n",
			wantMsg{kind: wire.Request, id: 2, method: "m", params: []string{`1`, `{"a" : [ ] }`}}},
		{"escaped method", `[4,["a\"b\u00e9",[]]]`, wantMsg{kind: wire.Request, id: 4, method: "a\"bé"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newCodec(tt.in)
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
	want := []wantMsg{
		{kind: wire.Request, id: 1, method: "a", params: []string{`"x"`}},
		{kind: wire.Notification, method: "b"},
		{kind: wire.Response, id: 2, result: `3`},
		{kind: wire.Response, id: 4, result: `{"k":"v"}`},
		{kind: wire.Response, id: 5, err: `"E1: x"`},
		{kind: wire.Response, id: 6, err: `"unexpected answer from Vim (want [result, error]): 6"`},
		{kind: wire.Response, id: 7, result: `null`},
	}
	frames := []string{`[1,["a",["x"]]]`, `[0,["b",[]]]`, `[-2,[3,null]]`, `[-4,[{"k":"v"},null]]`,
		`[-5,[null,"E1: x"]]`, `[-6,6]`, `[-7,[null,null]]`}
	for _, sep := range []string{"", "\n", "\r\n", " ", "\n\n"} {
		in := strings.Join(frames, sep) + sep
		c := newCodec(in)
		var m wire.Message // reused: ReadMessage must reset it
		for i, w := range want {
			if err := c.ReadMessage(&m); err != nil {
				t.Fatalf("sep %q, message %d: %v", sep, i, err)
			}
			checkMsg(t, &m, w)
		}
		if err := c.ReadMessage(&m); err != io.EOF {
			t.Errorf("sep %q: at the end err = %v, want io.EOF", sep, err)
		}
	}
}

// A Result (or Error) must not share memory with the codec's buffers: the
// session hands it to the caller's goroutine while the reader goes on to the
// next message.
func TestReadMessageResultNotOverwritten(t *testing.T) {
	c := newCodec(`[-1,["aaaaaaaaaaaaaaaa",null]][-2,[null,"bbbbbbbbbbbb"]][3,["m",["cccccccccccccccccccc"]]]` +
		`[-4,["dd",null]][-5,[null,"eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee"]]`)
	var msgs [5]wire.Message
	for i := range msgs {
		if err := c.ReadMessage(&msgs[i]); err != nil {
			t.Fatal(err)
		}
	}
	if got := string(msgs[0].Result); got != `"aaaaaaaaaaaaaaaa"` {
		t.Errorf("first result became %q", got)
	}
	if got := string(msgs[1].Error); got != `"bbbbbbbbbbbb"` {
		t.Errorf("second error became %q", got)
	}
	if got := string(msgs[2].Params[0]); got != `"cccccccccccccccccccc"` {
		t.Errorf("third params became %q", got)
	}
	if got := string(msgs[3].Result); got != `"dd"` {
		t.Errorf("fourth result became %q", got)
	}
}

// An answer whose body is not [result, error] must fail the call that waits
// for it, not leave it waiting: ReadMessage returns it as an answer with an
// error (a JSON String that quotes the body), and the stream goes on.
func TestReadMessageUnexpectedAnswer(t *testing.T) {
	const prefix = "unexpected answer from Vim (want [result, error]): "
	for _, body := range []string{
		`42`, `"x"`, `null`, `true`, `{}`, `{"a":[1,2]}`,
		`[]`, `[1]`, `[null]`, `[1,null,3]`, `[null,"E1: x",1]`,
		// Vim's own answer when a "call" command fails outright has its
		// own message.
		`"ERROR"`,
	} {
		t.Run(body, func(t *testing.T) {
			c := newCodec(`[-3,` + body + `]` + "\n" + `[-4,["next",null]]`)
			var m wire.Message
			if err := c.ReadMessage(&m); err != nil {
				t.Fatalf("err = %v, want an answer with an error", err)
			}
			if m.Kind != wire.Response || m.ID != 3 || m.Result != nil {
				t.Fatalf("got %s id %d result %q, want the answer to 3 without a result", m.Kind, m.ID, m.Result)
			}
			var msg string
			if err := vimjson.Unmarshal(m.Error, &msg); err != nil {
				t.Fatalf("Error %q is not a String: %v", m.Error, err)
			}
			want := prefix + body
			if body == `"ERROR"` {
				want = "Vim could not answer: the result cannot be sent as JSON (a Funcref, Job or Channel?), or Vigor's call helper is not on 'runtimepath'"
			}
			if msg != want {
				t.Errorf("Error = %q, want %q", msg, want)
			}
			if err := c.ReadMessage(&m); err != nil {
				t.Fatal(err)
			}
			checkMsg(t, &m, wantMsg{kind: wire.Response, id: 4, result: `"next"`})
		})
	}
	// The message quotes at most 100 characters of the body, and stays a
	// valid JSON String whatever the body holds.
	long := `[` + strings.Repeat(`"\"\n",`, 100) + `1]`
	c := newCodec(`[-1,` + long + `]`)
	var m wire.Message
	if err := c.ReadMessage(&m); err != nil {
		t.Fatal(err)
	}
	var msg string
	if err := vimjson.Unmarshal(m.Error, &msg); err != nil || !json.Valid(m.Error) {
		t.Fatalf("Error %q: %v", m.Error, err)
	}
	if want := prefix + long[:100]; msg != want {
		t.Errorf("Error = %q, want %q", msg, want)
	}
	// A body with text that is not ASCII is cut at a character boundary.
	long = `["` + strings.Repeat("é", 150) + `"]`
	c = newCodec(`[-1,` + long + `]`)
	if err := c.ReadMessage(&m); err != nil {
		t.Fatal(err)
	}
	if err := vimjson.Unmarshal(m.Error, &msg); err != nil {
		t.Fatal(err)
	}
	if want := prefix + string([]rune(long)[:100]); msg != want {
		t.Errorf("Error = %q, want %q", msg, want)
	}
}

func TestReadMessageMalformedRecovers(t *testing.T) {
	tests := []struct {
		name string
		in   string
		// For a request whose body is bad, the codec still reports the
		// kind and id, so that the session can answer it.
		kind wire.Kind
		id   int64
	}{
		{name: "string", in: `"hello"`},
		{name: "number", in: `42`},
		{name: "dict", in: `{"a":1}`},
		{name: "null", in: `null`},
		{name: "empty list", in: `[]`},
		{name: "one item", in: `[1]`},
		{name: "three items", in: `[1,2,3]`},
		{name: "id is a string", in: `["x",1]`},
		{name: "id is a float", in: `[1.5,1]`},
		{name: "id is a list", in: `[[1],1]`},
		{name: "body not a list", in: `[7,"oops"]`, kind: wire.Request, id: 7},
		{name: "body one item", in: `[7,["m"]]`, kind: wire.Request, id: 7},
		{name: "body three items", in: `[7,["m",[],1]]`, kind: wire.Request, id: 7},
		{name: "method not a string", in: `[7,[42,[]]]`, kind: wire.Request, id: 7},
		{name: "params not a list", in: `[7,["m",{}]]`, kind: wire.Request, id: 7},
		{name: "notification params", in: `[0,["m","x"]]`, kind: wire.Notification},
		{name: "Vim-style call", in: `["call","F",[],-1]`},
		// What we send Vim is not something Vim sends us: as a
		// notification its body has three items.
		{name: "our call", in: `[0,[-1,"F",[]]]`, kind: wire.Notification},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newCodec(tt.in + "\n" + `[-9,["next",null]]`)
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
			checkMsg(t, &m, wantMsg{kind: wire.Response, id: 9, result: `"next"`})
		})
	}
}

// Bytes that are not JSON are a malformed frame of their own: the stream
// stays in step and the next message is read. Only a value cut short by
// the end of the stream ends it.
func TestReadMessageJunkRecovers(t *testing.T) {
	for _, in := range []string{"]", "[1,,2]", "nope", "[1,\"\x00\"]", ",", "}", "[1,[\"m\",[1,,2]]]"} {
		c := newCodec(in + "\n[-1,[1,null]]")
		var m wire.Message
		if err := c.ReadMessage(&m); !errors.Is(err, wire.ErrMalformed) {
			t.Errorf("%q: err = %v, want one wrapping wire.ErrMalformed", in, err)
			continue
		}
		if err := c.ReadMessage(&m); err != nil {
			t.Errorf("%q: the message after it: %v", in, err)
			continue
		}
		checkMsg(t, &m, wantMsg{kind: wire.Response, id: 1, result: `1`})
	}
	for _, in := range []string{`[1,["m",[`, `{`, `[1,"abc`, `"abc`} {
		c := newCodec(in)
		var m wire.Message
		if err := c.ReadMessage(&m); err != io.ErrUnexpectedEOF {
			t.Errorf("%q: err = %v, want io.ErrUnexpectedEOF", in, err)
		}
	}
	c := newCodec("  \n ")
	var m wire.Message
	if err := c.ReadMessage(&m); err != io.EOF {
		t.Errorf("only whitespace: err = %v, want io.EOF", err)
	}
}

// Vim writes NaN and the infinities as bare words (json_encode), which JSON
// lacks: they decode into float64 and any, and fail other targets with a
// clear error, without breaking the stream.
func TestReadMessageNonFiniteFloats(t *testing.T) {
	c := newCodec(`[-1,[NaN,null]][-2,[[Infinity,-Infinity,"NaN",{"k":NaN}],null]]` + "\n" + `[3,["m",[-Infinity]]]`)
	var m wire.Message
	if err := c.ReadMessage(&m); err != nil {
		t.Fatal(err)
	}
	var f float64
	if err := vimjson.Unmarshal(m.Result, &f); err != nil || !math.IsNaN(f) {
		t.Errorf("NaN into float64: %v, %v", f, err)
	}
	var x any
	if err := vimjson.Unmarshal(m.Result, &x); err != nil || !math.IsNaN(x.(float64)) {
		t.Errorf("NaN into any: %v, %v", x, err)
	}
	if err := c.ReadMessage(&m); err != nil {
		t.Fatal(err)
	}
	if err := vimjson.Unmarshal(m.Result, &x); err != nil {
		t.Fatal(err)
	}
	l := x.([]any)
	if l[0] != math.Inf(1) || l[1] != math.Inf(-1) || l[2] != "NaN" || !math.IsNaN(l[3].(map[string]any)["k"].(float64)) {
		t.Errorf("a List with Infinity, -Infinity, a String and NaN in a Dict: %#v", l)
	}
	var fs []float64
	if err := vimjson.Unmarshal(m.Result, &fs); err == nil || !strings.Contains(err.Error(), "NaN or Infinity") {
		t.Errorf("into []float64: %v, want an error that names NaN or Infinity", err)
	}
	var st struct {
		S string `json:"s"`
	}
	if err := vimjson.Unmarshal(wire.Raw(`{"s":NaN}`), &st); err == nil {
		t.Errorf("NaN into a string field: no error (%q)", st.S)
	}
	if err := c.ReadMessage(&m); err != nil {
		t.Fatal(err)
	}
	if err := vimjson.Unmarshal(m.Params[0], &f); err != nil || f != math.Inf(-1) {
		t.Errorf("-Infinity as a parameter: %v, %v", f, err)
	}
}

// ---------------------------------------------------------------------------
// Values.

func appendValue(t *testing.T, v any) string {
	t.Helper()
	b, err := vimjson.AppendValue(nil, v)
	if err != nil {
		t.Fatalf("AppendValue(%#v): %v", v, err)
	}
	return string(b)
}

func TestStrings(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"", `""`},
		{"hello", `"hello"`},
		{"héllo wörld ✓ 日本語 🎉", `"héllo wörld ✓ 日本語 🎉"`},
		{`say "hi"`, `"say \"hi\""`},
		{`back\slash`, `"back\\slash"`},
		{"tab\tnl\ncr\r", `"tab\tnl\ncr\r"`},
		{"a\x00b\x00", `"a\u0000b\u0000"`},
		{"\x01\x1f\x7f", `"\u0001\u001f` + "\x7f" + `"`},
		{"\b\f", `"\u0008\u000c"`},
		{"\u2028</script>&", "\"\u2028</script>&\""},
	}
	c := newCodec("")
	for _, tt := range tests {
		got := appendValue(t, tt.in)
		if got != tt.want {
			t.Errorf("AppendValue(%q) = %s, want %s", tt.in, got, tt.want)
		}
		if !json.Valid([]byte(got)) {
			t.Errorf("AppendValue(%q) = %s is not valid JSON", tt.in, got)
		}
		var s string
		if err := c.Unmarshal(wire.Raw(got), &s); err != nil || s != tt.in {
			t.Errorf("Unmarshal(%s) into string = %q, %v; want %q", got, s, err, tt.in)
		}
		var a any
		if err := vimjson.Unmarshal(wire.Raw(got), &a); err != nil || a != tt.in {
			t.Errorf("Unmarshal(%s) into any = %#v, %v; want %q", got, a, err, tt.in)
		}
		// A named string type takes the reflect path and must agree.
		type name string
		if got := appendValue(t, name(tt.in)); got != tt.want {
			t.Errorf("AppendValue(name(%q)) = %s, want %s", tt.in, got, tt.want)
		}
	}
	// Each byte that is not UTF-8 becomes U+FFFD, as Vim does for the
	// strings it sends (Vim drops a message with invalid UTF-8), in keys
	// and in the text of a json.Marshaler too.
	for in, want := range map[string]string{
		"a\xffb":           "\"a\ufffdb\"",
		"caf\xe9":          "\"caf\ufffd\"",
		"\xe9\xe9":         "\"\ufffd\ufffd\"",
		"\xe6\x97":         "\"\ufffd\ufffd\"", // a cut sequence
		"ok \ufffd é \xc3": "\"ok \ufffd é \ufffd\"",
	} {
		if got := appendValue(t, in); got != want {
			t.Errorf("invalid UTF-8 %q: %q, want %q", in, got, want)
		}
	}
	if got := appendValue(t, map[string]any{"k\xff": 1}); got != "{\"k\ufffd\":1}" {
		t.Errorf("invalid UTF-8 in a key: %q", got)
	}
	if got := appendValue(t, json.RawMessage("\"a\xffb\"")); got != "\"a\ufffdb\"" {
		t.Errorf("invalid UTF-8 in a json.RawMessage: %q", got)
	}
	// Escapes that the fast path cannot take.
	var s string
	if err := vimjson.Unmarshal(wire.Raw(`"\u00e9\/\ud83c\udf89"`), &s); err != nil || s != "é/🎉" {
		t.Errorf("escapes: %q, %v", s, err)
	}
}

func TestNumbers(t *testing.T) {
	tests := []struct {
		in   any
		want string
	}{
		{0, "0"},
		{-1, "-1"},
		{42, "42"},
		{int8(-128), "-128"},
		{int16(32767), "32767"},
		{int32(-7), "-7"},
		{int64(math.MaxInt64), "9223372036854775807"},
		{int64(math.MinInt64), "-9223372036854775808"},
		{uint(7), "7"},
		{uint8(255), "255"},
		{uint16(65535), "65535"},
		{uint32(1 << 31), "2147483648"},
		{uint64(math.MaxInt64), "9223372036854775807"},
		{uintptr(3), "3"},
	}
	for _, tt := range tests {
		if got := appendValue(t, tt.in); got != tt.want {
			t.Errorf("AppendValue(%T %v) = %s, want %s", tt.in, tt.in, got, tt.want)
		}
	}
	for _, n := range []int64{0, 1, -1, 42, math.MaxInt64, math.MinInt64} {
		var a any
		if err := vimjson.Unmarshal(wire.Raw(appendValue(t, n)), &a); err != nil || a != n {
			t.Errorf("%d into any: %#v (%T), %v; want int64", n, a, a, err)
		}
		var i int64
		if err := vimjson.Unmarshal(wire.Raw(appendValue(t, n)), &i); err != nil || i != n {
			t.Errorf("%d into int64: %d, %v", n, i, err)
		}
	}
	var u uint64
	if err := vimjson.Unmarshal(wire.Raw(appendValue(t, uint64(math.MaxInt64))), &u); err != nil || u != math.MaxInt64 {
		t.Errorf("MaxInt64 as uint64: %d, %v", u, err)
	}
	// A Number holds at most math.MaxInt64: a larger unsigned value is an
	// error that names it, wherever it is.
	const msg = "18446744073709551615 does not fit in a Number (at most 9223372036854775807)"
	type big struct{ N uint64 }
	for _, v := range []any{uint64(math.MaxUint64), uint(math.MaxUint64), uintptr(math.MaxUint64),
		[]uint64{1, math.MaxUint64}, map[string]any{"n": uint64(math.MaxUint64)}, big{math.MaxUint64}} {
		_, err := vimjson.AppendValue(nil, v)
		var ve *wire.ValueError
		if !errors.As(err, &ve) || ve.Msg != msg {
			t.Errorf("AppendValue(%#v): %v, want %q", v, err, msg)
		}
	}
}

// A value nested more than wire.MaxDepth deep is refused with an error
// that names the limit and says which param holds it; reading one is an
// error wrapping wire.ErrTooDeep.
func TestDepth(t *testing.T) {
	nest := func(n int) any {
		var v any = 1
		for i := 0; i < n; i++ {
			v = []any{v}
		}
		return v
	}
	c := newCodec("")
	if _, err := c.AppendRequest(nil, 1, "F", []any{"x", nest(vimjson.MaxSendDepth)}); err != nil {
		t.Fatalf("%d deep: %v", vimjson.MaxSendDepth, err)
	}
	_, err := c.AppendRequest(nil, 1, "F", []any{"x", nest(vimjson.MaxSendDepth + 1)})
	var ve *wire.ValueError
	if !errors.As(err, &ve) || ve.Msg != "Lists and Dicts nested more than 50000 deep, more than Vim reads" || len(ve.Path) == 0 || ve.Path[0] != 1 {
		t.Fatalf("%d deep: %#v", vimjson.MaxSendDepth+1, err)
	}
	for _, v := range []any{[][]int{{1}}, map[string]any{"a": map[string]any{}}, struct{ A []string }{}} {
		if _, err := vimjson.AppendValue(nil, v); err != nil {
			t.Errorf("%#v: %v", v, err)
		}
	}
	raw := []byte(strings.Repeat("[", wire.MaxDepth) + strings.Repeat("]", wire.MaxDepth))
	var a any
	if err := vimjson.Unmarshal(raw, &a); err != nil {
		t.Fatalf("reading %d deep: %v", wire.MaxDepth, err)
	}
	raw = []byte(strings.Repeat("[", wire.MaxDepth+1) + strings.Repeat("]", wire.MaxDepth+1))
	for _, v := range []any{&a, new([]any), new([][]any)} {
		if err := vimjson.Unmarshal(raw, v); !errors.Is(err, wire.ErrTooDeep) {
			t.Errorf("reading %d deep into %T: %v", wire.MaxDepth+1, v, err)
		}
	}
}

// A Fallible response is written as its Value, or as its Fallback when the
// Value cannot be sent.
func TestAppendResponseFallible(t *testing.T) {
	c := newCodec("")
	got, err := c.AppendResponse(nil, 3, fallible{"ok", nil})
	if err != nil || string(got) != "[3,[\"ok\",null]]\n" {
		t.Fatalf("ok: %q, %v", got, err)
	}
	got, err = c.AppendResponse([]byte("x"), 3, fallible{uint64(math.MaxUint64), nil})
	want := "x[3,[null,\"18446744073709551615 does not fit in a Number (at most 9223372036854775807)\"]]\n"
	if err != nil || string(got) != want {
		t.Fatalf("fallback: %q, %v; want %q", got, err, want)
	}
}

func TestFloats(t *testing.T) {
	tests := []struct {
		in   any
		want string
	}{
		// Integral floats get ".0" so that Vim reads a Float.
		{1.0, "1.0"},
		{0.0, "0.0"},
		{math.Copysign(0, -1), "-0.0"},
		{-2.0, "-2.0"},
		{100000.0, "100000.0"},
		{0.5, "0.5"},
		{-1.25, "-1.25"},
		{3.141592653589793, "3.141592653589793"},
		// Vim's reader wants a fraction before the exponent.
		{1e20, "1.0e+20"},
		{1e21, "1.0e+21"},
		{-1e20, "-1.0e+20"},
		{1e6, "1.0e+06"},
		{1e-7, "1.0e-07"},
		{1.5e20, "1.5e+20"},
		{123456789.0, "1.23456789e+08"},
		{math.MaxFloat64, "1.7976931348623157e+308"},
		{5e-324, "5.0e-324"},
		{float32(1.5), "1.5"},
		{float32(2), "2.0"},
		{float32(1e20), "1.0000000200408773e+20"},
		// The words that Vim's json_encode writes and json_decode reads.
		{math.NaN(), "NaN"},
		{math.Inf(1), "Infinity"},
		{math.Inf(-1), "-Infinity"},
		{float32(math.Inf(-1)), "-Infinity"},
	}
	type celsius float64
	for _, tt := range tests {
		got := appendValue(t, tt.in)
		if got != tt.want {
			t.Errorf("AppendValue(%T %v) = %s, want %s", tt.in, tt.in, got, tt.want)
		}
		// Named float types take the reflect path and must agree.
		if f, ok := tt.in.(float64); ok {
			if got := appendValue(t, celsius(f)); got != tt.want {
				t.Errorf("AppendValue(celsius(%v)) = %s, want %s", f, got, tt.want)
			}
		}
	}
	// Finite floats come back as float64, also into any, even when integral.
	for _, f := range []float64{1, 0, -2, 0.5, 1e20, 1e-7, 1.5e20, 123456789, math.MaxFloat64, 5e-324, 3.141592653589793} {
		enc := appendValue(t, f)
		var a any
		if err := vimjson.Unmarshal(wire.Raw(enc), &a); err != nil || a != f {
			t.Errorf("%s into any: %#v (%T), %v; want float64 %v", enc, a, a, err, f)
		}
		var g float64
		if err := vimjson.Unmarshal(wire.Raw(enc), &g); err != nil || g != f {
			t.Errorf("%s into float64: %v, %v; want %v", enc, g, err, f)
		}
	}
}

func TestBoolNil(t *testing.T) {
	for _, tt := range []struct {
		in   any
		want string
	}{
		{true, "true"},
		{false, "false"},
		{nil, "null"},
		{(*int)(nil), "null"},
		// Nil maps are null, as in encoding/json and as msgpack sends
		// them to Neovim; nil slices are empty Lists, but for a []byte and
		// in a Dict or a struct (as msgpack's encoder writes them).
		{(map[string]any)(nil), "null"},
		{(map[string]int)(nil), "null"},
		{([]any)(nil), "[]"},
		{([]string)(nil), "[]"},
		{([]int)(nil), "[]"},
		{([]float64)(nil), "[]"},
		{([]map[string]any)(nil), "[]"},
		{[]any{[]string(nil)}, "[[]]"},
		{map[string]any{"items": []int(nil)}, `{"items":null}`},
		{([]byte)(nil), "null"},
	} {
		if got := appendValue(t, tt.in); got != tt.want {
			t.Errorf("AppendValue(%#v) = %s, want %s", tt.in, got, tt.want)
		}
	}
	for _, tt := range []struct {
		in   string
		want any
	}{{"true", true}, {"false", false}, {"null", nil}} {
		var a any = "sentinel"
		if err := vimjson.Unmarshal(wire.Raw(tt.in), &a); err != nil || a != tt.want {
			t.Errorf("Unmarshal(%s) = %#v, %v; want %#v", tt.in, a, err, tt.want)
		}
	}
}

func TestBlobs(t *testing.T) {
	type blob []byte
	tests := []struct {
		in   any
		want string
	}{
		{[]byte{0, 1, 127, 128, 255}, "[0,1,127,128,255]"},
		{[]byte{}, "[]"},
		{[]byte(nil), "null"},
		{blob{9, 8}, "[9,8]"},
		{[4]byte{1, 2, 3, 4}, "[1,2,3,4]"},
		{[]any{[]byte("hi")}, "[[104,105]]"},
		{map[string]any{"b": []byte{1}}, `{"b":[1]}`},
	}
	for _, tt := range tests {
		if got := appendValue(t, tt.in); got != tt.want {
			t.Errorf("AppendValue(%#v) = %s, want %s", tt.in, got, tt.want)
		}
	}
	for _, p := range [][]byte{{0, 1, 127, 128, 255}, {}, []byte("\x00text\xff")} {
		var got []byte
		if err := vimjson.Unmarshal(wire.Raw(appendValue(t, p)), &got); err != nil || !bytes.Equal(got, p) {
			t.Errorf("round trip of %v: %v, %v", p, got, err)
		}
	}
	for _, tt := range []struct {
		in   string
		want []byte
	}{
		{` [1, 2 ,3]`, []byte{1, 2, 3}},
		{`"abc"`, []byte("abc")},
		{`"a\u0000b"`, []byte("a\x00b")},
		{`null`, nil},
	} {
		got := []byte("old")
		if err := vimjson.Unmarshal(wire.Raw(tt.in), &got); err != nil || !bytes.Equal(got, tt.want) || (tt.want == nil) != (got == nil) {
			t.Errorf("Unmarshal(%s) into []byte = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
	for _, in := range []string{`[256]`, `[-1]`, `[1.5]`, `["a"]`, `[1,`, `{}`, `1`} {
		var got []byte
		if err := vimjson.Unmarshal(wire.Raw(in), &got); err == nil {
			t.Errorf("Unmarshal(%s) into []byte: no error (got %v)", in, got)
		}
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
	plain int
}

type marshaler struct{}

func (marshaler) MarshalJSON() ([]byte, error) { return []byte(`{"custom":true}`), nil }

type failingMarshaler struct{}

func (failingMarshaler) MarshalJSON() ([]byte, error) { return nil, errors.New("no") }

func TestCompositeValues(t *testing.T) {
	tests := []struct {
		name string
		in   any
		want string
	}{
		{"list", []any{1, "a", []any{2.0, nil}, true}, `[1,"a",[2.0,null],true]`},
		{"dict sorted", map[string]any{"z": 1, "a": 2, "m": 3, "": 0}, `{"":0,"a":2,"m":3,"z":1}`},
		{"nested", []any{map[string]any{"b": []any{1.5}, "a": map[string]any{"y": nil, "x": "s"}}},
			`[{"a":{"x":"s","y":null},"b":[1.5]}]`},
		{"typed map sorted", map[string]int{"b": 2, "a": 1}, `{"a":1,"b":2}`},
		{"typed map of floats", map[string]float64{"f": 3}, `{"f":3.0}`},
		{"float slice", []float64{1, 2.5}, `[1.0,2.5]`},
		{"string slice", []string{"a", `"`}, `["a","\""]`},
		{"int slice", []int{1, -2, 3}, `[1,-2,3]`},
		{"slice of slices", [][]int{{1}, {}}, `[[1],[]]`},
		{"array", [2]string{"a", "b"}, `["a","b"]`},
		{"pointer", func() any { n := 5; return &n }(), `5`},
		{"pointer to struct", &inner{N: 2}, `{"n":2.0}`}, // a float field stays a Float
		{"struct", point{X: 1, Skip: 9, Inner: &inner{N: 0.5}, Tags: []string{"t"}, plain: 3},
			`{"x":1,"inner":{"n":0.5},"tags":["t"]}`},
		{"struct all fields", point{X: -1, Y: "y", Meta: map[string]string{"k": "v"}},
			`{"x":-1,"y":"y","inner":null,"tags":null,"meta":{"k":"v"}}`},
		{"marshaler", marshaler{}, `{"custom":true}`},
		{"marshaler in list", []any{marshaler{}}, `[{"custom":true}]`},
		{"raw", wire.Raw(`{"pre":"encoded"}`), `{"pre":"encoded"}`},
		{"json raw", json.RawMessage(`[1]`), `[1]`},
		{"raw in dict", map[string]any{"r": wire.Raw(`[true]`)}, `{"r":[true]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := appendValue(t, tt.in)
			if got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
			if !json.Valid([]byte(got)) {
				t.Errorf("not valid JSON: %s", got)
			}
		})
	}
	if _, err := vimjson.AppendValue(nil, failingMarshaler{}); err == nil {
		t.Error("a failing MarshalJSON: no error")
	}
	if _, err := vimjson.AppendValue(nil, []any{1, failingMarshaler{}}); err == nil {
		t.Error("a failing MarshalJSON in a list: no error")
	}
}

func TestUnmarshalIntoAny(t *testing.T) {
	in := appendValue(t, []any{
		1, -7, 2.0, 0.5, 1e20, "s", nil, true,
		[]any{3, 4.5},
		map[string]any{"n": 10, "f": 1.0, "l": []any{map[string]any{"deep": int64(-1)}}},
		[]byte{1, 2},
	})
	var got any
	if err := vimjson.Unmarshal(wire.Raw(in), &got); err != nil {
		t.Fatal(err)
	}
	want := []any{
		int64(1), int64(-7), 2.0, 0.5, 1e20, "s", nil, true,
		[]any{int64(3), 4.5},
		map[string]any{"n": int64(10), "f": 1.0, "l": []any{map[string]any{"deep": int64(-1)}}},
		[]any{int64(1), int64(2)}, // a Blob is a List of Numbers in JSON
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %#v\nwant %#v", got, want)
	}
	// A Number too big for int64 becomes a Float rather than failing.
	if err := vimjson.Unmarshal(wire.Raw(`18446744073709551615`), &got); err != nil || got != float64(math.MaxUint64) {
		t.Errorf("huge Number: %#v (%T), %v", got, got, err)
	}
	if err := vimjson.Unmarshal(wire.Raw(`[1,`), &got); err == nil {
		t.Error("truncated JSON into any: no error")
	}
}

func TestUnmarshalStruct(t *testing.T) {
	in := point{X: 3, Y: "ü\"", Inner: &inner{N: 4}, Tags: []string{"a", "b"}, Meta: map[string]string{"z": "1", "a": "2"}}
	enc := appendValue(t, in)
	var got point
	if err := vimjson.Unmarshal(wire.Raw(enc), &got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, in) {
		t.Errorf("got %+v, want %+v", got, in)
	}
	// Vim writes Dicts with any key order and extra keys.
	if err := vimjson.Unmarshal(wire.Raw(`{"extra":1,"y":"b","x":2}`), &got); err != nil || got.X != 2 || got.Y != "b" {
		t.Errorf("got %+v, %v", got, err)
	}
	var n int
	if err := vimjson.Unmarshal(wire.Raw(`"x"`), &n); err == nil {
		t.Error("a String into int: no error")
	}
	var s string
	if err := vimjson.Unmarshal(wire.Raw(`1`), &s); err == nil {
		t.Error("a Number into string: no error")
	}
}

func TestTypeName(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{`"s"`, "String"},
		{`""`, "String"},
		{`[1]`, "List"},
		{`{}`, "Dict"},
		{`true`, "Boolean"},
		{`false`, "Boolean"},
		{`null`, "v:null"},
		{`1`, "Number"},
		{`-12`, "Number"},
		{`0`, "Number"},
		{`1.5`, "Float"},
		{`-0.5`, "Float"},
		{`1e5`, "Float"},
		{`1E5`, "Float"},
		{`1.0e+20`, "Float"},
		{`NaN`, "Float"},
		{`Infinity`, "Float"},
		{`-Infinity`, "Float"},
		{"  \n\"s\"", "String"},
		{``, "nothing"},
		{"  ", "nothing"},
	}
	c := newCodec("")
	for _, tt := range tests {
		if got := vimjson.TypeName(wire.Raw(tt.in)); got != tt.want {
			t.Errorf("TypeName(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if got := c.TypeName(wire.Raw(tt.in)); got != tt.want {
			t.Errorf("Codec.TypeName(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	// TypeName agrees with what AppendValue writes.
	for _, tt := range []struct {
		v    any
		want string
	}{
		{2.0, "Float"}, {1e20, "Float"}, {math.Inf(-1), "Float"}, {3, "Number"}, {-3, "Number"},
		{[]byte{1}, "List"}, {map[string]any{}, "Dict"}, {"x", "String"}, {nil, "v:null"},
	} {
		if got := vimjson.TypeName(wire.Raw(appendValue(t, tt.v))); got != tt.want {
			t.Errorf("TypeName(AppendValue(%#v)) = %q, want %q", tt.v, got, tt.want)
		}
	}
}

func TestSplitList(t *testing.T) {
	c := newCodec("")
	got, err := c.SplitList(wire.Raw(`[1, "a" ,[2,[3]],{"k":null}, null]`))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`1`, `"a"`, `[2,[3]]`, `{"k":null}`, `null`}
	if !reflect.DeepEqual(rawStrings(got), want) {
		t.Errorf("got %q, want %q", rawStrings(got), want)
	}
	if got, err := c.SplitList(wire.Raw(`[]`)); err != nil || len(got) != 0 {
		t.Errorf("empty list: %q, %v", got, err)
	}
	for _, in := range []string{`"x"`, `1`, `{}`, `[1,`, ``} {
		if _, err := c.SplitList(wire.Raw(in)); err == nil {
			t.Errorf("SplitList(%q): no error", in)
		}
	}
}

// The codec satisfies wire.Codec and its methods agree with the package
// functions.
func TestCodecInterface(t *testing.T) {
	var c wire.Codec = newCodec(`[1,["m",[[1,2]]]]`)
	var m wire.Message
	if err := c.ReadMessage(&m); err != nil {
		t.Fatal(err)
	}
	var b []byte
	if err := c.Unmarshal(m.Params[0], &b); err != nil || !bytes.Equal(b, []byte{1, 2}) {
		t.Errorf("Unmarshal: %v, %v", b, err)
	}
}

// Numbers inside interface values get the same types as at the top level,
// whatever the target (the msgpackrpc codec does the same).
func TestNestedNumbers(t *testing.T) {
	in := wire.Raw(`[200,-1,1.5,2.0,"s",[300],{"k":65536}]`)
	want := []any{int64(200), int64(-1), 1.5, 2.0, "s", []any{int64(300)}, map[string]any{"k": int64(65536)}}
	var l []any
	if err := vimjson.Unmarshal(in, &l); err != nil || !reflect.DeepEqual(l, want) {
		t.Errorf("into []any: %#v, %v", l, err)
	}
	var m map[string]any
	if err := vimjson.Unmarshal(wire.Raw(`{"a":1,"b":[2.5,3]}`), &m); err != nil ||
		!reflect.DeepEqual(m, map[string]any{"a": int64(1), "b": []any{2.5, int64(3)}}) {
		t.Errorf("into map[string]any: %#v, %v", m, err)
	}
	type withAny struct {
		N    any      `json:"n"`
		L    []any    `json:"l"`
		Next *withAny `json:"next"`
	}
	var s withAny
	if err := vimjson.Unmarshal(wire.Raw(`{"n":7,"l":[1,1.0],"next":{"n":8}}`), &s); err != nil {
		t.Fatal(err)
	}
	if s.N != int64(7) || !reflect.DeepEqual(s.L, []any{int64(1), 1.0}) || s.Next == nil || s.Next.N != int64(8) {
		t.Errorf("into a struct: %+v (next %+v)", s, s.Next)
	}
}

// A wire.Appender parameter is encoded in place, as the wire.Raw it
// appends would be, and its error fails the message.
func TestAppenderParam(t *testing.T) {
	c := vimjson.New(strings.NewReader(""))
	raw := wire.Raw(`[1,"x"]`)
	want, err := c.AppendRequest(nil, 3, "m", []any{"a", raw})
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.AppendRequest(nil, 3, "m", []any{"a", wire.Appender(func(b []byte) ([]byte, error) { return append(b, raw...), nil })})
	if err != nil || string(got) != string(want) {
		t.Fatalf("got %s (%v), want %s", got, err, want)
	}
	boom := errors.New("boom")
	if _, err := c.AppendRequest(nil, 4, "m", []any{wire.Appender(func(b []byte) ([]byte, error) { return b, boom })}); !errors.Is(err, boom) {
		t.Fatalf("err = %v, want boom", err)
	}
}

// With Transport.Command, a call is Vim's channel "call" command of the
// wrapper FuncCall, [function, args] its arguments; a notification is
// unchanged; a large call goes as the same chunks, then the wrapper's call
// of FuncChunked.
func TestAppendRequestCallCommand(t *testing.T) {
	c := newCodec("")
	c.Transport.Command = true
	got, err := c.AppendRequest(nil, 5, "g:Foo", []any{"x", 1})
	if want := `["call","` + vimjson.FuncCall + `",["g:Foo",["x",1]],-5]` + "\n"; err != nil || string(got) != want {
		t.Fatalf("got %s (%v), want %s", got, err, want)
	}
	got, err = c.AppendNotification(nil, "F", nil)
	if want := `["call","F",[]]` + "\n"; err != nil || string(got) != want {
		t.Fatalf("notification: got %s (%v), want %s", got, err, want)
	}
	big := strings.Repeat("x", vimjson.ChunkThreshold+10)
	got, err = c.AppendRequest(nil, 7, "Big", []any{big})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(got), "\n"), "\n")
	last := lines[len(lines)-1]
	want := `["call","` + vimjson.FuncCall + `",["` + vimjson.FuncChunked + `",["c1",` + strconv.Itoa(len(lines)-1) + `]],-7]`
	if last != want {
		t.Fatalf("the last line of a chunked call is %s, want %s", last, want)
	}
	for _, l := range lines[:len(lines)-1] {
		if !strings.HasPrefix(l, `["call","`+vimjson.FuncChunk+`",["c1",`) {
			t.Fatalf("a chunk line is %.60s...", l)
		}
	}
}

// Every byte, at every place of a word, in Strings long enough for the
// eight-bytes-at-once path: the text is valid UTF-8 and JSON, and reads
// back as the String with each invalid byte replaced by U+FFFD.
func TestStringsEveryByte(t *testing.T) {
	want := func(s string) string {
		var b strings.Builder
		for i := 0; i < len(s); {
			r, n := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && n == 1 {
				b.WriteString("\ufffd")
			} else {
				b.WriteString(s[i : i+n])
			}
			i += n
		}
		return b.String()
	}
	var cases []string
	for c := 0; c < 256; c++ {
		for at := 0; at < 9; at++ {
			b := []byte(strings.Repeat("abcdefgh", 3))
			b[at] = byte(c)
			cases = append(cases, string(b), string(b[:at+1]))
		}
	}
	cases = append(cases, "日本語のテキストです、ね", "é"+strings.Repeat("x", 20)+"\xe6\x97", strings.Repeat("\x19\x7f\"\\", 9))
	for _, s := range cases {
		got := appendValue(t, s)
		if !utf8.ValidString(got) || !json.Valid([]byte(got)) {
			t.Fatalf("%q: %q is not valid UTF-8 and JSON", s, got)
		}
		var back string
		if err := json.Unmarshal([]byte(got), &back); err != nil || back != want(s) {
			t.Fatalf("%q: %q reads back as %q, %v; want %q", s, got, back, err, want(s))
		}
	}
}

// fallible is a wire.Fallible of a List that answers an error with
// [null, message].
type fallible []any

func (f fallible) Value() any             { return []any(f) }
func (f fallible) Fallback(err error) any { return []any{nil, err.Error()} }
