package rpc_test

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/vigorvim/vigor/internal/codec/msgpackrpc"
	"github.com/vigorvim/vigor/internal/rpc"
	"github.com/vigorvim/vigor/internal/wire"
)

// echoPeer answers every call with its first argument; for "nested" it
// first calls back into the session (re-entrancy) and answers with that.
type echoPeer struct{ sess *rpc.Session }

func (p *echoPeer) Request(ctx context.Context, m *wire.Message) any {
	if m.Method == "nested" {
		raw, err := p.sess.Call(ctx, "inner", []any{"x"})
		if err != nil {
			return err.Error()
		}
		return raw
	}
	if len(m.Params) > 0 {
		return m.Params[0]
	}
	return nil
}

func (p *echoPeer) Notification(context.Context, *wire.Message) {}

type innerAnswer struct{}

func (innerAnswer) Request(ctx context.Context, m *wire.Message) any { return "inner:" + m.Method }
func (innerAnswer) Notification(context.Context, *wire.Message)      {}

// Over real pipes a caller reads its own reply (direct reads, on Linux;
// msgpack-RPC, whose framing is the same both ways):
// many calls from several goroutines at once, with requests from the peer
// nested in them, all get their own answers, and the session ends when its
// input closes.
func TestDirectReadsOverPipes(t *testing.T) {
	for round := 0; round < 5; round++ {
		aR, aW, err := os.Pipe() // peer -> session
		if err != nil {
			t.Fatal(err)
		}
		bR, bW, err := os.Pipe() // session -> peer
		if err != nil {
			t.Fatal(err)
		}
		sess := rpc.New(msgpackrpc.New(aR), bW, rpc.Options{Handler: innerAnswer{}, Input: aR})
		peer := &echoPeer{}
		peer.sess = rpc.New(msgpackrpc.New(bR), aW, rpc.Options{Handler: peer})
		ctx, cancel := context.WithCancel(context.Background())
		runDone := make(chan error, 1)
		go func() { runDone <- sess.Run(ctx) }()
		go func() { _ = peer.sess.Run(ctx) }()

		var wg sync.WaitGroup
		errs := make(chan error, 8)
		for g := 0; g < 4; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; i < 300; i++ {
					want := fmt.Sprintf("g%d-%d", g, i)
					method := "echo"
					if i%7 == 0 {
						method, want = "nested", "inner:inner"
					}
					c, cancelCall := context.WithTimeout(ctx, 20*time.Second)
					raw, err := sess.Call(c, method, []any{want})
					cancelCall()
					if err != nil {
						errs <- fmt.Errorf("call %d of goroutine %d: %w", i, g, err)
						return
					}
					var got string
					if err := msgpackrpc.Unmarshal(raw, &got); err != nil || got != want {
						errs <- fmt.Errorf("call %s: got %s (%v), want %q", method, raw, err, want)
						return
					}
				}
			}()
		}
		done := make(chan struct{})
		go func() { wg.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(60 * time.Second):
			t.Fatalf("round %d: the calls hung", round)
		}
		close(errs)
		for err := range errs {
			t.Fatalf("round %d: %v", round, err)
		}
		aW.Close()
		select {
		case <-runDone:
		case <-time.After(20 * time.Second):
			t.Fatalf("round %d: the session did not end when its input closed", round)
		}
		bW.Close()
		cancel()
	}
}
