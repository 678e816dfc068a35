package host_test

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vigorvim/vigor/internal/codec/msgpackrpc"
	"github.com/vigorvim/vigor/internal/codec/vimjson"
	"github.com/vigorvim/vigor/internal/fakeeditor"
	"github.com/vigorvim/vigor/internal/host"
	"github.com/vigorvim/vigor/internal/protocol"
	"github.com/vigorvim/vigor/internal/wire"
)

// inboundTimeout bounds every wait of these tests.
const inboundTimeout = 10 * time.Second

// message is what a recordingHandler got: a request, a notification or a
// request_async call, with its params decoded.
type message struct {
	kind   string // "request", "notification", "async", "late"
	method string
	params []any
	call   host.Async
}

// recordingHandler is a host.Handler that sends what it gets to got, and
// answers a request with the reply tuple ["ok", v:null].
type recordingHandler struct {
	t   *testing.T
	got chan message
}

func (h *recordingHandler) decode(params host.Values) []any {
	out := make([]any, params.Len())
	for i := range out {
		if err := params.At(i).Decode(&out[i]); err != nil {
			h.t.Errorf("param %d does not decode: %v", i, err)
		}
	}
	return out
}

func (h *recordingHandler) Request(ctx context.Context, method string, params host.Values) any {
	h.got <- message{kind: "request", method: method, params: h.decode(params)}
	return []any{"ok", nil}
}

func (h *recordingHandler) Notification(ctx context.Context, method string, params host.Values) {
	h.got <- message{kind: "notification", method: method, params: h.decode(params)}
}

func (h *recordingHandler) Async(ctx context.Context, call host.Async) {
	h.got <- message{kind: "async", method: call.Method, params: h.decode(call.Params), call: call}
}

func (h *recordingHandler) Late(call host.Async) {
	h.got <- message{kind: "late", method: call.Method, params: h.decode(call.Params), call: call}
}

// openConn opens a Conn of editor over a fake editor that records the
// calls, and runs it until the test ends; each of more changes the
// Config first.
func openConn(t *testing.T, editor string, h host.Handler, more ...func(*host.Config)) (*host.Conn, *fakeeditor.Editor) {
	t.Helper()
	fe, err := fakeeditor.New(fakeeditor.Options{Editor: editor, Record: true})
	if err != nil {
		t.Fatal(err)
	}
	cfg := host.Config{
		Editor: editor, Plugin: "demo", Instance: "1",
		In: fe.PluginIn(), Out: fe.PluginOut(), Handler: h,
	}
	for _, f := range more {
		f(&cfg)
	}
	conn, err := host.Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		_ = conn.Run(ctx)
		fe.PluginOut().Close()
	}()
	t.Cleanup(func() {
		cancel()
		fe.CloseInput()
		wg.Wait()
		if err := fe.Close(); err != nil {
			t.Errorf("the fake editor: %v", err)
		}
	})
	return conn, fe
}

// next returns the next call that the plugin made of the fake.
func next(t *testing.T, fe *fakeeditor.Editor) fakeeditor.Call {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), inboundTimeout)
	defer cancel()
	c, err := fe.Next(ctx)
	if err != nil {
		t.Fatalf("no call of the editor: %v", err)
	}
	return c
}

func got(t *testing.T, h *recordingHandler) message {
	t.Helper()
	select {
	case m := <-h.got:
		return m
	case <-time.After(inboundTimeout):
		t.Fatal("the handler got nothing")
	}
	return message{}
}

// probe asks, as the runtime does, whether the request_async call sid
// runs, and checks the answer.
func probe(t *testing.T, fe *fakeeditor.Editor, sid string, want bool) {
	t.Helper()
	if err := fe.Notify(protocol.MethodPending, sid); err != nil {
		t.Fatal(err)
	}
	c := next(t, fe)
	if c.Fn != protocol.FuncPending || !reflect.DeepEqual(c.Args, []any{sid, want}) {
		t.Fatalf("the answer to $pending %q is %v, want %s%v", sid, c, protocol.FuncPending, []any{sid, want})
	}
}

