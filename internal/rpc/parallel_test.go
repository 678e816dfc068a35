package rpc_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/vigorvim/vigor/internal/codec/msgpackrpc"
	"github.com/vigorvim/vigor/internal/rpc"
)

// Eight goroutines call at once, their requests coalescing into shared
// writes: every call gets its own reply, and the ctx of one caller ending
// in the middle of its calls ends only that caller's call; the others and
// later calls go on. With direct reads and without.
func TestParallelCallsGetTheirReplies(t *testing.T) {
	for _, direct := range []bool{true, false} {
		t.Run(fmt.Sprintf("direct=%v", direct), func(t *testing.T) {
			aR, aW, bR, bW := rpc.Pipes(t)
			in := rpc.NewInput(aR)
			sess := rpc.New(msgpackrpc.New(in), bW, rpc.Options{Handler: innerAnswer{}, Input: in})
			runDone := make(chan error, 1)
			go func() { runDone <- sess.Run(context.Background()) }()
			peerDone := make(chan struct{})
			go func() { defer close(peerDone); echoAtOnce(bR, aW) }()
			// WithoutDirectRead's ctx counts only as it is, not in a ctx
			// derived from it.
			noDirect := func(ctx context.Context) context.Context {
				if direct {
					return ctx
				}
				return rpc.WithoutDirectRead(ctx)
			}
			const calls = 300
			var wg sync.WaitGroup
			errs := make(chan error, 8)
			for g := range 8 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					cctx, cancel := context.WithCancel(context.Background())
					defer cancel()
					ctx := noDirect(cctx)
					for i := range calls {
						if g == 0 && i == calls/2 {
							cancel()
						}
						want := fmt.Sprintf("g%d-%d", g, i)
						raw, err := sess.Call(ctx, "echo", []any{want})
						if g == 0 && i >= calls/2 {
							if !errors.Is(err, context.Canceled) {
								errs <- fmt.Errorf("call after cancel: %v, want context.Canceled", err)
								return
							}
							ctx = noDirect(context.Background()) // a new ctx calls again
							g = -1
							continue
						}
						if err != nil {
							errs <- fmt.Errorf("caller %d call %d: %w", g, i, err)
							return
						}
						var got string
						if err := sess.Codec().Unmarshal(raw, &got); err != nil || got != want {
							errs <- fmt.Errorf("caller %d call %d: got %q (%v), want %q", g, i, got, err, want)
							return
						}
					}
				}()
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Error(err)
			}
			aW.Close()
			<-runDone
			bW.Close()
			<-peerDone
		})
	}
}
