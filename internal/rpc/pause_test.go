package rpc

import (
	"context"
	"os"
	"testing"
	"time"

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
	s := New(msgpackrpc.New(aR), bW, Options{Handler: h, Input: aR})
	if s.dir == nil {
		t.Skip("no direct reads on this platform")
	}
	s.idleDelay = time.Hour
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
