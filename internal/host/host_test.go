package host_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vmihailenco/msgpack/v5"

	"github.com/vigorvim/vigor/internal/codec/msgpackrpc"
	"github.com/vigorvim/vigor/internal/codec/vimjson"
	"github.com/vigorvim/vigor/internal/fakeeditor"
	"github.com/vigorvim/vigor/internal/host"
	"github.com/vigorvim/vigor/internal/protocol"
	"github.com/vigorvim/vigor/internal/rpc"
	"github.com/vigorvim/vigor/internal/wire"
)

// fakeCaller records what an adapter sends and answers with a fixed reply.
type fakeCaller struct {
	mu     sync.Mutex
	sent   []sent
	reply  wire.Raw
	err    error
	notify bool
}

type sent struct {
	notify bool
	method string
	params []any
}

func (f *fakeCaller) Call(ctx context.Context, method string, params []any) (wire.Raw, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	params, err := encodeAppenders(params)
	if err != nil {
		return nil, err // as the session would: the message is not sent
	}
	f.sent = append(f.sent, sent{false, method, params})
	return f.reply, f.err
}

// encodeAppenders turns each wire.Appender in params into the wire.Raw it
// appends, as a codec would write it.
func encodeAppenders(params []any) ([]any, error) {
	out := make([]any, len(params))
	for i, p := range params {
		if a, ok := p.(wire.Appender); ok {
			b, err := a(nil)
			if err != nil {
				return nil, err
			}
			p = wire.Raw(b)
		}
		if fc, ok := p.(*msgpackrpc.FuncCall); ok && len(params) == 1 {
			// The params [Fn, Args], which the caller reuses once the call
			// has returned (Caller).
			return []any{fc.Fn, fc.Args}, nil
		}
		out[i] = p
	}
	return out, nil
}

func (f *fakeCaller) Notify(ctx context.Context, method string, params []any) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	params, _ = encodeAppenders(params)
	f.sent = append(f.sent, sent{true, method, params})
	return f.err
}

func (f *fakeCaller) only(t *testing.T) sent {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.sent) != 1 {
		t.Fatalf("sent %d messages, want 1: %+v", len(f.sent), f.sent)
	}
	return f.sent[0]
}

func checkSent(t *testing.T, got sent, notify bool, method string, params []any) {
	t.Helper()
	if got.notify != notify || got.method != method {
		t.Errorf("sent notify=%v %q, want notify=%v %q", got.notify, got.method, notify, method)
	}
	if !reflect.DeepEqual(got.params, params) {
		t.Errorf("params = %#v\nwant     %#v", got.params, params)
	}
}

func vimAdapter(reply string, err error) (*fakeCaller, host.Adapter) {
	f := &fakeCaller{reply: wire.Raw(reply), err: err}
	return f, host.NewAdapter("vim", f, vimjson.New(strings.NewReader("")))
}

var bg = context.Background()

// mp encodes v the way Neovim does (smallest formats, uint for n >= 0).
func mp(t *testing.T, v any) wire.Raw {
	t.Helper()
	b, err := msgpackrpc.New(strings.NewReader("")).AppendResponse(nil, 1, v)
	if err != nil {
		t.Fatal(err)
	}
	var m wire.Message
	if err := msgpackrpc.New(strings.NewReader(string(b))).ReadMessage(&m); err != nil {
		t.Fatal(err)
	}
	return m.Result
}

func nvimAdapter(t *testing.T, reply any, err error, mode string) (*fakeCaller, *host.Nvim) {
	f := &fakeCaller{err: err}
	if reply != nil {
		f.reply = mp(t, reply)
	}
	a := host.NewAdapter("nvim", f, msgpackrpc.New(strings.NewReader(""))).(*host.Nvim)
	a.BatchMode = mode
	return f, a
}

func rawStrings(rs []wire.Raw) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = string(r)
	}
	return out
}

// ---------------------------------------------------------------------------
// Vim.

// openEditor opens a Conn, as serve does, to a fake editor of kind
// (internal/fakeeditor), whose answer runs the editor functions that the
// Conn calls, runs its session until the test ends, and returns the
// Conn's adapter (whose answers are still encoded, for the tests to check).
func openEditor(t *testing.T, opts fakeeditor.Options) (host.Adapter, *fakeeditor.Editor) {
	t.Helper()
	opts.Record = true
	ed, err := fakeeditor.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := host.Open(host.Config{
		Editor: opts.Editor, Plugin: "demo", Instance: "1",
		In: ed.PluginIn(), Out: ed.PluginOut(),
		Handler: nopHandler{},
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = conn.Run(ctx)
	}()
	t.Cleanup(func() {
		cancel()
		_ = ed.PluginOut().Close()
		if err := ed.Close(); err != nil && !errors.Is(err, fakeeditor.ErrEnded) {
			t.Errorf("the fake editor: %v", err)
		}
		<-done
	})
	return host.AdapterOf(conn), ed
}

// vimBody answers every call with the body (JSON text) of Vim's answer
// [-id, body].
func vimBody(t *testing.T, body string) func(string, []any) (any, error) {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(body), &v); err != nil {
		t.Fatal(err)
	}
	return func(string, []any) (any, error) { return nil, &fakeeditor.Body{Value: v} }
}

// calls returns the calls that the fake editor has recorded.
func calls(t *testing.T, ed *fakeeditor.Editor) []fakeeditor.Call {
	t.Helper()
	var out []fakeeditor.Call
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		c, err := ed.Next(ctx)
		cancel()
		if err != nil {
			return out
		}
		out = append(out, c)
	}
}

func TestVimCall(t *testing.T) {
	// The codec has unwrapped Vim's [result, v:null]: the adapter returns
	// the result as it is.
	for _, reply := range []string{`42`, `"hello"`, `{"a":[1,2]}`, `null`, `1.5`, `[1,null]`} {
		f, vim := vimAdapter(reply, nil)
		got, err := vim.Call(bg, "Foo", []any{1, "a"})
		if err != nil {
			t.Errorf("reply %s: %v", reply, err)
			continue
		}
		if string(got) != reply {
			t.Errorf("reply %s: result %s", reply, got)
		}
		// The function is called directly, as Vim9's call() finds it.
		checkSent(t, f.only(t), false, "g:Foo", []any{1, "a"})
	}
	// nil args are sent as an empty List.
	f, vim := vimAdapter(`0`, nil)
	if _, err := vim.Call(bg, "Bar", nil); err != nil {
		t.Fatal(err)
	}
	checkSent(t, f.only(t), false, "g:Bar", []any{})
	// The request encodes as the runtime's channel callback expects.
	b, err := vimjson.New(strings.NewReader("")).AppendRequest(nil, 4, f.sent[0].method, f.sent[0].params)
	if err != nil {
		t.Fatal(err)
	}
	if want := `[0,[-4,"g:Bar",[]]]` + "\n"; string(b) != want {
		t.Errorf("wire form %s, want %s", b, want)
	}
}

