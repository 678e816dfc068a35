package rpc_test

import (
	"context"
	"os"
	"testing"

	"github.com/vigorvim/vigor/internal/codec/msgpackrpc"
	"github.com/vigorvim/vigor/internal/rpc"
	"github.com/vigorvim/vigor/internal/wire"
)

// BenchmarkCall is one call and its reply over real pipes, to a peer
// goroutine that answers at once with a blocking read and write, as the
// editor's process would: the session's own cost per round trip. Direct
// reads (Linux) are measured with a ctx that cannot end (Background) and
// with one that can (a handler's), the channel path with
// rpc.WithoutDirectRead.
//
//	go test -run '^$' -bench Call ./internal/rpc/
func BenchmarkCall(b *testing.B) {
	cancellable, cancel := context.WithCancel(context.Background())
	defer cancel()
	for _, bc := range []struct {
		name string
		ctx  context.Context
	}{
		{"direct/background", context.Background()},
		{"direct/cancellable", cancellable},
		{"channel", rpc.WithoutDirectRead(cancellable)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			aR, aW, bR, bW := rpc.Pipes(b) // peer -> session, session -> peer
			in := rpc.NewInput(aR)
			sess := rpc.New(msgpackrpc.New(in), bW, rpc.Options{Handler: innerAnswer{}, Input: in})
			runDone := make(chan error, 1)
			go func() { runDone <- sess.Run(context.Background()) }()
			peerDone := make(chan struct{})
			go func() { defer close(peerDone); echoAtOnce(bR, aW) }()
			params := []any{"0123456789012345678901234567890123456789012345678901234567890123"}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := sess.Call(bc.ctx, "echo", params); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			aW.Close()
			<-runDone
			bW.Close()
			<-peerDone
		})
	}
}

// echoAtOnce answers every request read from r with its first argument,
// through blocking reads and writes, until r ends.
func echoAtOnce(r, w *os.File) {
	r.Fd() // blocking mode
	w.Fd()
	c := msgpackrpc.New(r)
	var m wire.Message
	var out []byte
	for {
		if err := c.ReadMessage(&m); err != nil {
			return
		}
		var err error
		if out, err = c.AppendResponse(out[:0], m.ID, m.Params[0]); err != nil {
			return
		}
		if _, err := w.Write(out); err != nil {
			return
		}
	}
}
