package rpc_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vmihailenco/msgpack/v5"

	"github.com/vigorvim/vigor/internal/codec/msgpackrpc"
	"github.com/vigorvim/vigor/internal/codec/vimjson"
	"github.com/vigorvim/vigor/internal/rpc"
	"github.com/vigorvim/vigor/internal/wire"
)

// timeout only keeps a broken test from hanging; nothing here is timed.
const timeout = 10 * time.Second

// ---------------------------------------------------------------------------
// The fake editor: the other end of the pipe, speaking each editor's side of
// the protocol.

// frame is one message as the editor sees it.
type frame struct {
	kind   wire.Kind
	id     int64
	method string
	params []wire.Raw
	result wire.Raw
}

// editorProto is one editor's side of the wire format.
type editorProto interface {
	// read reads the next frame that the session wrote.
	read() (frame, error)
	request(id int64, method string, params []any) []byte
	notification(method string, params []any) []byte
	response(id int64, result any) []byte
	// errorResponse answers with errVal in the error slot.
	errorResponse(id int64, errVal any) []byte
	// malformedRequest is a request with an id that the session's codec
	// cannot decode.
	malformedRequest(id int64) []byte
	// malformedNotification is a notification that the codec cannot decode.
	malformedNotification() []byte
	// values decodes what the session sent.
	values() wire.Codec
}

type codecCase struct {
	name     string
	newCodec func(io.Reader) wire.Codec
	newProto func(io.Reader) editorProto
	// direct: the session reads a real pipe, given as Options.Input, so
	// that callers read their own replies (direct reads, on Linux);
	// otherwise it reads a net.Pipe, and only Run reads.
	direct bool
}

var codecs = []codecCase{
	{name: "vim", newCodec: func(r io.Reader) wire.Codec { return vimjson.New(r) }, newProto: newVimProto},
	{name: "nvim", newCodec: func(r io.Reader) wire.Codec { return msgpackrpc.New(r) }, newProto: newNvimProto},
}

// forEachCodec runs one scenario for every codec, with direct reads off
// and on.
func forEachCodec(t *testing.T, f func(t *testing.T, cc codecCase)) {
	for _, cc := range codecs {
		forEachReader(t, cc, f)
	}
}

// forEachReader runs one scenario for cc with direct reads off ("run":
// only Run reads) and on ("direct").
func forEachReader(t *testing.T, cc codecCase, f func(t *testing.T, cc codecCase)) {
	for _, direct := range []bool{false, true} {
		cc := cc
		cc.direct = direct
		name := cc.name + "/run"
		if direct {
			name = cc.name + "/direct"
		}
		t.Run(name, func(t *testing.T) { f(t, cc) })
	}
}

// vimProto is Vim's side of JSON channel mode, with Vigor's runtime: it
// reads [0, [-id, func, args]] calls (for the runtime's channel callback),
// ["call", func, args] commands and [id, result] answers, and sends
// [id, [method, params]], [0, [method, params]] and the callback's answers
// [-id, [result, v:null]] or [-id, [v:null, error]].
type vimProto struct {
	dec *json.Decoder
}

func newVimProto(r io.Reader) editorProto { return &vimProto{dec: json.NewDecoder(r)} }

func (p *vimProto) read() (frame, error) {
	var items []json.RawMessage
	if err := p.dec.Decode(&items); err != nil {
		return frame{}, err
	}
	switch {
	case len(items) == 3 && string(items[0]) == `"call"`:
		// ["call", func, args]: Vim's channel command, not answered.
		f := frame{kind: wire.Notification}
		err := p.readCall(&f, items[1], items[2])
		return f, err
	case len(items) == 2 && string(items[0]) == "0":
		// [0, [-id, func, args]]: Vim hands it to the channel callback.
		var call []json.RawMessage
		if err := json.Unmarshal(items[1], &call); err != nil || len(call) != 3 {
			return frame{}, fmt.Errorf("the channel callback cannot run %s", items[1])
		}
		f := frame{kind: wire.Request}
		if err := json.Unmarshal(call[0], &f.id); err != nil || f.id >= 0 {
			return f, fmt.Errorf("call id %s is not a negative Number", call[0])
		}
		f.id = -f.id
		err := p.readCall(&f, call[1], call[2])
		return f, err
	case len(items) == 2:
		// [id, result]: the answer to Vim's request id.
		f := frame{kind: wire.Response, result: wire.Raw(items[1])}
		if err := json.Unmarshal(items[0], &f.id); err != nil || f.id <= 0 {
			return f, fmt.Errorf("answer id %s is not a positive Number", items[0])
		}
		return f, nil
	}
	return frame{}, fmt.Errorf("Vim cannot read %s", items)
}

func (p *vimProto) readCall(f *frame, fn, args json.RawMessage) error {
	if err := json.Unmarshal(fn, &f.method); err != nil {
		return err
	}
	var params []json.RawMessage
	if err := json.Unmarshal(args, &params); err != nil {
		return err
	}
	for _, p := range params {
		f.params = append(f.params, wire.Raw(p))
	}
	return nil
}

func (p *vimProto) encode(v any) []byte {
	b, err := vimjson.AppendValue(nil, v)
	if err != nil {
		panic(err)
	}
	return append(b, '\n')
}

func (p *vimProto) request(id int64, method string, params []any) []byte {
	return p.encode([]any{id, []any{method, params}})
}

func (p *vimProto) notification(method string, params []any) []byte {
	return p.encode([]any{0, []any{method, params}})
}

func (p *vimProto) response(id int64, result any) []byte {
	return p.encode([]any{-id, []any{result, nil}})
}

func (p *vimProto) errorResponse(id int64, errVal any) []byte {
	return p.encode([]any{-id, []any{nil, errVal}})
}