// Vim9's call() needs "g:" to find a global function; builtins (lower-case
// names) go through vimjson.FuncLegacy, so that they read legacy
// script; other names go as they are. Notifications go through Vim's own
// "call" command, which finds global functions without it.
func TestVimFunctionNames(t *testing.T) {
	for _, tt := range []struct{ fn, want string }{
		{"Foo", "g:Foo"},
		{"F", "g:F"},
		{"Z9_x", "g:Z9_x"},
		{"strftime", "strftime"}, // a builtin
		{"foo_bar", "foo_bar"},   // lower case: not a global user function
		{"g:Foo", "g:Foo"},       // already scoped
		{"s:Foo", "s:Foo"},       // script-local
		{"<SNR>12_Foo", "<SNR>12_Foo"},
		{"vigor#util#Foo", "vigor#util#Foo"}, // autoload
		{"Foo#bar", "Foo#bar"},               // autoload, upper case
		{"Dict.Method", "Dict.Method"},       // a Dict function
		{"Émile", "Émile"},                   // not an ASCII capital
		{"", ""},
	} {
		f, vim := vimAdapter(`1`, nil)
		if _, err := vim.Call(bg, tt.fn, nil); err != nil {
			t.Fatal(err)
		}
		builtin := tt.fn == "strftime" || tt.fn == "foo_bar"
		sent := f.only(t)
		if builtin {
			checkSent(t, sent, false, vimjson.FuncLegacy, []any{tt.fn, wire.Raw(`[]`)})
		} else if sent.method != tt.want {
			t.Errorf("Call(%q) sent %q, want %q", tt.fn, sent.method, tt.want)
		}

		f, vim = vimAdapter(`[[1],null]`, nil)
		if _, err := host.RunBatch(bg, vim, []host.Call{{Fn: tt.fn}}); err != nil {
			t.Fatal(err)
		}
		want := wire.Raw(`[[` + string(mustValue(t, tt.want)) + `,[]]]`)
		if builtin {
			want = wire.Raw(`[["` + vimjson.FuncLegacy + `",["` + tt.fn + `",[]]]]`)
		}
		checkSent(t, f.only(t), false, protocol.FuncVimBatch, []any{want})

		f, vim = vimAdapter("", nil)
		if err := vim.Notify(bg, tt.fn, nil); err != nil {
			t.Fatal(err)
		}
		if got := f.only(t).method; got != tt.fn {
			t.Errorf("Notify(%q) sent %q, want the name unchanged", tt.fn, got)
		}
	}
}

