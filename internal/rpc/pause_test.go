package rpc

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/vmihailenco/msgpack/v5"

	"github.com/vigorvim/vigor/internal/codec/msgpackrpc"
	"github.com/vigorvim/vigor/internal/wire"
)

// callbackHandler answers "outer" after calling the peer's "inner" (a
// direct read of its own reply).
type callbackHandler struct{ s *Session }

func (h *callbackHandler) Request(ctx context.Context, m *wire.Message) any {
	raw, err := h.s.Call(ctx, "inner", nil)
	if err != nil {
		return err.Error()
	}
	return raw
}

func (*callbackHandler) Notification(context.Context, *wire.Message) {}

type answerOK struct{}

func (answerOK) Request(context.Context, *wire.Message) any  { return "ok" }
func (answerOK) Notification(context.Context, *wire.Message) {}

// When a handler that called the peer ends, the read loop watches the
// input again at once; it does not wait for callers to pause. With the
// pause set to an hour, a second request would never be read otherwise.
func TestHandlerEndResumesReadLoop(t *testing.T) {
	aR, aW, bR, bW := Pipes(t)
	h := &callbackHandler{}
	in := NewInput(aR)
	s := New(msgpackrpc.New(in), bW, Options{Handler: h, Input: in})
	if s.rd == nil {
		t.Skip("no direct reads on this platform")
	}
	s.rd.idleDelay = time.Hour
	h.s = s
	peer := New(msgpackrpc.New(bR), aW, Options{Handler: answerOK{}})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	runDone := make(chan error, 1)
	go func() { runDone <- s.Run(ctx) }()
	go func() { _ = peer.Run(ctx) }()
	for i := 0; i < 50; i++ {
		c, cancelCall := context.WithTimeout(ctx, 10*time.Second)
		raw, err := peer.Call(c, "outer", nil)
		cancelCall()
		var got string
		if err != nil || msgpackrpc.Unmarshal(raw, &got) != nil || got != "ok" {
			t.Fatalf("request %d: %q, %v", i, raw, err)
		}
	}
	aW.Close()
	select {
	case <-runDone:
	case <-time.After(10 * time.Second):
		t.Fatal("the session did not end when its input closed")
	}
	bW.Close()
}

// A request that comes in the same read as an error reply to a caller's
// direct read is handled at once: the caller handles what is left in the
// codec's buffer whatever its reply said. With the pause set to an hour,
// Run would leave it there.
func TestDrainAfterErrorReply(t *testing.T) {
	aR, aW, bR, bW := Pipes(t)
	in := NewInput(aR)
	s := New(msgpackrpc.New(in), bW, Options{Handler: answerOK{}, Input: in})
	if s.rd == nil {
		t.Skip("no direct reads on this platform")
	}
	s.rd.idleDelay = time.Hour
	runDone := make(chan error, 1)
	go func() { runDone <- s.Run(context.Background()) }()
	peer := msgpackrpc.New(bR)
	frames := make(chan wire.Message, 4)
	go func() {
		for {
			var m wire.Message
			if peer.ReadMessage(&m) != nil {
				close(frames)
				return
			}
			frames <- m
		}
	}()
	next := func(what string) wire.Message {
		t.Helper()
		select {
		case m, ok := <-frames:
			if !ok {
				t.Fatalf("%s: the session's stream ended", what)
			}
			return m
		case <-time.After(10 * time.Second):
			t.Fatalf("timed out waiting for %s", what)
		}
		panic("unreachable")
	}
	res := make(chan error, 1)
	go func() {
		_, err := s.Call(context.Background(), "fails", nil)
		res <- err
	}()
	m := next("the call")
	// The error reply and a request, in one write.
	b, err := msgpack.Marshal([]any{1, m.ID, []any{0, "no such function"}, nil})
	if err != nil {
		t.Fatal(err)
	}
	b, err = peer.AppendRequest(b, 7, "ping", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := aW.Write(b); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-res:
		var re *RemoteError
		if !errors.As(err, &re) {
			t.Fatalf("the call returned %v, want a RemoteError", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the call did not return")
	}
	if got := next("the answer to the request"); got.Kind != wire.Response || got.ID != 7 {
		t.Fatalf("got %s %d, want the response to 7", got.Kind, got.ID)
	}
	// The call was not a handler's, so nothing ends Run's hour-long pause
	// after it but this.
	aW.Close()
	s.rd.resumeRun()
	select {
	case <-runDone:
	case <-time.After(10 * time.Second):
		t.Fatal("the session did not end when its input closed")
	}
}

// Pipes returns two pipes, peer -> session (inR, inW) and session -> peer
// (outR, outW), all closed when the test ends. (Exported for the tests of
// package rpc_test.)
func Pipes(t testing.TB) (inR, inW, outR, outW *os.File) {
	t.Helper()
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err = os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for _, f := range []*os.File{inR, inW, outR, outW} {
			f.Close()
		}
	})
	return inR, inW, outR, outW
}