func (p *vimProto) malformedRequest(id int64) []byte {
	return []byte(fmt.Sprintf("[%d,\"not a call\"]\n", id))
}

func (p *vimProto) malformedNotification() []byte { return []byte(`[0,["m","not a list"]]` + "\n") }

func (p *vimProto) values() wire.Codec { return vimjson.New(strings.NewReader("")) }

// nvimProto is Neovim's side of msgpack-RPC, which is symmetric.
type nvimProto struct {
	in  *msgpackrpc.Codec // reads
	out *msgpackrpc.Codec // writes, from the test goroutine
}

func newNvimProto(r io.Reader) editorProto {
	return &nvimProto{in: msgpackrpc.New(r), out: msgpackrpc.New(strings.NewReader(""))}
}

func (p *nvimProto) read() (frame, error) {
	var m wire.Message
	if err := p.in.ReadMessage(&m); err != nil {
		return frame{}, err
	}
	if m.Error != nil {
		return frame{}, fmt.Errorf("the session sent an error slot: % x", m.Error)
	}
	return frame{kind: m.Kind, id: m.ID, method: m.Method, params: m.Params, result: m.Result}, nil
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

func (p *nvimProto) request(id int64, method string, params []any) []byte {
	return must(p.out.AppendRequest(nil, id, method, params))
}

func (p *nvimProto) notification(method string, params []any) []byte {
	return must(p.out.AppendNotification(nil, method, params))
}

func (p *nvimProto) response(id int64, result any) []byte {
	return must(p.out.AppendResponse(nil, id, result))
}

func (p *nvimProto) errorResponse(id int64, errVal any) []byte {
	return must(msgpack.Marshal([]any{1, id, errVal, nil}))
}

func (p *nvimProto) malformedRequest(id int64) []byte {
	return must(msgpack.Marshal([]any{0, id, 42, []any{}})) // the method is a Number
}

func (p *nvimProto) malformedNotification() []byte {
	return must(msgpack.Marshal([]any{2, "m", "not a list"}))
}

func (p *nvimProto) values() wire.Codec { return p.out }

// editor drives the editor's end of the pipe.
type editor struct {
	t      *testing.T
	conn   editorEnd
	proto  editorProto
	frames chan frame
	wmu    sync.Mutex
}

// next returns the next frame that the session sent.
func (e *editor) next() frame {
	e.t.Helper()
	select {
	case f, ok := <-e.frames:
		if !ok {
			e.t.Fatal("the session's stream ended")
		}
		return f
	case <-time.After(timeout):
		e.t.Fatal("timed out waiting for the session to send something")
	}
	panic("unreachable")
}

func (e *editor) send(b []byte) {
	e.t.Helper()
	e.wmu.Lock()
	defer e.wmu.Unlock()
	// A session that stopped reading must fail the test, not hang it.
	_ = e.conn.SetWriteDeadline(time.Now().Add(timeout))
	if _, err := e.conn.Write(b); err != nil {
		e.t.Fatalf("editor write: %v", err)
	}
}

func (e *editor) request(id int64, method string, params ...any) {
	e.t.Helper()
	e.send(e.proto.request(id, method, params))
}

func (e *editor) notify(method string, params ...any) {
	e.t.Helper()
	e.send(e.proto.notification(method, params))
}

func (e *editor) respond(id int64, result any) {
	e.t.Helper()
	e.send(e.proto.response(id, result))
}

// decode decodes a value that the session sent.
func decode[T any](t *testing.T, e *editor, r wire.Raw) T {
	t.Helper()
	var v T
	if err := e.proto.values().Unmarshal(r, &v); err != nil {
		t.Fatalf("decoding %q: %v", r, err)
	}
	return v
}

// expect reads the next frame and checks its kind (and id, for responses).
func (e *editor) expect(kind wire.Kind, method string) frame {
	e.t.Helper()
	f := e.next()
	if f.kind != kind || f.method != method {
		e.t.Fatalf("got %s %q (id %d), want %s %q", f.kind, f.method, f.id, kind, method)
	}
	return f
}

func (e *editor) expectResponse(id int64) frame {
	e.t.Helper()
	f := e.next()
	if f.kind != wire.Response || f.id != id {
		e.t.Fatalf("got %s %q id %d, want the response to %d", f.kind, f.method, f.id, id)
	}
	return f
}

// handler serves the session's side with functions.
type handler struct {
	sess    *rpc.Session // set before Run starts
	request func(ctx context.Context, s *rpc.Session, m *wire.Message) any
	notify  func(ctx context.Context, s *rpc.Session, m *wire.Message)
}

func (h *handler) Request(ctx context.Context, m *wire.Message) any {
	if h.request == nil {
		return nil
	}
	return h.request(ctx, h.sess, m)
}

func (h *handler) Notification(ctx context.Context, m *wire.Message) {
	if h.notify != nil {
		h.notify(ctx, h.sess, m)
	}
}

type env struct {
	sess   *rpc.Session
	ed     *editor
	runErr chan error
}

// editorEnd is the editor's end of the stream: what it writes goes to the
// session, and Close ends the stream both ways.
type editorEnd interface {
	io.Writer
	SetWriteDeadline(time.Time) error
	Close() error
}

// pipeEnd is the editor's end of two real pipes.
type pipeEnd struct {
	w *os.File // editor -> session
	r *os.File // session -> editor
}

func (p pipeEnd) Write(b []byte) (int, error)        { return p.w.Write(b) }
func (p pipeEnd) SetWriteDeadline(t time.Time) error { return p.w.SetWriteDeadline(t) }
func (p pipeEnd) Close() error                       { p.r.Close(); return p.w.Close() }

// start connects a session, served by h, to a fake editor.
func start(t *testing.T, cc codecCase, h *handler, opts rpc.Options) *env {
	t.Helper()
	var (
		sessIn  io.ReadCloser // the session's end
		codecIn io.Reader     // what its codec reads
		sessOut io.Writer
		edEnd   editorEnd
		edIn    io.Reader
	)
	if cc.direct {
		inR, inW, outR, outW := rpc.Pipes(t) // editor -> session, session -> editor
		opts.Input = rpc.NewInput(inR)
		sessIn, codecIn, sessOut = inR, opts.Input, outW
		edEnd, edIn = pipeEnd{w: inW, r: outR}, outR
	} else {
		a, b := net.Pipe()
		sessIn, codecIn, sessOut = a, a, a
		edEnd, edIn = b, b
	}
	if h == nil {
		h = &handler{}
	}
	opts.Handler = h
	sess := rpc.New(cc.newCodec(codecIn), sessOut, opts)
	if cc.direct && runtime.GOOS == "linux" && !rpc.DirectReadsOn(sess) {
		t.Fatal("direct reads are off over real pipes")
	}
	h.sess = sess
	e := &env{sess: sess, runErr: make(chan error, 1)}
	go func() { e.runErr <- sess.Run(context.Background()) }()

	ed := &editor{t: t, conn: edEnd, proto: cc.newProto(edIn), frames: make(chan frame, 256)}
	go func() {
		defer close(ed.frames)
		for {
			f, err := ed.proto.read()
			if err != nil {
				return
			}
			ed.frames <- f
		}
	}()
	e.ed = ed
	t.Cleanup(func() {
		edEnd.Close()
		select {
		case <-e.runErr:
		case <-sess.Done():
		case <-time.After(timeout):
			t.Error("Run did not return after the editor closed the stream")
		}
		sessIn.Close()
	})
	return e
}

type result struct {
	raw wire.Raw
	err error
}

// call runs sess.Call on a goroutine of its own.
func call(ctx context.Context, s *rpc.Session, method string, params ...any) <-chan result {
	ch := make(chan result, 1)
	go func() {
		raw, err := s.Call(ctx, method, params)
		ch <- result{raw, err}
	}()
	return ch
}

func recv[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(timeout):
		t.Fatalf("timed out waiting for %s", what)
	}
	panic("unreachable")
}