func mustValue(t *testing.T, v any) []byte {
	t.Helper()
	b, err := vimjson.AppendValue(nil, v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Vim's error comes back as an *rpc.RemoteError (the codec unwrapped
// [v:null, error]); the adapter makes it a *host.CallError that names the
// function as the plugin did, without the "g:" it added.
func TestVimCallError(t *testing.T) {
	tests := []struct {
		fn   string
		body string // Vim's answer [-id, body]
		msg  string
	}{
		{"Foo", `[null,"E117: Unknown function: g:Foo"]`, "E117: Unknown function: Foo"},
		{"Foo", `[null,"Vim(return):E119: Not enough arguments for function: g:Foo"]`,
			"Vim(return):E119: Not enough arguments for function: Foo"},
		// Only the function's own name is mapped back.
		{"Foo", `[null,"E121: Undefined variable: g:Other"]`, "E121: Undefined variable: g:Other"},
		{"Foo", `[null,"in g:FooBar: E117: Unknown function: g:Foo"]`, "in g:FooBar: E117: Unknown function: Foo"},
		{"vigor#x#Foo", `[null,"E117: Unknown function: vigor#x#Foo"]`, "E117: Unknown function: vigor#x#Foo"},
		{"strftime", `[null,"E116: Invalid arguments for function strftime"]`, "E116: Invalid arguments for function strftime"},
		// An error that is not a String (Vim sends v:exception, always
		// one) is printed.
		{"Foo", `[null,[0,"thrown"]]`, "[0 thrown]"},
		{"Foo", `[null,{"code":1}]`, "map[code:1]"},
	}
	for _, tt := range tests {
		vim, _ := openEditor(t, fakeeditor.Options{Editor: fakeeditor.Vim, Answer: vimBody(t, tt.body)})
		got, err := vim.Call(bg, tt.fn, nil)
		var ce *host.CallError
		if !errors.As(err, &ce) {
			t.Errorf("%s: err = %v (%T), want *host.CallError", tt.body, err, err)
			continue
		}
		if got != nil {
			t.Errorf("%s: result %s with an error", tt.body, got)
		}
		if ce.Fn != tt.fn || ce.Msg != tt.msg {
			t.Errorf("%s: CallError = %+v, want Fn %q Msg %q", tt.body, ce, tt.fn, tt.msg)
		}
	}
}

// The whole way: a real session and codec under the adapter, and Vim's
// answers as they come on the channel.
func TestVimCallOverSession(t *testing.T) {
	vim, ed := openEditor(t, fakeeditor.Options{Editor: fakeeditor.Vim, Answer: func(fn string, args []any) (any, error) {
		switch fn {
		case "strftime":
			return "2024", nil
		case "Nil":
			return nil, nil
		case "Foo":
			return nil, errors.New("E117: Unknown function: g:Foo")
		case "Old":
			return nil, &fakeeditor.Body{Value: "ERROR"} // not [result, error]
		}
		return nil, errors.New("unexpected call " + fn)
	}})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	got, err := vim.Call(ctx, "strftime", []any{"%Y"})
	if err != nil || string(got) != `"2024"` {
		t.Errorf("strftime: %s, %v", got, err)
	}
	got, err = vim.Call(ctx, "Nil", nil)
	if err != nil || string(got) != `null` {
		t.Errorf("a function that returns v:null: %s, %v", got, err)
	}

	_, err = vim.Call(ctx, "Foo", nil)
	var ce *host.CallError
	if !errors.As(err, &ce) {
		t.Fatalf("err = %v (%T), want *host.CallError", err, err)
	}
	if ce.Fn != "Foo" || ce.Msg != "E117: Unknown function: Foo" {
		t.Errorf("CallError = %+v", ce)
	}
	if want := "Foo(): E117: Unknown function: Foo"; err.Error() != want {
		t.Errorf("Error() = %q, want %q", err.Error(), want)
	}

	// An answer that is not [result, error] fails the call (it does not
	// hang), and the session goes on.
	_, err = vim.Call(ctx, "Old", nil)
	if !errors.As(err, &ce) || ce.Fn != "Old" || !strings.HasPrefix(ce.Msg, "Vim could not answer: the result cannot be sent as JSON") {
		t.Errorf("malformed answer: err = %v, want a CallError about the unexpected answer", err)
	}
	if got, err := vim.Call(ctx, "strftime", []any{"%Y"}); err != nil || string(got) != `"2024"` {
		t.Errorf("after the malformed answer: %s, %v", got, err)
	}

	// What the runtime's channel callback ran, in order: the builtin
	// through the legacy helper, which the fake unwraps (TestVimFunctionNames
	// has the wire form), the others by their names.
	want := []string{"call strftime[%Y]", "call Nil[]", "call Foo[]", "call Old[]", "call strftime[%Y]"}
	var ran []string
	for _, c := range calls(t, ed) {
		ran = append(ran, c.String())
	}
	if !reflect.DeepEqual(ran, want) {
		t.Errorf("Vim ran\n%q\nwant\n%q", ran, want)
	}
}

func TestVimCallerError(t *testing.T) {
	closed := fmt.Errorf("%w: the editor closed the channel", rpc.ErrClosed)
	_, vim := vimAdapter("", closed)
	_, err := vim.Call(bg, "Foo", nil)
	if !errors.Is(err, rpc.ErrClosed) {
		t.Errorf("Call: err = %v, want rpc.ErrClosed", err)
	}
	var ce *host.CallError
	if errors.As(err, &ce) {
		t.Errorf("Call: a transport error became a CallError: %v", err)
	}
	if _, err := host.RunBatch(bg, vim, []host.Call{{Fn: "a"}}); !errors.Is(err, rpc.ErrClosed) {
		t.Errorf("Batch: err = %v, want rpc.ErrClosed", err)
	}
	if err := vim.Notify(bg, "a", nil); !errors.Is(err, rpc.ErrClosed) {
		t.Errorf("Notify: err = %v, want rpc.ErrClosed", err)
	}
}

func TestVimNotify(t *testing.T) {
	f, vim := vimAdapter("", nil)
	if err := vim.Notify(bg, "Echo", []any{"hi"}); err != nil {
		t.Fatal(err)
	}
	checkSent(t, f.only(t), true, "Echo", []any{"hi"})
	f, vim = vimAdapter("", nil)
	if err := vim.Notify(bg, "Redraw", nil); err != nil {
		t.Fatal(err)
	}
	checkSent(t, f.only(t), true, "Redraw", []any{})
	// A notification is Vim's "call" command, which has no answer.
	b, err := vimjson.New(strings.NewReader("")).AppendNotification(nil, f.sent[0].method, f.sent[0].params)
	if err != nil {
		t.Fatal(err)
	}
	if want := `["call","Redraw",[]]` + "\n"; string(b) != want {
		t.Errorf("wire form %s, want %s", b, want)
	}
}

var threeCalls = []host.Call{{Fn: "a"}, {Fn: "b", Args: []any{1, "x"}}, {Fn: "c", Args: []any{}}}

func TestVimBatch(t *testing.T) {
	f, vim := vimAdapter(`[[1,"x",null],null]`, nil)
	got, err := host.RunBatch(bg, vim, threeCalls)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{`1`, `"x"`, `null`}; !reflect.DeepEqual(rawStrings(got), want) {
		t.Errorf("results %q, want %q", rawStrings(got), want)
	}
	// The calls are sent pre-encoded, in one wire.Raw.
	// (Builtins, as these lower-case names are, go through vimjson.FuncLegacy.)
	l := `"` + vimjson.FuncLegacy + `",`
	calls := `[[` + l + `["a",[]]],[` + l + `["b",[1,"x"]]],[` + l + `["c",[]]]]`
	checkSent(t, f.only(t), false, protocol.FuncVimBatch, []any{wire.Raw(calls)})
	// The request encodes as the runtime's channel callback expects.
	b, err := vimjson.New(strings.NewReader("")).AppendRequest(nil, 1, f.sent[0].method, f.sent[0].params)
	if err != nil {
		t.Fatal(err)
	}
	want := `[0,[-1,"` + protocol.FuncVimBatch + `",[` + calls + `]]]` + "\n"
	if string(b) != want {
		t.Errorf("wire form %s, want %s", b, want)
	}

	// Global functions get "g:", as in Call.
	f, vim = vimAdapter(`[[1,2],null]`, nil)
	if _, err := host.RunBatch(bg, vim, []host.Call{{Fn: "Foo", Args: []any{1}}, {Fn: "vigor#x"}}); err != nil {
		t.Fatal(err)
	}
	checkSent(t, f.only(t), false, protocol.FuncVimBatch, []any{wire.Raw(`[["g:Foo",[1]],["vigor#x",[]]]`)})
}

func TestVimBatchError(t *testing.T) {
	tests := []struct {
		name    string
		calls   []host.Call
		reply   string
		results []string
		index   int
		fn      string
		msg     string
	}{
		{"second call fails", threeCalls, `[[1],[1,"E121: Undefined variable: x"]]`, []string{`1`}, 1, "b", "E121: Undefined variable: x"},
		{"first call fails", threeCalls, `[[],[0,"E117: Unknown function: a"]]`, []string{}, 0, "a", "E117: Unknown function: a"},
		{"last call fails", threeCalls, `[[1,2],[2,"boom"]]`, []string{`1`, `2`}, 2, "c", "boom"},
		{"results truncated", threeCalls, `[[1,2,3],[1,"boom"]]`, []string{`1`}, 1, "b", "boom"},
		{"index out of range", threeCalls, `[[1,2,3],[5,"boom"]]`, []string{`1`, `2`, `3`}, 5, "", "boom"},
		// The message names a global function as the plugin did.
		{"global function", []host.Call{{Fn: "a"}, {Fn: "Foo"}}, `[[1],[1,"E117: Unknown function: g:Foo"]]`,
			[]string{`1`}, 1, "Foo", "E117: Unknown function: Foo"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, vim := vimAdapter(tt.reply, nil)
			got, err := host.RunBatch(bg, vim, tt.calls)
			var be *host.BatchError
			if !errors.As(err, &be) {
				t.Fatalf("err = %v (%T), want *host.BatchError", err, err)
			}
			if be.Index != tt.index || be.Fn != tt.fn || be.Msg != tt.msg {
				t.Errorf("BatchError = %+v, want index %d fn %q msg %q", be, tt.index, tt.fn, tt.msg)
			}
			if !reflect.DeepEqual(rawStrings(got), tt.results) {
				t.Errorf("results %q, want %q", rawStrings(got), tt.results)
			}
		})
	}
	_, vim := vimAdapter(`[[1],[1,"E121: Undefined variable: x"]]`, nil)
	_, err := host.RunBatch(bg, vim, threeCalls)
	if want := "call 1 of the batch, b(): E121: Undefined variable: x"; err == nil || err.Error() != want {
		t.Errorf("Error() = %v, want %q", err, want)
	}
}

// When the batch helper itself fails in Vim (its answer has an error), the
// batch fails with that message; it is not a call's BatchError.
func TestVimBatchHelperFails(t *testing.T) {
	for _, tt := range []struct{ body, want string }{
		{`[null,"E117: Unknown function: vigor#_internal#api#vim#batch"]`,
			"the batch helper failed in Vim: E117: Unknown function: vigor#_internal#api#vim#batch"},
		{`"ERROR"`, "the batch helper failed in Vim: Vim could not answer: the result cannot be sent as JSON (a Funcref, Job or Channel?), or Vigor's call helper is not on 'runtimepath'"},
	} {
		var v any
		if err := json.Unmarshal([]byte(tt.body), &v); err != nil {
			t.Fatal(err)
		}
		vim, _ := openEditor(t, fakeeditor.Options{Editor: fakeeditor.Vim,
			HelperError: func(string) error { return &fakeeditor.Body{Value: v} }})
		_, err := host.RunBatch(bg, vim, threeCalls)
		var be *host.BatchError
		var ce *host.CallError
		if err == nil || err.Error() != tt.want || errors.As(err, &be) || errors.As(err, &ce) {
			t.Errorf("answer %s: err = %v (%T), want %q", tt.body, err, err, tt.want)
		}
	}
}

func TestVimBatchLargeIndex(t *testing.T) {
	calls := make([]host.Call, 200)
	var results []string
	for i := range calls {
		calls[i] = host.Call{Fn: fmt.Sprintf("f%d", i)}
		if i < 150 {
			results = append(results, fmt.Sprint(i))
		}
	}
	_, vim := vimAdapter(`[[`+strings.Join(results, ",")+`],[150,"boom"]]`, nil)
	got, err := host.RunBatch(bg, vim, calls)
	var be *host.BatchError
	if !errors.As(err, &be) || be.Index != 150 || be.Fn != "f150" {
		t.Fatalf("err = %v, want call 150 (f150)", err)
	}
	if len(got) != 150 {
		t.Errorf("%d results, want 150", len(got))
	}
}

func TestVimBatchBadReply(t *testing.T) {
	for _, reply := range []string{`"x"`, `[1]`, `[1,null]`, `[[1],"oops"]`, `[[1],[1]]`, `[[1],{}]`} {
		_, vim := vimAdapter(reply, nil)
		_, err := host.RunBatch(bg, vim, threeCalls)
		var be *host.BatchError
		if err == nil || errors.As(err, &be) {
			t.Errorf("reply %s: err = %v, want an unexpected reply error", reply, err)
		}
	}
}

// ---------------------------------------------------------------------------
// Neovim.

func TestNvimCall(t *testing.T) {
	f, nv := nvimAdapter(t, []any{"x", 1}, nil, "")
	got, err := nv.Call(bg, "Foo", []any{1})
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(mp(t, []any{"x", 1})) {
		t.Errorf("result % x", got)
	}
	checkSent(t, f.only(t), false, "nvim_call_function", []any{"Foo", []any{1}})

	f, nv = nvimAdapter(t, 1, nil, "")
	if _, err := nv.Call(bg, "Bar", nil); err != nil {
		t.Fatal(err)
	}
	checkSent(t, f.only(t), false, "nvim_call_function", []any{"Bar", []any{}})
}

type nopHandler struct{}

func (nopHandler) Request(context.Context, string, host.Values) any  { return nil }
func (nopHandler) Notification(context.Context, string, host.Values) {}
func (nopHandler) Async(context.Context, host.Async)                 {}
func (nopHandler) Late(host.Async)                                   {}

func TestNvimCallRemoteError(t *testing.T) {
	tests := []struct {
		errVal any
		msg    string
	}{
		{[]any{0, "Vim:E117: Unknown function: Foo"}, "Vim:E117: Unknown function: Foo"},
		{[]any{0, "function Outer[2]..Inner, line 6: Vim(call):boom"}, "Vim(call):boom"},
		{[]any{0, "Foo[1]..Bar, line 3: E121: Undefined variable: x"}, "E121: Undefined variable: x"},
		{[]any{0, "plain message"}, "plain message"},
		{[]any{1, []byte("sent as Binary")}, "sent as Binary"},
		// Not Neovim's [type, message]: printed.
		{"a String", "a String"},
		{[]any{1, 2, 3}, "[1 2 3]"},
		// A chain that started in a sourced script (seen with Neovim
		// 0.11, e2e TestEditorErrorsFromScripts), with spaces in a path.
		{[]any{0, "function VigorTestExec[2]..script /tmp/my dir/run.vim[3]..function vigor#request[10]..vigor#_internal#host#request[2]..Do[1]..Inner, line 1: my own error"},
			"my own error"},
		{[]any{0, "function VigorTestExec[2]..script /tmp/run.vim[3]..function vigor#request[10]..vigor#_internal#host#request[2]..vigor#_internal#api#cmd, line 2: x, line 3: y"},
			"x, line 3: y"},
		{[]any{0, "script /tmp/a.vim[1]..function Do, line 1: Vim(call):E117: Unknown function: x"}, "Vim(call):E117: Unknown function: x"},
		{[]any{0, "autocommand User Foo..function Do, line 1: boom"}, "boom"},
		// A chain that started at the top of a sourced script (:source
		// typed, -S): the path first, without "script".
		{[]any{0, "/tmp/my dir/script.vim[94]..function CheckEq[2]..vigor#request[43]..vigor#_internal#api#dispatch[1]..vigor#request, line 64: [vigor] h.fail: no"},
			"[vigor] h.fail: no"},
		{[]any{0, "script.vim[13]..function vigor#request[43]..vigor#_internal#api#cmd, line 2: x, line 3: y"}, "x, line 3: y"},
		{[]any{0, "[vigor] h.x: list[1]..y, line 3: mine"}, "[vigor] h.x: list[1]..y, line 3: mine"},
		// A message that only looks like one is left alone.
		{[]any{0, "my own error, line 3: still mine"}, "my own error, line 3: still mine"},
		// Messages that quote something like a stack after their own
		// text are kept whole: a stack comes first, and none of its
		// entries holds ": ".
		{[]any{0, "Vim:E492: Not an editor command: echo l[1].. 'a, line 2: b'"}, "Vim:E492: Not an editor command: echo l[1].. 'a, line 2: b'"},
		{[]any{0, `Vim:E716: Key not present in Dictionary: "rows[2]..cols, line 3: x"`}, `Vim:E716: Key not present in Dictionary: "rows[2]..cols, line 3: x"`},
		{[]any{0, "Error executing lua: /tmp/a.lua:3: at items[3]..: expected table, line 4: got nil"}, "Error executing lua: /tmp/a.lua:3: at items[3]..: expected table, line 4: got nil"},
		{[]any{0, "items[3]..: expected table, line 4: got nil"}, "items[3]..: expected table, line 4: got nil"},
		// Real stacks go, whatever their message holds.
		{[]any{0, "Error executing lua: function Do[1]..Inner, line 2: Vim:E492: Not an editor command: x"}, "Vim:E492: Not an editor command: x"},
		{[]any{0, "/tmp/a:b.vim[2]..function <SNR>3_Do[4]..<lambda>1, line 1: Vim(call):E716: Key not present in Dictionary: \"rows[2]..cols, line 3: x\""},
			"Vim(call):E716: Key not present in Dictionary: \"rows[2]..cols, line 3: x\""},
		{[]any{0, "function <SNR>12_Run[3]..script /tmp/my dir/a.vim[1]..autocommand User Foo..function Do, line 1: boom"}, "boom"},
	}
	for _, tt := range tests {
		nv, _ := openEditor(t, fakeeditor.Options{Editor: fakeeditor.Nvim,
			Answer: func(string, []any) (any, error) { return nil, &fakeeditor.Body{Value: tt.errVal} }})
		_, err := nv.Call(bg, "Foo", nil)
		var ce *host.CallError
		if !errors.As(err, &ce) {
			t.Errorf("%v: err = %v (%T), want *host.CallError", tt.errVal, err, err)
			continue
		}
		if ce.Fn != "Foo" || ce.Msg != tt.msg {
			t.Errorf("CallError = %+v, want Fn Foo, Msg %q", ce, tt.msg)
		}
		if l, ok := tt.errVal.([]any); ok {
			if full, ok := l[1].(string); ok && ce.Full != full {
				t.Errorf("CallError.Full = %q, want %q", ce.Full, full)
			}
		}
	}
	// Transport errors pass through unchanged.
	closed := fmt.Errorf("%w: write: broken pipe", rpc.ErrClosed)
	_, nv := nvimAdapter(t, nil, closed, "")
	if _, err := nv.Call(bg, "Foo", nil); err != closed {
		t.Errorf("err = %v, want %v", err, closed)
	}
}

func TestNvimNotify(t *testing.T) {
	f, nv := nvimAdapter(t, nil, nil, "")
	if err := nv.Notify(bg, "Echo", nil); err != nil {
		t.Fatal(err)
	}
	checkSent(t, f.only(t), true, "nvim_call_function", []any{"Echo", []any{}})
}

func TestNvimBatchModes(t *testing.T) {
	list := []any{
		[]any{"a", []any{}},
		[]any{"b", []any{int64(1), "x"}},
		[]any{"c", []any{}},
	}
	// The list goes pre-encoded, as a wire.Appender in a List.
	appended := func(t *testing.T, v any) any {
		l, ok := v.([]any)
		if !ok || len(l) != 1 {
			t.Fatalf("not a List of one: %#v", v)
		}
		a, ok := l[0].(wire.Appender)
		if !ok {
			t.Fatalf("not a wire.Appender: %#v", l[0])
		}
		b, err := a(nil)
		if err != nil {
			t.Fatal(err)
		}
		var got any
		if err := msgpackrpc.Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
		return []any{got}
	}
	tests := []struct {
		mode   string
		method string
		check  func(t *testing.T, params []any)
	}{
		{"", "nvim_call_atomic", func(t *testing.T, params []any) {
			want := []any{[]any{
				[]any{"nvim_call_function", []any{"a", []any{}}},
				[]any{"nvim_call_function", []any{"b", []any{int64(1), "x"}}},
				[]any{"nvim_call_function", []any{"c", []any{}}},
			}}
			// The calls are sent pre-encoded (one wire.Raw).
			raw, ok := params[0].(wire.Raw)
			if len(params) != 1 || !ok {
				t.Fatalf("params %#v", params)
			}
			var got any
			if err := msgpackrpc.Unmarshal(raw, &got); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual([]any{got}, want) {
				t.Errorf("params %#v", got)
			}
		}},
		{"atomic", "nvim_call_atomic", nil},
		{"lua", "nvim_exec_lua", func(t *testing.T, params []any) {
			if len(params) != 2 {
				t.Fatalf("params %#v", params)
			}
			if code, _ := params[0].(string); !strings.Contains(code, "pcall(vim.call") {
				t.Errorf("lua code %q", params[0])
			}
			if got := appended(t, params[1]); !reflect.DeepEqual(got, []any{list}) {
				t.Errorf("lua args %#v", got)
			}
		}},
		{"vimscript", "nvim_call_function", func(t *testing.T, params []any) {
			if len(params) != 2 || params[0] != protocol.FuncBatch {
				t.Fatalf("params %#v", params)
			}
			if got := appended(t, params[1]); !reflect.DeepEqual(got, []any{list}) {
				t.Errorf("params %#v, want %#v", got, []any{list})
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			f, nv := nvimAdapter(t, []any{[]any{1, "x", nil}, nil}, nil, tt.mode)
			got, err := host.RunBatch(bg, nv, threeCalls)
			if err != nil {
				t.Fatal(err)
			}
			want := []string{string(mp(t, 1)), string(mp(t, "x")), string(mp(t, nil))}
			if !reflect.DeepEqual(rawStrings(got), want) {
				t.Errorf("results % x, want % x", got, want)
			}
			s := f.only(t)
			if s.method != tt.method || s.notify {
				t.Errorf("sent %q (notify %v), want %q", s.method, s.notify, tt.method)
			}
			if tt.check != nil {
				tt.check(t, s.params)
			}
		})
	}
}

func TestNvimBatchError(t *testing.T) {
	tests := []struct {
		name  string
		mode  string
		fail  []any
		index int
		fn    string
		msg   string
	}{
		// nvim_call_atomic: [index, error type, message].
		{"atomic", "", []any{1, 0, "Vim:E121: Undefined variable: x"}, 1, "b", "Vim:E121: Undefined variable: x"},
		{"atomic throwpoint", "", []any{2, 0, "function c[1]..d, line 2: boom"}, 2, "c", "boom"},
		// The Lua and Vim script loops: [index, message].
		{"lua", "lua", []any{1, "Vim:E121: Undefined variable: x"}, 1, "b", "Vim:E121: Undefined variable: x"},
		{"vimscript", "vimscript", []any{0, "E117: Unknown function: a"}, 0, "a", "E117: Unknown function: a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			results := []any{}
			for i := 0; i < tt.index; i++ {
				results = append(results, i)
			}
			_, nv := nvimAdapter(t, []any{results, tt.fail}, nil, tt.mode)
			got, err := host.RunBatch(bg, nv, threeCalls)
			var be *host.BatchError
			if !errors.As(err, &be) {
				t.Fatalf("err = %v (%T), want *host.BatchError", err, err)
			}
			if be.Index != tt.index || be.Fn != tt.fn || be.Msg != tt.msg {
				t.Errorf("BatchError = %+v, want index %d fn %q msg %q", be, tt.index, tt.fn, tt.msg)
			}
			if len(got) != tt.index {
				t.Errorf("%d results, want %d", len(got), tt.index)
			}
		})
	}
}

// A batch that Neovim fails as a whole (not one of its calls) fails with
// Neovim's message, and the error is still the session's *rpc.RemoteError.
func TestNvimBatchRemoteError(t *testing.T) {
	for _, mode := range []string{"", "lua", "vimscript"} {
		conn, _ := openEditor(t, fakeeditor.Options{Editor: fakeeditor.Nvim, HelperError: func(string) error {
			return &fakeeditor.Body{Value: []any{1, "Vim:E5108: Error executing lua"}}
		}})
		nv := conn.(*host.Nvim)
		nv.BatchMode = mode
		_, err := host.RunBatch(bg, nv, threeCalls)
		var re *rpc.RemoteError
		if err == nil || err.Error() != "Vim:E5108: Error executing lua" || !errors.As(err, &re) {
			t.Errorf("mode %q: err = %v (%T), want Neovim's message and an *rpc.RemoteError", mode, err, err)
		}
	}
}

// Neovim reports a failed notification with nvim_error_event [type,
// message]; the adapter takes it, and Vim's takes nothing.
func TestEditorNotification(t *testing.T) {
	_, nv := nvimAdapter(t, nil, nil, "")
	for _, tt := range []struct {
		m   wire.Message
		ok  bool
		err string
	}{
		{wire.Message{Kind: wire.Notification, Method: "nvim_error_event", Params: []wire.Raw{mp(t, 0), mp(t, "Vim:E117: Unknown function: Nope")}},
			true, "Neovim reported an error for a notification: Vim:E117: Unknown function: Nope"},
		{wire.Message{Kind: wire.Notification, Method: "nvim_error_event", Params: []wire.Raw{mp(t, 0), mp(t, []byte("as Binary"))}},
			true, "Neovim reported an error for a notification: as Binary"},
		{wire.Message{Kind: wire.Notification, Method: "nvim_error_event"}, true, "Neovim reported an error for a notification: (no message)"},
		{wire.Message{Kind: wire.Notification, Method: "greet", Params: []wire.Raw{mp(t, "x")}}, false, ""},
	} {
		ok, err := nv.EditorNotification(&tt.m)
		if ok != tt.ok || fmt.Sprint(err) != map[bool]string{true: tt.err, false: "<nil>"}[tt.err != ""] {
			t.Errorf("Nvim.EditorNotification(%s) = %v, %v; want %v, %q", tt.m.Method, ok, err, tt.ok, tt.err)
		}
	}
	_, vim := vimAdapter("", nil)
	if ok, err := vim.EditorNotification(&wire.Message{Kind: wire.Notification, Method: "nvim_error_event"}); ok || err != nil {
		t.Errorf("Vim.EditorNotification = %v, %v; want false, nil", ok, err)
	}
}

// Without nvim_call_atomic, batches go through the Lua loop, from then on.
func TestNvimBatchWithoutAtomic(t *testing.T) {
	conn, ed := openEditor(t, fakeeditor.Options{Editor: fakeeditor.Nvim,
		Answer: func(fn string, args []any) (any, error) { return fn, nil },
		HelperError: func(fn string) error {
			if fn == "nvim_call_atomic" {
				return &fakeeditor.Body{Value: []any{0, "Invalid method: nvim_call_atomic"}}
			}
			return nil
		}})
	for i := 0; i < 2; i++ {
		got, err := host.RunBatch(bg, conn, threeCalls)
		if err != nil || len(got) != 3 {
			t.Fatalf("batch %d: %d results, err %v", i, len(got), err)
		}
		checkEqual(t, "results", rawStrings(got), []string{string(mp(t, "a")), string(mp(t, "b")), string(mp(t, "c"))})
	}
	// The failed nvim_call_atomic ran nothing; the Lua loop got the calls
	// as [fn, args].
	want := []string{
		"call nvim_exec_lua[call a[] call b[1 x] call c[]]",
		"call nvim_exec_lua[call a[] call b[1 x] call c[]]",
	}
	var ran []string
	for _, c := range calls(t, ed) {
		ran = append(ran, c.String())
	}
	checkEqual(t, "batches", ran, want)
}

// Every batch mode runs the calls in Neovim, in order, and fails at the
// one that fails, through a real session and codec.
func TestNvimBatchModesOverFake(t *testing.T) {
	for _, mode := range []string{"", "atomic", "lua", "vimscript"} {
		t.Run(mode, func(t *testing.T) {
			conn, ed := openEditor(t, fakeeditor.Options{Editor: fakeeditor.Nvim, Answer: func(fn string, args []any) (any, error) {
				if fn == "c" {
					return nil, errors.New("function c[1]..d, line 2: Vim:E121: Undefined variable: x")
				}
				return fn, nil
			}})
			nv := conn.(*host.Nvim)
			nv.BatchMode = mode
			got, err := host.RunBatch(bg, nv, threeCalls)
			var be *host.BatchError
			if !errors.As(err, &be) || be.Index != 2 || be.Fn != "c" || be.Msg != "Vim:E121: Undefined variable: x" {
				t.Fatalf("err = %v (%T), want a BatchError at call 2 of c", err, err)
			}
			checkEqual(t, "results", rawStrings(got), []string{string(mp(t, "a")), string(mp(t, "b"))})
			c := calls(t, ed)
			if len(c) != 1 || len(c[0].Batch) != 3 {
				t.Fatalf("Neovim ran %v, want one batch of 3 calls", c)
			}
			for i, want := range threeCalls {
				if c[0].Batch[i].Fn != want.Fn {
					t.Errorf("call %d ran %s, want %s", i, c[0].Batch[i].Fn, want.Fn)
				}
			}
		})
	}
}

func checkEqual(t *testing.T, what string, got, want any) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s = %#v, want %#v", what, got, want)
	}
}