// What the editor sends reaches the Handler as Values, on both editors:
// a request and a notification with their params, decoded by the Values.
func TestConnHandlerGetsValues(t *testing.T) {
	for _, editor := range []string{fakeeditor.Vim, fakeeditor.Nvim} {
		t.Run(editor, func(t *testing.T) {
			h := &recordingHandler{t: t, got: make(chan message, 8)}
			_, fe := openConn(t, editor, h)
			reply := fe.RequestAsync("greet", "CI", 42, []any{1, "a"})
			m := got(t, h)
			want := message{kind: "request", method: "greet", params: []any{"CI", int64(42), []any{int64(1), "a"}}}
			if !reflect.DeepEqual(m, want) {
				t.Errorf("got %+v, want %+v", m, want)
			}
			select {
			case r := <-reply:
				if !reflect.DeepEqual(r.Tuple(), []any{"ok", nil}) {
					t.Errorf("the reply is %v, want [ok <nil>]", r.Tuple())
				}
			case <-time.After(inboundTimeout):
				t.Fatal("no reply")
			}
			if err := fe.Notify("note", "x"); err != nil {
				t.Fatal(err)
			}
			if m := got(t, h); m.kind != "notification" || m.method != "note" || !reflect.DeepEqual(m.params, []any{"x"}) {
				t.Errorf("got %+v, want the notification note [x]", m)
			}
		})
	}
}

// Conn answers $pending and keeps the ids of the request_async calls
// being answered: an id counts from the moment $async is read until
// Answered, which follows Resolve; a $async that cannot be answered is
// dropped at once; one whose params are not a List comes with Err. None
// of $pending reaches the Handler.
func TestConnServesAsyncAndPending(t *testing.T) {
	for _, editor := range []string{fakeeditor.Vim, fakeeditor.Nvim} {
		t.Run(editor, func(t *testing.T) {
			h := &recordingHandler{t: t, got: make(chan message, 8)}
			conn, fe := openConn(t, editor, h)
			probe(t, fe, "s1", false)
			if err := fe.Notify(protocol.MethodAsync, "s1", "f1", "work", []any{7}); err != nil {
				t.Fatal(err)
			}
			m := got(t, h)
			if m.kind != "async" || m.method != "work" || !reflect.DeepEqual(m.params, []any{int64(7)}) || m.call.Err != nil {
				t.Fatalf("got %+v, want the request_async call work [7]", m)
			}
			probe(t, fe, "s1", true)
			ctx, cancel := context.WithTimeout(context.Background(), inboundTimeout)
			defer cancel()
			if err := conn.Resolve(ctx, m.call, true, 5); err != nil {
				t.Fatal(err)
			}
			if c := next(t, fe); c.Fn != protocol.FuncResolve || !reflect.DeepEqual(c.Args, []any{"s1", "f1", true, int64(5)}) {
				t.Errorf("the answer is %v, want %s[s1 f1 true 5]", c, protocol.FuncResolve)
			}
			if err := conn.Resolve(ctx, host.Async{}, true, 5); err == nil {
				t.Error("Resolve of the zero Async wrote an answer")
			}
			probe(t, fe, "s1", true) // until Answered
			conn.Answered(m.call)
			probe(t, fe, "s1", false)

			// The failure id is not a String: nobody can be answered.
			if err := fe.Notify(protocol.MethodAsync, "s2", 3, "work", []any{}); err != nil {
				t.Fatal(err)
			}
			probe(t, fe, "s2", false)
			// The params are not a List: the call is answered with Err.
			if err := fe.Notify(protocol.MethodAsync, "s3", "f3", "work", "x"); err != nil {
				t.Fatal(err)
			}
			m = got(t, h)
			if m.kind != "async" || m.call.Err == nil || m.call.Err.Error() != "its arguments must be a List, not a String" {
				t.Errorf("got %+v (Err %v), want the call with the error that its arguments must be a List", m, m.call.Err)
			}
			probe(t, fe, "s3", true)
			select {
			case m := <-h.got:
				t.Errorf("the handler got %+v", m)
			default:
			}
		})
	}
}