func decodeSession[T any](t *testing.T, s *rpc.Session, r wire.Raw) T {
	t.Helper()
	var v T
	if err := s.Codec().Unmarshal(r, &v); err != nil {
		t.Fatalf("decoding %q: %v", r, err)
	}
	return v
}

// ---------------------------------------------------------------------------
// Scenarios.

func TestCallAndResponse(t *testing.T) {
	forEachCodec(t, func(t *testing.T, cc codecCase) {
		e := start(t, cc, nil, rpc.Options{})
		res := call(context.Background(), e.sess, "greet", "CI")
		f := e.ed.expect(wire.Request, "greet")
		if f.id <= 0 {
			t.Errorf("request id %d, want > 0", f.id)
		}
		if len(f.params) != 1 || decode[string](t, e.ed, f.params[0]) != "CI" {
			t.Fatalf("params = %q, want [CI]", f.params)
		}
		e.ed.respond(f.id, "hello CI")
		r := recv(t, res, "the call's result")
		if r.err != nil {
			t.Fatal(r.err)
		}
		if got := decodeSession[string](t, e.sess, r.raw); got != "hello CI" {
			t.Errorf("result = %q, want %q", got, "hello CI")
		}
	})
}

func TestNotifyAndServeRequest(t *testing.T) {
	forEachCodec(t, func(t *testing.T, cc codecCase) {
		h := &handler{request: func(ctx context.Context, s *rpc.Session, m *wire.Message) any {
			var arg string
			if len(m.Params) != 1 || s.Codec().Unmarshal(m.Params[0], &arg) != nil {
				return []any{nil, "bad params"}
			}
			return map[string]any{"method": m.Method, "arg": arg, "n": 1}
		}}
		e := start(t, cc, h, rpc.Options{})
		if err := e.sess.Notify(context.Background(), "Echo", []any{"hi", 2}); err != nil {
			t.Fatal(err)
		}
		f := e.ed.expect(wire.Notification, "Echo")
		if len(f.params) != 2 || decode[string](t, e.ed, f.params[0]) != "hi" || decode[int](t, e.ed, f.params[1]) != 2 {
			t.Errorf("params = %q", f.params)
		}

		e.ed.request(41, "ping", "x")
		f = e.ed.expectResponse(41)
		got := decode[map[string]any](t, e.ed, f.result)
		if got["method"] != "ping" || got["arg"] != "x" {
			t.Errorf("result = %v", got)
		}

		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if err := e.sess.Notify(ctx, "Echo", nil); !errors.Is(err, context.Canceled) {
			t.Errorf("Notify with a done ctx: %v, want context.Canceled", err)
		}
	})
}

func TestConcurrentCallsOutOfOrder(t *testing.T) {
	forEachCodec(t, func(t *testing.T, cc codecCase) {
		e := start(t, cc, nil, rpc.Options{})
		const n = 20
		type answer struct {
			i   int
			got int
			err error
		}
		answers := make(chan answer, n)
		for i := 0; i < n; i++ {
			go func(i int) {
				raw, err := e.sess.Call(context.Background(), "times10", []any{i})
				var got int
				if err == nil {
					err = e.sess.Codec().Unmarshal(raw, &got)
				}
				answers <- answer{i, got, err}
			}(i)
		}
		var reqs []frame
		ids := map[int64]bool{}
		for len(reqs) < n {
			f := e.ed.expect(wire.Request, "times10")
			if ids[f.id] {
				t.Fatalf("id %d used twice", f.id)
			}
			ids[f.id] = true
			reqs = append(reqs, f)
		}
		// Answer in reverse order, and the odd ones before the even ones.
		for pass := 0; pass < 2; pass++ {
			for k := len(reqs) - 1; k >= 0; k-- {
				if k%2 == pass {
					continue
				}
				arg := decode[int](t, e.ed, reqs[k].params[0])
				e.ed.respond(reqs[k].id, arg*10)
			}
		}
		for k := 0; k < n; k++ {
			a := recv(t, answers, "the answers")
			if a.err != nil || a.got != a.i*10 {
				t.Errorf("call %d: got %d, %v; want %d", a.i, a.got, a.err, a.i*10)
			}
		}
	})
}