// A Batch encodes each call as it is added; an argument that cannot be
// sent leaves it as it was, and Fn names each call's function.
func TestBatchAdd(t *testing.T) {
	for _, kind := range []string{"vim", "nvim"} {
		var a host.Adapter
		if kind == "vim" {
			_, a = vimAdapter(`[[1,2,3,4],null]`, nil)
		} else {
			_, a = nvimAdapter(t, []any{[]any{1, 2, 3, 4}, nil}, nil, "")
		}
		b := a.NewBatch()
		for _, fn := range []string{"a", "a", "b"} {
			if err := b.Add(fn, []any{"x"}); err != nil {
				t.Fatal(err)
			}
		}
		err := b.Add("c", []any{1, make(chan int)})
		var ae *host.ArgError
		if !errors.As(err, &ae) || ae.Call != 3 || ae.Arg != 1 || ae.Fn != "c" {
			t.Fatalf("%s: a chan: %#v", kind, err)
		}
		if err := b.Add("a", nil); err != nil {
			t.Fatal(err)
		}
		fns := []string{}
		for i := 0; i < b.Len(); i++ {
			fns = append(fns, b.Fn(i))
		}
		checkEqual(t, kind+" fns", fns, []string{"a", "a", "b", "a"})
		got, err := a.SendBatch(bg, b)
		if err != nil || len(got) != 4 {
			t.Fatalf("%s: %d results, %v", kind, len(got), err)
		}
		b.Reset()
		checkEqual(t, kind+" len after Reset", b.Len(), 0)
	}
}

