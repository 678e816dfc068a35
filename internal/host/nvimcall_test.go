package host_test

import (
	"bytes"
	"errors"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/vmihailenco/msgpack/v5"

	"github.com/vigorvim/vigor/internal/host"
	"github.com/vigorvim/vigor/internal/protocol"
	"github.com/vigorvim/vigor/internal/wire"
)

// rawSink is a host.RawWriter that keeps what is written.
type rawSink struct {
	mu  sync.Mutex
	out []byte
}

func (w *rawSink) WriteRaw(appendFn func(b []byte) []byte) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.out = appendFn(w.out)
	return nil
}

func (w *rawSink) Err() error { return nil }

func (w *rawSink) take() []byte {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := w.out
	w.out = nil
	return out
}

// callsCodec is a Neovim codec that reads the $call requests given as
// [id, token] pairs, in order, and writes "later" to sink, bound after
// it read one (long enough in the tests that answer before it, whatever
// the machine's load).
type callsCodec struct {
	t    *testing.T
	c    host.Codec
	sink *rawSink
}

func newCallsCodec(t *testing.T, bound time.Duration, calls ...[2]int64) *callsCodec {
	var in bytes.Buffer
	for _, c := range calls {
		b, err := msgpack.Marshal([]any{0, c[0], protocol.MethodCall, []any{c[1], "m", []any{}}})
		if err != nil {
			t.Fatal(err)
		}
		in.Write(b)
	}
	c, err := host.NewCodec("nvim", "", "p", "1", &in)
	if err != nil {
		t.Fatal(err)
	}
	host.SetCallBound(c, bound)
	cc := &callsCodec{t: t, c: c, sink: &rawSink{}}
	host.AttachCodec(c, cc.sink)
	return cc
}

// read reads the next $call.
func (cc *callsCodec) read() {
	cc.t.Helper()
	var m wire.Message
	if err := cc.c.ReadMessage(&m); err != nil || m.Kind != wire.Request || m.ID >= 0 {
		cc.t.Fatalf("the $call reads as %+v (%v)", m, err)
	}
}

// answer returns what the answer to token writes.
func (cc *callsCodec) answer(token int64, result any) []any {
	cc.t.Helper()
	b, err := cc.c.AppendResponse(nil, -token, result)
	if err != nil {
		cc.t.Fatal(err)
	}
	return messages(cc.t, b)
}

// messages decodes the msgpack messages of b.
func messages(t *testing.T, b []byte) []any {
	t.Helper()
	dec := msgpack.NewDecoder(bytes.NewReader(b))
	var out []any
	for {
		var v any
		if err := dec.Decode(&v); errors.Is(err, io.EOF) {
			return out
		} else if err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
}

func response(id int, v any) []any { return []any{int8(1), int8(id), nil, v} }

func later(id int) []any { return response(id, int8(0)) }

func funcReply(token int, items ...any) []any {
	return []any{int8(2), "nvim_call_function", []any{protocol.FuncReply, append([]any{int8(token)}, items...)}}
}

// A call answered at once, with no notification meanwhile, gets its
// answer in its response; with a notification meanwhile, "later" and the
// FuncReply, so that the notification runs before vigor#request()
// returns; a later answer is a FuncReply.
func TestNvimCallAnswers(t *testing.T) {
	cc := newCallsCodec(t, time.Hour, [2]int64{3, 7}, [2]int64{4, 8})
	cc.read()
	checkEqual(t, "the answer", cc.answer(7, &tuple{"hi", nil}), []any{response(3, []any{"hi", nil})})
	cc.read()
	if _, err := cc.c.AppendNotification(nil, "nvim_command", []any{"echo 1"}); err != nil {
		t.Fatal(err)
	}
	checkEqual(t, "the answer after a notification", cc.answer(8, &tuple{"hi", nil}),
		[]any{later(4), funcReply(8, "hi", nil)})
	checkEqual(t, "an answer after its response", cc.answer(9, &tuple{"x", nil}), []any{funcReply(9, "x", nil)})
}

// Neovim takes the response of the last call only, and pops it only
// once rpcrequest() has returned: the answer of an outer call waits for
// the inner one's response, and comes a bound after it, from the timer.
func TestNvimCallNested(t *testing.T) {
	cc := newCallsCodec(t, time.Second, [2]int64{1, 7}, [2]int64{2, 8})
	cc.read()
	cc.read()
	checkEqual(t, "the outer answer, under the inner call", cc.answer(7, &tuple{"out", nil}), []any(nil))
	checkEqual(t, "the inner answer", cc.answer(8, &tuple{"in", nil}), []any{response(2, []any{"in", nil})})
	checkEqual(t, "the timer's writes", cc.await(1), []any{response(1, []any{"out", nil})})
}

// await returns the first n messages that the timer writes.
func (cc *callsCodec) await(n int) []any {
	cc.t.Helper()
	var got []any
	deadline := time.Now().Add(10 * time.Second)
	for len(got) < n && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
		got = append(got, messages(cc.t, cc.sink.take())...)
	}
	return got
}

// A call whose answer takes longer than the bound gets "later" from the
// timer, and the call under it too, a bound after; their answers are
// FuncReplies.
func TestNvimCallLater(t *testing.T) {
	cc := newCallsCodec(t, time.Millisecond, [2]int64{1, 7}, [2]int64{2, 8})
	cc.read()
	cc.read()
	checkEqual(t, "the timer's writes", cc.await(2), []any{later(2), later(1)})
	checkEqual(t, "the inner answer", cc.answer(8, &tuple{"in", nil}), []any{funcReply(8, "in", nil)})
	checkEqual(t, "the outer answer", cc.answer(7, &tuple{"out", nil}), []any{funcReply(7, "out", nil)})
}

// An answer that is not a List would read as "later": it goes as one,
// and as a FuncReply, as the runtime takes any answer. One that cannot be
// written, and has no fallback, still gives Neovim's request its
// response: "later".
func TestNvimCallOddAnswers(t *testing.T) {
	cc := newCallsCodec(t, time.Hour, [2]int64{1, 7}, [2]int64{2, 8})
	cc.read()
	checkEqual(t, "a String answer", cc.answer(7, "odd"), []any{later(1), funcReply(7, "odd")})
	cc.read()
	b, err := cc.c.AppendResponse(nil, -8, []any{make(chan int), nil})
	if err != nil {
		t.Errorf("an answer that cannot be written: %v, want no error, so that the session writes the later", err)
	}
	checkEqual(t, "what it writes", messages(t, b), []any{later(2)})
}