func TestNotificationsInOrderOneAtATime(t *testing.T) {
	forEachCodec(t, func(t *testing.T, cc codecCase) {
		const n = 100
		var (
			mu      sync.Mutex
			seen    []string
			active  atomic.Int32
			overlap atomic.Bool
			allDone = make(chan struct{})
		)
		h := &handler{
			notify: func(ctx context.Context, s *rpc.Session, m *wire.Message) {
				if active.Add(1) != 1 {
					overlap.Store(true)
				}
				runtime.Gosched()
				mu.Lock()
				seen = append(seen, m.Method)
				last := len(seen) == n
				mu.Unlock()
				active.Add(-1)
				if last {
					close(allDone)
				}
			},
			// A request that waits for the notifications: they must not
			// queue behind it.
			request: func(ctx context.Context, s *rpc.Session, m *wire.Message) any {
				select {
				case <-allDone:
					return "notes done"
				case <-ctx.Done():
					return nil
				}
			},
		}
		e := start(t, cc, h, rpc.Options{})
		e.ed.request(1, "wait")
		for i := 0; i < n; i++ {
			e.ed.notify(fmt.Sprintf("n%d", i), i)
		}
		f := e.ed.expectResponse(1)
		if got := decode[string](t, e.ed, f.result); got != "notes done" {
			t.Errorf("result %q", got)
		}
		mu.Lock()
		defer mu.Unlock()
		for i, m := range seen {
			if want := fmt.Sprintf("n%d", i); m != want {
				t.Fatalf("notification %d was %s, want %s (order: %v)", i, m, want, seen)
			}
		}
		if overlap.Load() {
			t.Error("two notifications were handled at the same time")
		}
	})
}

func TestRequestsRunConcurrently(t *testing.T) {
	forEachCodec(t, func(t *testing.T, cc codecCase) {
		release := make(chan struct{})
		entered := make(chan struct{})
		h := &handler{request: func(ctx context.Context, s *rpc.Session, m *wire.Message) any {
			switch m.Method {
			case "block":
				close(entered)
				select {
				case <-release:
					return "unblocked"
				case <-ctx.Done():
					return nil
				}
			default:
				return "quick"
			}
		}}
		e := start(t, cc, h, rpc.Options{})
		e.ed.request(1, "block")
		recv(t, entered, "the blocking handler to start")
		e.ed.request(2, "quick")
		// If requests ran one at a time this would never come.
		f := e.ed.expectResponse(2)
		if got := decode[string](t, e.ed, f.result); got != "quick" {
			t.Errorf("result %q", got)
		}
		close(release)
		f = e.ed.expectResponse(1)
		if got := decode[string](t, e.ed, f.result); got != "unblocked" {
			t.Errorf("result %q", got)
		}
	})
}

func TestReentrantCall(t *testing.T) {
	forEachCodec(t, func(t *testing.T, cc codecCase) {
		h := &handler{request: func(ctx context.Context, s *rpc.Session, m *wire.Message) any {
			switch m.Method {
			case "outer":
				var arg string
				_ = s.Codec().Unmarshal(m.Params[0], &arg)
				// Call back into the editor while its request to us is
				// still open.
				raw, err := s.Call(ctx, "inner", []any{arg})
				if err != nil {
					return "error: " + err.Error()
				}
				var v string
				_ = s.Codec().Unmarshal(raw, &v)
				return "outer(" + v + ")"
			case "nested":
				return "nested ok"
			}
			return nil
		}}
		e := start(t, cc, h, rpc.Options{})
		e.ed.request(1, "outer", "x")
		f := e.ed.expect(wire.Request, "inner")
		arg := decode[string](t, e.ed, f.params[0])
		// While it handles our call, the editor calls the plugin again
		// (as Vim does when a function it runs calls ch_evalexpr).
		e.ed.request(2, "nested")
		g := e.ed.expectResponse(2)
		if got := decode[string](t, e.ed, g.result); got != "nested ok" {
			t.Errorf("nested result %q", got)
		}
		e.ed.respond(f.id, "inner("+arg+")")
		g = e.ed.expectResponse(1)
		if got := decode[string](t, e.ed, g.result); got != "outer(inner(x))" {
			t.Errorf("result %q, want outer(inner(x))", got)
		}
	})
}

func TestPreempt(t *testing.T) {
	forEachCodec(t, func(t *testing.T, cc codecCase) {
		var (
			mu          sync.Mutex
			preempted   []string
			handled     []string
			interrupted = make(chan struct{}, 1)
			entered     = make(chan struct{})
			release     = make(chan struct{})
			after       = make(chan struct{})
		)
		h := &handler{notify: func(ctx context.Context, s *rpc.Session, m *wire.Message) {
			mu.Lock()
			handled = append(handled, m.Method)
			mu.Unlock()
			switch m.Method {
			case "slow":
				close(entered)
				select {
				case <-release:
				case <-ctx.Done():
				}
			case "after":
				close(after)
			}
		}}
		opts := rpc.Options{Preempt: func(m *wire.Message) bool {
			mu.Lock()
			preempted = append(preempted, m.Method)
			mu.Unlock()
			if m.Method == "$interrupt" {
				interrupted <- struct{}{}
				return true
			}
			return false
		}}
		e := start(t, cc, h, opts)
		e.ed.notify("slow")
		recv(t, entered, "the slow notification to start")
		// The notification goroutine is busy; the interrupt must not wait.
		e.ed.notify("$interrupt", "user")
		recv(t, interrupted, "Preempt to see the interrupt")
		e.ed.notify("after")
		close(release)
		recv(t, after, "the notification after the interrupt")
		mu.Lock()
		defer mu.Unlock()
		if want := []string{"slow", "$interrupt", "after"}; !reflect.DeepEqual(preempted, want) {
			t.Errorf("Preempt saw %v, want %v", preempted, want)
		}
		if want := []string{"slow", "after"}; !reflect.DeepEqual(handled, want) {
			t.Errorf("the handler saw %v, want %v", handled, want)
		}
	})
}