// Once Config.Ending says so, a request_async call goes to Handler.Late
// on the reading goroutine instead of waiting for its turn in the queue.
func TestConnHandsLateAsyncs(t *testing.T) {
	for _, editor := range []string{fakeeditor.Vim, fakeeditor.Nvim} {
		t.Run(editor, func(t *testing.T) {
			h := &recordingHandler{t: t, got: make(chan message, 8)}
			var ending atomic.Bool
			_, fe := openConn(t, editor, h, func(c *host.Config) { c.Ending = ending.Load })
			if err := fe.Notify(protocol.MethodAsync, "s1", "f1", "work", []any{1}); err != nil {
				t.Fatal(err)
			}
			if m := got(t, h); m.kind != "async" || m.method != "work" {
				t.Errorf("before the end: got %+v, want the call in its turn", m)
			}
			ending.Store(true)
			if err := fe.Notify(protocol.MethodAsync, "s2", "f2", "work", []any{2}); err != nil {
				t.Fatal(err)
			}
			if m := got(t, h); m.kind != "late" || m.method != "work" || len(m.params) != 1 || m.params[0] != int64(2) {
				t.Errorf("once ending: got %+v, want it late", m)
			}
		})
	}
}

// Neovim's nvim_error_event is the editor's own: Conn keeps it for its
// log, and the Handler never sees it.
func TestConnKeepsEditorNotifications(t *testing.T) {
	h := &recordingHandler{t: t, got: make(chan message, 8)}
	_, fe := openConn(t, fakeeditor.Nvim, h)
	if err := fe.Notify("nvim_error_event", 0, "Vim:E117: Unknown function: Nope"); err != nil {
		t.Fatal(err)
	}
	if err := fe.Notify("after"); err != nil {
		t.Fatal(err)
	}
	if m := got(t, h); m.method != "after" {
		t.Errorf("the handler got %+v, want only the notification after", m)
	}
}

// A Value reads what it holds with its codec, the same on both editors;
// the zero Value is no value.
func TestValue(t *testing.T) {
	vim := vimjson.New(nil)
	mp := msgpackrpc.New(nil)
	nvimList, err := mp.AppendNotification(nil, "m", []any{[]any{1, "a"}, nil})
	if err != nil {
		t.Fatal(err)
	}
	var m wire.Message
	if err := msgpackrpc.New(strings.NewReader(string(nvimList))).ReadMessage(&m); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name       string
		list, null host.Value
	}{
		{"vim", host.NewValue(vim, wire.Raw(`[1,"a"]`)), host.NewValue(vim, wire.Raw(`null`))},
		{"nvim", host.NewValue(mp, m.Params[0]), host.NewValue(mp, m.Params[1])},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.list.Type() != "List" || tc.list.IsNull() || !tc.null.IsNull() {
				t.Errorf("Type %q, IsNull %v and %v: want List, false and true", tc.list.Type(), tc.list.IsNull(), tc.null.IsNull())
			}
			items, err := tc.list.List()
			if err != nil || items.Len() != 2 || items.At(0).Type() != "Number" || items.At(1).Type() != "String" {
				t.Fatalf("List() = %d items, %v; want a Number and a String", items.Len(), err)
			}
			var s string
			if err := items.Slice(1, 2).At(0).Decode(&s); err != nil || s != "a" {
				t.Errorf("item 1 decodes to %q, %v; want a", s, err)
			}
			if _, err := items.At(0).List(); err == nil {
				t.Error("a Number splits as a List")
			}
		})
	}
	var zero host.Value
	var v any
	if zero.Type() != "" || zero.IsNull() || zero.Decode(&v) == nil {
		t.Errorf("the zero Value: Type %q, IsNull %v, Decode %v; want no value", zero.Type(), zero.IsNull(), zero.Decode(&v))
	}
	if _, err := zero.List(); err == nil || errors.Is(err, wire.ErrTooDeep) {
		t.Errorf("the zero Value's List: %v, want an error", err)
	}
}