// Neovim sends Numbers >= 128 in msgpack's uint formats.
func TestNvimBatchLargeIndex(t *testing.T) {
	for _, n := range []int{127, 128, 150, 255, 256, 300} {
		calls := make([]host.Call, n+10)
		results := []any{}
		for i := range calls {
			calls[i] = host.Call{Fn: fmt.Sprintf("f%d", i)}
			if i < n {
				results = append(results, i)
			}
		}
		_, nv := nvimAdapter(t, []any{results, []any{n, 0, "boom"}}, nil, "")
		got, err := host.RunBatch(bg, nv, calls)
		var be *host.BatchError
		if !errors.As(err, &be) || be.Index != n || be.Fn != fmt.Sprintf("f%d", n) {
			t.Errorf("failure at %d: err = %v", n, err)
			continue
		}
		if len(got) != n {
			t.Errorf("failure at %d: %d results", n, len(got))
		}
	}
}

func TestNew(t *testing.T) {
	f := &fakeCaller{}
	for calls, head := range map[string]string{"": `[0,[-1,`, "callback": `[0,[-1,`, "command": `["call","` + vimjson.FuncCall + `",[`} {
		c, err := host.NewCodec("vim", calls, "p", "1", strings.NewReader(""))
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := host.New(f, c).(*host.Vim); !ok {
			t.Error(`New of a Vim codec is not a *host.Vim`)
		}
		// The codec frames calls in the way that calls names.
		if b, err := c.AppendRequest(nil, 1, "F", nil); err != nil || !strings.HasPrefix(string(b), head) {
			t.Errorf(`NewCodec("vim", %q): a call is %q (%v), want it to start with %q`, calls, b, err, head)
		}
		if c.RequestID(5) != 5 || c.Wake() == nil {
			t.Errorf(`NewCodec("vim", %q): RequestID(5) = %d, Wake %v; want 5 and a wake-up`, calls, c.RequestID(5), c.Wake() != nil)
		}
	}
	if _, err := host.NewCodec("vim", "carrier-pigeon", "p", "1", strings.NewReader("")); err == nil || !strings.Contains(err.Error(), "carrier-pigeon") {
		t.Errorf("an unknown way of calling Vim: err = %v", err)
	}
	c, err := host.NewCodec("nvim", "", "p", "1", strings.NewReader(""))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := host.New(f, c).(*host.Nvim); !ok {
		t.Error(`New of a Neovim codec is not a *host.Nvim`)
	}
	if c.RequestID(5) != -5 || c.Wake() != nil {
		t.Errorf(`NewCodec("nvim"): RequestID(5) = %d, Wake %v; want -5 and none`, c.RequestID(5), c.Wake() != nil)
	}
	if _, err := host.NewCodec("emacs", "", "p", "1", strings.NewReader("")); err == nil || !strings.Contains(err.Error(), "emacs") {
		t.Errorf(`NewCodec("emacs"): err = %v`, err)
	}
}