// Answering tells a request that waits to start (behind a notification)
// and one that runs from one that has been answered, when asked from
// Preempt, after the request was read.
func TestAnswering(t *testing.T) {
	forEachCodec(t, func(t *testing.T, cc codecCase) {
		noteIn, noteOut := make(chan struct{}), make(chan struct{})
		reqIn, reqOut := make(chan struct{}), make(chan struct{})
		h := &handler{
			notify: func(ctx context.Context, s *rpc.Session, m *wire.Message) {
				close(noteIn)
				<-noteOut
			},
			request: func(ctx context.Context, s *rpc.Session, m *wire.Message) any {
				close(reqIn)
				<-reqOut
				return "done"
			},
		}
		answers := make(chan bool, 1)
		var sess atomic.Pointer[rpc.Session]
		opts := rpc.Options{Preempt: func(m *wire.Message) bool {
			if m.Method != "probe" {
				return false
			}
			var id int64
			if err := sess.Load().Codec().Unmarshal(m.Params[0], &id); err != nil {
				t.Errorf("probe: %v", err)
			}
			answers <- sess.Load().Answering(id)
			return true
		}}
		e := start(t, cc, h, opts)
		sess.Store(e.sess)
		probe := func(id int64) bool {
			t.Helper()
			e.ed.notify("probe", id)
			return recv(t, answers, "the probe's answer")
		}
		if probe(5) {
			t.Error("request 5, never sent, is being answered")
		}
		e.ed.notify("block")
		recv(t, noteIn, "the notification to start")
		e.ed.request(5, "r")
		if !probe(5) {
			t.Error("request 5, waiting behind a notification, is not being answered")
		}
		close(noteOut)
		recv(t, reqIn, "the request to start")
		if !probe(5) {
			t.Error("request 5, running, is not being answered")
		}
		close(reqOut)
		e.ed.expectResponse(5)
		// The response is written just before the session notes it.
		for deadline := time.Now().Add(timeout); probe(5); {
			if time.Now().After(deadline) {
				t.Fatal("request 5, answered, is still being answered")
			}
			time.Sleep(time.Millisecond)
		}
	})
}

// The hooks: Received sees a request before its handler runs, Answered
// sees it after its response was written and Answering is false, Wrote
// sees every message written in order, and WriteRaw's bytes go out in
// order with the messages, unseen by Wrote.
func TestHooks(t *testing.T) {
	forEachCodec(t, func(t *testing.T, cc codecCase) {
		var mu sync.Mutex
		var events []string
		note := func(format string, args ...any) {
			mu.Lock()
			events = append(events, fmt.Sprintf(format, args...))
			mu.Unlock()
		}
		var sess *rpc.Session
		answered := make(chan bool, 1)
		h := &handler{request: func(ctx context.Context, s *rpc.Session, m *wire.Message) any {
			note("handle %d", m.ID)
			return "ok"
		}}
		e := start(t, cc, h, rpc.Options{
			Received: func(id int64) { note("received %d", id) },
			Answered: func(id int64) { note("answered %d", id); answered <- sess.Answering(id) },
			Wrote:    func(k wire.Kind) { note("wrote %s", k) },
		})
		sess = e.sess
		e.ed.request(1, "r")
		e.ed.expectResponse(1)
		if recv(t, answered, "Answered") {
			t.Error("Answering(1) is true in Answered")
		}
		if err := e.sess.Notify(context.Background(), "n", nil); err != nil {
			t.Fatal(err)
		}
		e.ed.expect(wire.Notification, "n")
		// Raw bytes: a response, encoded as the session would.
		raw, err := e.sess.Codec().AppendResponse(nil, 9, 0)
		if err != nil {
			t.Fatal(err)
		}
		if err := e.sess.WriteRaw(func(b []byte) []byte { return append(b, raw...) }); err != nil {
			t.Fatal(err)
		}
		if f := e.ed.next(); f.kind != wire.Response || f.id != 9 {
			t.Errorf("raw write read as %s %d, want a response to 9", f.kind, f.id)
		}
		mu.Lock()
		defer mu.Unlock()
		want := []string{"received 1", "handle 1", "wrote " + wire.Response.String(), "answered 1", "wrote " + wire.Notification.String()}
		if !reflect.DeepEqual(events, want) {
			t.Errorf("events %q, want %q", events, want)
		}
	})
}

func TestCallCanceled(t *testing.T) {
	forEachCodec(t, func(t *testing.T, cc codecCase) {
		e := start(t, cc, nil, rpc.Options{})
		ctx, cancel := context.WithCancel(context.Background())
		res := call(ctx, e.sess, "slow")
		f := e.ed.expect(wire.Request, "slow")
		cancel()
		r := recv(t, res, "the canceled call")
		if !errors.Is(r.err, context.Canceled) {
			t.Fatalf("err = %v, want context.Canceled", r.err)
		}

		// A cause given to the context is what the call returns.
		cause := errors.New("user gave up")
		cctx, ccancel := context.WithCancelCause(context.Background())
		res = call(cctx, e.sess, "slow2")
		f2 := e.ed.expect(wire.Request, "slow2")
		ccancel(cause)
		if r := recv(t, res, "the canceled call"); !errors.Is(r.err, cause) {
			t.Fatalf("err = %v, want %v", r.err, cause)
		}

		// The late answers, and one to an id never used, are dropped; the
		// next call gets its own answer.
		e.ed.respond(f.id, "late")
		e.ed.respond(f2.id, "late2")
		e.ed.respond(9999, "stray")
		res = call(context.Background(), e.sess, "next")
		g := e.ed.expect(wire.Request, "next")
		if g.id == f.id || g.id == f2.id {
			t.Errorf("id %d reused", g.id)
		}
		e.ed.respond(g.id, "fresh")
		r = recv(t, res, "the next call")
		if r.err != nil {
			t.Fatal(r.err)
		}
		if got := decodeSession[string](t, e.sess, r.raw); got != "fresh" {
			t.Errorf("result = %q, want fresh", got)
		}
	})
}

func TestEditorClosesStream(t *testing.T) {
	forEachCodec(t, func(t *testing.T, cc codecCase) {
		handlerCtxDone := make(chan struct{})
		entered := make(chan struct{})
		h := &handler{request: func(ctx context.Context, s *rpc.Session, m *wire.Message) any {
			close(entered)
			<-ctx.Done()
			close(handlerCtxDone)
			return nil
		}}
		e := start(t, cc, h, rpc.Options{})
		pending := make([]<-chan result, 3)
		for i := range pending {
			pending[i] = call(context.Background(), e.sess, "never")
			e.ed.expect(wire.Request, "never")
		}
		e.ed.request(1, "block")
		recv(t, entered, "the request handler to start")

		e.ed.conn.Close()

		for i, ch := range pending {
			r := recv(t, ch, "a pending call to fail")
			if !errors.Is(r.err, rpc.ErrClosed) {
				t.Errorf("pending call %d: err = %v, want one wrapping rpc.ErrClosed", i, r.err)
			}
		}
		err := recv(t, e.runErr, "Run to return")
		if !errors.Is(err, io.EOF) {
			t.Errorf("Run returned %v, want io.EOF", err)
		}
		recv(t, handlerCtxDone, "the request handler's ctx to end")
		select {
		case <-e.sess.Done():
		default:
			t.Error("Done is not closed after Run returned")
		}
		if err := e.sess.Err(); !errors.Is(err, rpc.ErrClosed) {
			t.Errorf("Err() = %v, want one wrapping rpc.ErrClosed", err)
		}
		// Later calls fail at once.
		if _, err := e.sess.Call(context.Background(), "late", nil); !errors.Is(err, rpc.ErrClosed) {
			t.Errorf("Call after the end: %v, want rpc.ErrClosed", err)
		}
		if err := e.sess.Notify(context.Background(), "late", nil); !errors.Is(err, rpc.ErrClosed) {
			t.Errorf("Notify after the end: %v, want rpc.ErrClosed", err)
		}
	})
}

func TestBadMessage(t *testing.T) {
	forEachCodec(t, func(t *testing.T, cc codecCase) {
		type bad struct {
			kind wire.Kind
			id   int64
			err  error
		}
		bads := make(chan bad, 10)
		h := &handler{request: func(ctx context.Context, s *rpc.Session, m *wire.Message) any { return "pong" }}
		opts := rpc.Options{BadMessage: func(m *wire.Message, err error) any {
			bads <- bad{m.Kind, m.ID, err}
			return []any{nil, "bad message: " + err.Error()}
		}}
		e := start(t, cc, h, opts)

		e.ed.send(e.ed.proto.malformedRequest(7))
		f := e.ed.expectResponse(7)
		got := decode[[]any](t, e.ed, f.result)
		if len(got) != 2 || got[0] != nil || !strings.HasPrefix(fmt.Sprint(got[1]), "bad message: ") {
			t.Errorf("answer to the bad request = %#v", got)
		}
		b := recv(t, bads, "BadMessage")
		if b.kind != wire.Request || b.id != 7 || !errors.Is(b.err, wire.ErrMalformed) {
			t.Errorf("BadMessage got %s %d %v", b.kind, b.id, b.err)
		}

		// A bad notification is reported but not answered, and the stream
		// goes on.
		e.ed.send(e.ed.proto.malformedNotification())
		e.ed.request(8, "ping")
		f = e.ed.expectResponse(8)
		if got := decode[string](t, e.ed, f.result); got != "pong" {
			t.Errorf("result %q", got)
		}
		b = recv(t, bads, "BadMessage")
		if b.kind == wire.Request || !errors.Is(b.err, wire.ErrMalformed) {
			t.Errorf("BadMessage got %s %d %v", b.kind, b.id, b.err)
		}
	})
}

func TestBadMessageWithoutHook(t *testing.T) {
	forEachCodec(t, func(t *testing.T, cc codecCase) {
		h := &handler{request: func(ctx context.Context, s *rpc.Session, m *wire.Message) any { return "pong" }}
		e := start(t, cc, h, rpc.Options{})
		e.ed.send(e.ed.proto.malformedRequest(7))
		e.ed.send(e.ed.proto.malformedNotification())
		e.ed.request(8, "ping")
		f := e.ed.expectResponse(8)
		if got := decode[string](t, e.ed, f.result); got != "pong" {
			t.Errorf("result %q", got)
		}
	})
}