// Vim's pipe is written through the runtime poller; Neovim's socket is not.
func TestPollWrites(t *testing.T) {
	if !host.PollWrites("vim") || host.PollWrites("nvim") {
		t.Errorf("PollWrites: vim %v, nvim %v; want true, false", host.PollWrites("vim"), host.PollWrites("nvim"))
	}
}

func TestErrorStrings(t *testing.T) {
	if got := (&host.CallError{Fn: "F", Msg: "m"}).Error(); got != "F(): m" {
		t.Errorf("CallError: %q", got)
	}
	if got := (&host.BatchError{Index: 3, Fn: "F", Msg: "m"}).Error(); got != "call 3 of the batch, F(): m" {
		t.Errorf("BatchError: %q", got)
	}
}

// encodingCaller encodes each message with a codec, as the session does,
// and fails with the codec's error (the session sends nothing then).
type encodingCaller struct{ codec wire.Codec }

func (c encodingCaller) Call(ctx context.Context, method string, params []any) (wire.Raw, error) {
	_, err := c.codec.AppendRequest(nil, 1, method, params)
	if err != nil {
		return nil, err
	}
	return wire.Raw("0"), nil
}

func (c encodingCaller) Notify(ctx context.Context, method string, params []any) error {
	_, err := c.codec.AppendNotification(nil, method, params)
	return err
}

// An argument that the editor cannot take is an *ArgError that names the
// function, the argument and, for a value nested too deep, how deep that
// argument may nest: the same for every way of calling and both editors,
// but for the depth itself.
func TestArgError(t *testing.T) {
	nest := func(n int) any {
		var v any = 1
		for i := 0; i < n; i++ {
			v = []any{v}
		}
		return v
	}
	const big = "18446744073709551615 does not fit in a Number (at most 9223372036854775807)"
	for _, tc := range []struct {
		host, calls string
		deep        int
		deepMsg     string
	}{
		{"vim", "", vimjson.MaxSendDepth + 1, "Lists and Dicts nested more than 50000 deep, more than Vim reads"},
		{"vim", "command", vimjson.MaxSendDepth + 1, "Lists and Dicts nested more than 50000 deep, more than Vim reads"},
		{"nvim", "", 30, "Lists and Dicts nested more than 28 deep, more than Neovim reads (one more if the innermost hold no Strings)"},
	} {
		codec, err := host.NewCodec(tc.host, tc.calls, "p", "1", strings.NewReader(""))
		if err != nil {
			t.Fatal(err)
		}
		a := host.New(encodingCaller{codec}, codec)
		check := func(what string, err error, fn string, call, arg int, msg string) {
			t.Helper()
			var ae *host.ArgError
			if !errors.As(err, &ae) {
				t.Fatalf("%s %s %s: %v, want a *host.ArgError", tc.host, tc.calls, what, err)
			}
			if ae.Fn != fn || ae.Call != call || ae.Arg != arg || ae.Msg() != msg {
				t.Errorf("%s %s %s: %+v, %q; want %s, call %d, argument %d, %q", tc.host, tc.calls, what, ae, ae.Msg(), fn, call, arg, msg)
			}
		}
		for _, fn := range []string{"abs", "Foo", "a#b"} { // a builtin goes through a helper on Vim
			_, err := a.Call(bg, fn, []any{1, uint64(math.MaxUint64)})
			check("Call "+fn, err, fn, -1, 1, big)
			_, err = a.Call(bg, fn, []any{nest(tc.deep)})
			check("Call deep "+fn, err, fn, -1, 0, tc.deepMsg)
			check("Notify "+fn, a.Notify(bg, fn, []any{"x", "y", uint64(math.MaxUint64)}), fn, -1, 2, big)
		}
		_, err = host.RunBatch(bg, a, []host.Call{{Fn: "abs", Args: []any{1}}, {Fn: "F", Args: []any{"x", uint64(math.MaxUint64)}}})
		check("Batch", err, "F", 1, 1, big)
		if got := err.Error(); got != "batch call 1, F(): argument 2: "+big {
			t.Errorf("%s: Batch: %q", tc.host, got)
		}
		if tc.host == "nvim" {
			_, err = host.RunBatch(bg, a, []host.Call{{Fn: "F", Args: []any{nest(27)}}})
			check("Batch deep", err, "F", 0, 0, "Lists and Dicts nested more than 25 deep, more than Neovim reads (one more if the innermost hold no Strings)")
		}
		// Inside an argument: the item of a List that holds the trouble.
		_, err = a.Call(bg, "F", []any{"a", []any{1, 2, uint64(math.MaxUint64)}})
		var ae *host.ArgError
		if !errors.As(err, &ae) {
			t.Fatalf("%s: %v", tc.host, err)
		}
		if i, msg, ok := ae.Item(); !ok || i != 2 || msg != big {
			t.Errorf("%s: Item() = %d, %q, %v", tc.host, i, msg, ok)
		}
	}
}