func TestRemoteError(t *testing.T) {
	forEachCodec(t, func(t *testing.T, cc codecCase) {
		e := start(t, cc, nil, rpc.Options{})
		for _, tt := range []struct {
			only   string // the editor that sends it, or "" for both
			errVal any
			want   string
		}{
			// The session knows no editor's form of an error (Neovim's
			// [type, message] is read by internal/host): a String is
			// the message, and anything else is printed.
			{"", "just a string", "just a string"},
			{"vim", "E117: Unknown function: g:Nope", "E117: Unknown function: g:Nope"},
			{"nvim", []byte("Vim:E5108: sent as bin"), "Vim:E5108: sent as bin"},
			{"", []any{0, "Vim:E117: Unknown function: Nope"}, "[0 Vim:E117: Unknown function: Nope]"},
			{"", []any{1, 2, 3}, "[1 2 3]"},
		} {
			if tt.only != "" && tt.only != cc.name {
				continue
			}
			res := call(context.Background(), e.sess, "nvim_call_function", "Nope", []any{})
			f := e.ed.expect(wire.Request, "nvim_call_function")
			e.ed.send(e.ed.proto.errorResponse(f.id, tt.errVal))
			r := recv(t, res, "the failed call")
			var re *rpc.RemoteError
			if !errors.As(r.err, &re) {
				t.Fatalf("err = %v (%T), want *rpc.RemoteError", r.err, r.err)
			}
			if re.Error() != tt.want {
				t.Errorf("Error() = %q, want %q", re.Error(), tt.want)
			}
		}
		// The session goes on working.
		res := call(context.Background(), e.sess, "ok")
		f := e.ed.expect(wire.Request, "ok")
		e.ed.respond(f.id, 1)
		if r := recv(t, res, "the call"); r.err != nil {
			t.Fatal(r.err)
		}
	})
}

// A request starts only after the notifications that arrived before it have
// been handled, so "notify, then request" sees the notification's effect.
func TestRequestWaitsForEarlierNotifications(t *testing.T) {
	forEachCodec(t, func(t *testing.T, cc codecCase) {
		var (
			set        atomic.Bool
			markerSeen = make(chan struct{})
		)
		h := &handler{
			notify: func(ctx context.Context, s *rpc.Session, m *wire.Message) {
				if m.Method != "set" {
					return
				}
				// Hold on until the read loop has gone past the request,
				// so that the request has every chance to start early.
				select {
				case <-markerSeen:
				case <-ctx.Done():
				}
				runtime.Gosched()
				set.Store(true)
			},
			request: func(ctx context.Context, s *rpc.Session, m *wire.Message) any {
				return set.Load()
			},
		}
		opts := rpc.Options{Preempt: func(m *wire.Message) bool {
			if m.Method == "marker" {
				close(markerSeen)
				return true
			}
			return false
		}}
		e := start(t, cc, h, opts)
		e.ed.notify("set")
		e.ed.request(1, "get")
		e.ed.notify("marker")
		f := e.ed.expectResponse(1)
		if !decode[bool](t, e.ed, f.result) {
			t.Error("the request ran before the notification sent ahead of it was handled")
		}
	})
}

// A notification handler that calls the editor may be answered only after
// the editor has called the plugin in turn; that request must not queue
// behind the notification, or both sides would wait forever.
func TestReentrantCallFromNotification(t *testing.T) {
	forEachCodec(t, func(t *testing.T, cc codecCase) {
		done := make(chan string, 1)
		h := &handler{
			notify: func(ctx context.Context, s *rpc.Session, m *wire.Message) {
				raw, err := s.Call(ctx, "inner", nil)
				if err != nil {
					done <- "error: " + err.Error()
					return
				}
				var v string
				_ = s.Codec().Unmarshal(raw, &v)
				done <- v
			},
			request: func(ctx context.Context, s *rpc.Session, m *wire.Message) any { return "nested ok" },
		}
		e := start(t, cc, h, rpc.Options{})
		e.ed.notify("outer")
		f := e.ed.expect(wire.Request, "inner")
		e.ed.request(2, "nested")
		g := e.ed.expectResponse(2)
		if got := decode[string](t, e.ed, g.result); got != "nested ok" {
			t.Errorf("nested result %q", got)
		}
		e.ed.respond(f.id, "inner done")
		if got := recv(t, done, "the notification handler"); got != "inner done" {
			t.Errorf("the notification handler got %q", got)
		}
	})
}

// ---------------------------------------------------------------------------
// Vim only.

func vimCase(t *testing.T) codecCase {
	t.Helper()
	for _, cc := range codecs {
		if cc.name == "vim" {
			return cc
		}
	}
	t.Fatal("no vim codec")
	panic("unreachable")
}

// An answer from Vim whose body is not [result, error] fails the call that
// waits for it, instead of leaving it waiting, and the session goes on.
func TestVimUnexpectedAnswer(t *testing.T) {
	forEachReader(t, vimCase(t), testVimUnexpectedAnswer)
}

func testVimUnexpectedAnswer(t *testing.T, cc codecCase) {
	e := start(t, cc, nil, rpc.Options{})
	for _, body := range []string{`"ERROR"`, `42`, `null`, `[]`, `[1]`, `[1,null,3]`, `{"a":1}`} {
		res := call(context.Background(), e.sess, "F", 1)
		f := e.ed.expect(wire.Request, "F")
		e.ed.send([]byte(fmt.Sprintf("[%d,%s]\n", -f.id, body)))
		r := recv(t, res, "the call that got a malformed answer")
		var re *rpc.RemoteError
		if !errors.As(r.err, &re) {
			t.Fatalf("answer %s: err = %v (%T), want *rpc.RemoteError", body, r.err, r.err)
		}
		want := "unexpected answer from Vim (want [result, error]): " + body
		if body == `"ERROR"` { // Vim's own answer to a failed "call" command
			want = "Vim could not answer: the result cannot be sent as JSON (a Funcref, Job or Channel?), or Vigor's call helper is not on 'runtimepath'"
		}
		if re.Error() != want {
			t.Errorf("Error() = %q, want %q", re.Error(), want)
		}
		if r.raw != nil {
			t.Errorf("answer %s: result %q with the error", body, r.raw)
		}
	}
	res := call(context.Background(), e.sess, "ok")
	f := e.ed.expect(wire.Request, "ok")
	e.ed.respond(f.id, 1)
	if r := recv(t, res, "the call"); r.err != nil || decodeSession[int](t, e.sess, r.raw) != 1 {
		t.Fatalf("the call after the malformed answers: %q, %v", r.raw, r.err)
	}
}

// A call too large for one message goes as FuncChunk notifications that
// carry [method, params], then the same kind of message for FuncChunked
// (key, n): for a request, a call of the channel callback with the
// request's id, whose answer is the request's.
func TestVimChunkedCall(t *testing.T) {
	forEachReader(t, vimCase(t), testVimChunkedCall)
}

func testVimChunkedCall(t *testing.T, cc codecCase) {
	e := start(t, cc, nil, rpc.Options{})
	big := strings.Repeat("ab\"\\é🎉\n", vimjson.ChunkThreshold/8)

	// chunks reads FuncChunk notifications up to the frame that follows
	// them, and returns what they carry.
	chunks := func() (body, key string, n int, last frame) {
		t.Helper()
		var joined strings.Builder
		for {
			f := e.ed.next()
			if f.kind != wire.Notification || f.method != vimjson.FuncChunk {
				return joined.String(), key, n, f
			}
			if len(f.params) != 2 {
				t.Fatalf("chunk params %.80q", f.params)
			}
			k := decode[string](t, e.ed, f.params[0])
			if n > 0 && k != key {
				t.Fatalf("chunk %d has key %q, the first had %q", n, k, key)
			}
			key = k
			text := decode[string](t, e.ed, f.params[1])
			if len(text) > vimjson.ChunkSize {
				t.Errorf("chunk %d has %d bytes, more than %d", n, len(text), vimjson.ChunkSize)
			}
			joined.WriteString(text)
			n++
		}
	}
	checkBody := func(body string) {
		t.Helper()
		var got []any
		if err := vimjson.Unmarshal(wire.Raw(body), &got); err != nil {
			t.Fatalf("the chunks do not join to JSON: %v", err)
		}
		if want := []any{"Big", []any{big, int64(7)}}; !reflect.DeepEqual(got, want) {
			t.Errorf("the chunks carry %.80q, want [Big, [big, 7]]", got)
		}
	}

	res := call(context.Background(), e.sess, "Big", big, 7)
	body, key, n, f := chunks()
	if n < 2 {
		t.Fatalf("%d chunks for %d bytes", n, len(big))
	}
	checkBody(body)
	if f.kind != wire.Request || f.method != vimjson.FuncChunked || f.id <= 0 {
		t.Fatalf("after the chunks: %s %q id %d, want a request of %s", f.kind, f.method, f.id, vimjson.FuncChunked)
	}
	if len(f.params) != 2 || decode[string](t, e.ed, f.params[0]) != key || decode[int](t, e.ed, f.params[1]) != n {
		t.Errorf("%s params %q, want [%q, %d]", vimjson.FuncChunked, f.params, key, n)
	}
	e.ed.respond(f.id, "done")
	r := recv(t, res, "the chunked call")
	if r.err != nil {
		t.Fatal(r.err)
	}
	if got := decodeSession[string](t, e.sess, r.raw); got != "done" {
		t.Errorf("result %q, want done", got)
	}

	// A notification: the same chunks, then Vim's "call" command of
	// FuncChunked, under a key of its own.
	if err := e.sess.Notify(context.Background(), "Big", []any{big, 7}); err != nil {
		t.Fatal(err)
	}
	body, key2, n, f := chunks()
	checkBody(body)
	if key2 == key {
		t.Errorf("two chunked messages share the key %q", key)
	}
	if f.kind != wire.Notification || f.method != vimjson.FuncChunked {
		t.Fatalf("after the chunks: %s %q, want a notification of %s", f.kind, f.method, vimjson.FuncChunked)
	}
	if len(f.params) != 2 || decode[string](t, e.ed, f.params[0]) != key2 || decode[int](t, e.ed, f.params[1]) != n {
		t.Errorf("%s params %q, want [%q, %d]", vimjson.FuncChunked, f.params, key2, n)
	}
}

// A call made while another call waits for its reply does not read its
// own: a thread blocked in read() would keep its processor from the other
// callers, which could not write their requests meanwhile. Run reads the
// replies of them all.
func TestNoDirectReadWhileCallsPending(t *testing.T) {
	for _, cc := range codecs {
		cc.direct = true
		t.Run(cc.name, func(t *testing.T) {
			e := start(t, cc, nil, rpc.Options{})
			first := call(rpc.WithoutDirectRead(context.Background()), e.sess, "first")
			f1 := e.ed.expect(wire.Request, "first")
			reads := rpc.DirectReadCount(e.sess)
			second := call(context.Background(), e.sess, "second")
			f2 := e.ed.expect(wire.Request, "second")
			e.ed.respond(f2.id, "two")
			if r := recv(t, second, "the second call"); r.err != nil || decodeSession[string](t, e.sess, r.raw) != "two" {
				t.Fatalf("second call: %q, %v", r.raw, r.err)
			}
			e.ed.respond(f1.id, "one")
			if r := recv(t, first, "the first call"); r.err != nil || decodeSession[string](t, e.sess, r.raw) != "one" {
				t.Fatalf("first call: %q, %v", r.raw, r.err)
			}
			if n := rpc.DirectReadCount(e.sess) - reads; n != 0 {
				t.Errorf("%d direct reads while a call was pending, want 0", n)
			}
		})
	}
}