// tuple is a reply tuple as the SDK answers a request: Fallible, with a
// fallback for a result that cannot be sent.
type tuple [2]any

func (t *tuple) Value() any             { return t[:] }
func (t *tuple) Fallback(err error) any { return []any{nil, "cannot send: " + err.Error()} }

// On Vim, the answer to the runtime's vigor#request() is a call of
// protocol.FuncReply(id, [result, error]) and the wake-up [id, 0]; a large
// one goes in chunks whose keys are the plugin's, then the same call.
func TestVimAnswer(t *testing.T) {
	c, err := host.NewCodec("vim", "", "demo", "7", strings.NewReader(""))
	if err != nil {
		t.Fatal(err)
	}
	out, err := c.AppendResponse(nil, 4, &tuple{"hi", nil})
	want := `["call","` + protocol.FuncReply + `",[4,["hi",null]]]` + "\n[4,0]\n"
	if err != nil || string(out) != want {
		t.Errorf("answer %q (%v), want %q", out, err, want)
	}
	out, err = c.AppendResponse(nil, 5, &tuple{make(chan int), nil})
	if err != nil || !strings.HasPrefix(string(out), `["call","`+protocol.FuncReply+`",[5,[null,"cannot send: `) {
		t.Errorf("the answer of a result that cannot be sent is %q (%v), want the fallback", out, err)
	}
	big := strings.Repeat("0123456789é", vimjson.ChunkThreshold/8)
	out, err = c.AppendResponse(nil, 6, &tuple{big, nil})
	if err != nil {
		t.Fatal(err)
	}
	wake := "[6,0]\n"
	if !strings.HasSuffix(string(out), wake) {
		t.Fatalf("the large answer ends with %q, want the wake-up %q", out[max(0, len(out)-40):], wake)
	}
	key := protocol.ChunkPrefix("demo", "7") + "c1"
	if !strings.HasPrefix(string(out), `["call","`+vimjson.FuncChunk+`",["`+key+`",`) {
		t.Errorf("the large answer starts with %.80q, want a chunk with the key %q", out, key)
	}
	frames := strings.Split(strings.TrimSuffix(string(out), wake), "\n")
	last := frames[len(frames)-2]
	if !strings.HasPrefix(last, `["call","`+vimjson.FuncChunked+`",["`+key+`",`) {
		t.Errorf("the call after the chunks is %q", last)
	}
}

// On Neovim, the runtime's vigor#request() is the request
// protocol.MethodCall [token, method, params], or, nested, the
// notification protocol.MethodRequest with the same params: read as the
// request -token. What is wrong with one after its token is readable leaves that
// request, which the session answers; before, Neovim's. An answer to a
// call whose response has been written goes by notifying
// nvim_call_function(protocol.FuncReply, [token, result, error]).
func TestNvimRequest(t *testing.T) {
	frame := func(v any) string {
		b, err := msgpack.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	read := func(v any) (wire.Message, error) {
		c, err := host.NewCodec("nvim", "", "p", "1", strings.NewReader(frame(v)))
		if err != nil {
			t.Fatal(err)
		}
		var m wire.Message
		err = c.ReadMessage(&m)
		return m, err
	}
	m, err := read([]any{0, 3, protocol.MethodCall, []any{7, "greet", []any{"CI", 1}}})
	if err != nil || m.Kind != wire.Request || m.ID != -7 || m.Method != "greet" || len(m.Params) != 2 {
		t.Errorf("the request reads as %+v (%v), want the request -7 of greet with 2 params", m, err)
	}
	m, err = read([]any{2, protocol.MethodRequest, []any{8, "greet", []any{"CI"}}})
	if err != nil || m.Kind != wire.Request || m.ID != -8 || m.Method != "greet" || len(m.Params) != 1 {
		t.Errorf("the nested request reads as %+v (%v), want the request -8 of greet with 1 param", m, err)
	}
	m, err = read([]any{2, protocol.MethodCall, []any{7, "greet", []any{}}})
	if err != nil || m.Kind != wire.Notification || m.Method != protocol.MethodCall {
		t.Errorf("a notification of the name reads as %+v (%v)", m, err)
	}
	for _, tc := range []struct {
		params  any
		request bool
		msg     string
	}{
		{[]any{7, "greet"}, false, "the params are not [token, method, params]"},
		{[]any{"7", "greet", []any{}}, false, "the token is not a positive Number"},
		{[]any{0, "greet", []any{}}, false, "the token is not a positive Number"},
		{[]any{7, 1, []any{}}, true, "the method name is not a String"},
		{[]any{7, "greet", "CI"}, true, `the params of "greet" are not a List`},
	} {
		m, err := read([]any{0, 3, protocol.MethodCall, tc.params})
		if !errors.Is(err, wire.ErrMalformed) || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%v: err = %v, want %q", tc.params, err, tc.msg)
		}
		want := int64(3)
		if tc.request {
			want = -7
		}
		if m.Kind != wire.Request || m.ID != want {
			t.Errorf("%v: read as %v %d, want the request %d", tc.params, m.Kind, m.ID, want)
		}
	}

	c, _ := host.NewCodec("nvim", "", "p", "1", strings.NewReader(""))
	answer := func(id int64, result any) []any {
		t.Helper()
		b, err := c.AppendResponse(nil, id, result)
		if err != nil {
			t.Fatal(err)
		}
		var v []any
		if err := msgpack.Unmarshal(b, &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	checkEqual(t, "answer", answer(-7, &tuple{"hi", nil}),
		[]any{int8(2), "nvim_call_function", []any{protocol.FuncReply, []any{int8(7), "hi", nil}}})
	got := answer(-8, &tuple{make(chan int), nil})
	if args := got[2].([]any)[1].([]any); len(args) != 3 || args[1] != nil || !strings.HasPrefix(fmt.Sprint(args[2]), "cannot send: ") {
		t.Errorf("the answer of a result that cannot be sent is %v, want the fallback", got)
	}
	checkEqual(t, "a plain response", answer(3, "x"), []any{int8(1), int8(3), nil, "x"})
	// The items of the tuple lie as deep as a value can: the path of what
	// cannot be sent starts at the item.
	nest := func(n int) any {
		var v any = "s"
		for i := 0; i < n; i++ {
			v = []any{v}
		}
		return v
	}
	if _, err := c.AppendResponse(nil, -9, []any{nest(28), nil}); err != nil {
		t.Errorf("a result 28 deep around a String: %v", err)
	}
	_, err = c.AppendResponse(nil, -9, []any{nest(29), nil})
	var ve *wire.ValueError
	if !errors.As(err, &ve) || len(ve.Path) == 0 || ve.Path[0] != 0 || !strings.Contains(ve.At(1), "28 deep") {
		t.Errorf("a result 29 deep: %#v, want a ValueError at item 0 that says 28 deep", err)
	}
}
