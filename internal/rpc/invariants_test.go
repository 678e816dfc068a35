package rpc_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vigorvim/vigor/internal/codec/msgpackrpc"
	"github.com/vigorvim/vigor/internal/rpc"
	"github.com/vigorvim/vigor/internal/wire"
)

// busyPeer is the peer of TestInvariants: it answers "echo" with its
// argument, "nested" by calling the session back first, and "slow" only
// when its ctx ends or after a moment. It counts what it was sent.
type busyPeer struct {
	sess  *rpc.Session
	notes atomic.Int64
}

func (p *busyPeer) Request(ctx context.Context, m *wire.Message) any {
	switch m.Method {
	case "nested":
		raw, err := p.sess.Call(ctx, "inner", []any{m.Params[0]})
		if err != nil {
			return err.Error()
		}
		return raw
	case "slow":
		select {
		case <-ctx.Done():
		case <-time.After(time.Millisecond):
		}
	}
	return m.Params[0]
}

func (p *busyPeer) Notification(context.Context, *wire.Message) { p.notes.Add(1) }

// served is the session's handler in TestInvariants: it answers "inner"
// and "ping" with their argument ("ping" after a call of its own to the
// peer, so the re-entrancy goes both ways), and checks that notifications
// run one at a time, each sender's in order.
type served struct {
	peer    func() *rpc.Session // the session under test, for calls from handlers
	running atomic.Int32
	mu      sync.Mutex
	last    map[string]int64 // the last seq of each sender's notifications
	errs    []error
}

func (h *served) fail(err error) {
	h.mu.Lock()
	h.errs = append(h.errs, err)
	h.mu.Unlock()
}

func (h *served) Request(ctx context.Context, m *wire.Message) any {
	if m.Method == "ping" {
		if _, err := h.peer().Call(ctx, "echo", []any{"pong"}); err != nil && !errors.Is(err, rpc.ErrClosed) && ctx.Err() == nil {
			h.fail(fmt.Errorf("call from a handler: %w", err))
		}
	}
	return m.Params[0]
}

func (h *served) Notification(ctx context.Context, m *wire.Message) {
	if h.running.Add(1) != 1 {
		h.fail(errors.New("two notifications run at once"))
	}
	defer h.running.Add(-1)
	var from string
	var seq int64
	if msgpackrpc.Unmarshal(m.Params[0], &from) != nil || msgpackrpc.Unmarshal(m.Params[1], &seq) != nil {
		h.fail(fmt.Errorf("bad notification %v", m.Params))
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if seq != h.last[from]+1 {
		h.errs = append(h.errs, fmt.Errorf("notification %d of %s after %d", seq, from, h.last[from]))
	}
	h.last[from] = seq
}

// The session's state keeps its invariants (checked on every change:
// rpc.CheckDeep) with direct reads off and on, under many goroutines
// calling, the peer calling back re-entrantly and calling in turn,
// notifications both ways, calls cancelled while they wait, and the input
// ending mid-flight: every call returns its answer, its ctx's cause or
// ErrClosed, Run returns, and nothing is left behind.
func TestInvariants(t *testing.T) {
	for _, direct := range []bool{false, true} {
		for round := 0; round < 3; round++ {
			t.Run(fmt.Sprintf("direct=%v/%d", direct, round), func(t *testing.T) {
				invariantsRound(t, direct, round == 2)
			})
		}
	}
}

func invariantsRound(t *testing.T, direct, cutMidFlight bool) {
	aR, aW, bR, bW := rpc.Pipes(t) // peer -> session, session -> peer
	var sess *rpc.Session
	h := &served{peer: func() *rpc.Session { return sess }, last: make(map[string]int64)}
	opts := rpc.Options{Handler: h}
	var in io.Reader = aR
	if direct {
		opts.Input = rpc.NewInput(aR)
		in = opts.Input
	}
	sess = rpc.New(msgpackrpc.New(in), bW, opts)
	if direct != rpc.DirectReadsOn(sess) && direct {
		t.Skip("no direct reads on this platform")
	}
	rpc.CheckDeep(sess)
	peer := &busyPeer{}
	peer.sess = rpc.New(msgpackrpc.New(bR), aW, rpc.Options{Handler: peer})
	rpc.CheckDeep(peer.sess)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	runDone, peerDone := make(chan error, 1), make(chan error, 1)
	go func() { runDone <- sess.Run(ctx) }()
	go func() { peerDone <- peer.sess.Run(ctx) }()

	const goroutines, n = 8, 150
	cut := make(chan struct{})
	var wg sync.WaitGroup
	errs := make(chan error, 2*goroutines)
	var sent atomic.Int64
	// ok says whether err is what a call may end with: after the cut,
	// ErrClosed; for a cancelled call, its cause.
	ok := func(err error, cancelled bool) bool {
		return err == nil || (cutMidFlight && errors.Is(err, rpc.ErrClosed)) || (cancelled && errors.Is(err, context.Canceled))
	}
	for g := 0; g < goroutines; g++ {
		wg.Add(2)
		// The session's callers.
		go func() {
			defer wg.Done()
			for i := 0; i < n; i++ {
				want := fmt.Sprintf("g%d-%d", g, i)
				method := [...]string{"echo", "nested", "echo", "slow", "echo"}[i%5]
				cctx, ccancel := context.WithCancel(ctx)
				if i%11 == 0 {
					go ccancel() // cancelled while it waits, or before
				}
				raw, err := sess.Call(cctx, method, []any{want})
				cancelled := cctx.Err() != nil
				ccancel()
				if !ok(err, cancelled) {
					errs <- fmt.Errorf("call %s %s: %w", method, want, err)
					return
				}
				if err == nil {
					var got string
					if e := msgpackrpc.Unmarshal(raw, &got); e != nil || got != want {
						errs <- fmt.Errorf("call %s %s: got %s", method, want, raw)
						return
					}
				}
				if i%3 == 0 {
					if err := sess.Notify(ctx, "note", []any{want}); !ok(err, false) {
						errs <- fmt.Errorf("notify: %w", err)
						return
					} else if err == nil {
						sent.Add(1)
					}
				}
			}
		}()
		// The peer's callers: requests and notifications, in order per
		// goroutine.
		go func() {
			defer wg.Done()
			from := fmt.Sprintf("p%d", g)
			for i := 1; i <= n; i++ {
				select {
				case <-cut:
					return
				default:
				}
				if err := peer.sess.Notify(ctx, "seq", []any{from, i}); err != nil {
					return // the cut closed the peer's writes
				}
				if i%4 == 0 {
					want := fmt.Sprintf("%s-%d", from, i)
					raw, err := peer.sess.Call(ctx, "ping", []any{want})
					if err != nil {
						return
					}
					var got string
					if e := msgpackrpc.Unmarshal(raw, &got); e != nil || got != want {
						errs <- fmt.Errorf("ping %s: got %s", want, raw)
						return
					}
				}
			}
		}()
	}
	if cutMidFlight {
		// The editor goes away while calls are under way.
		time.Sleep(20 * time.Millisecond)
		close(cut)
		aW.Close()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("the calls hung")
	}
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	aW.Close()
	select {
	case <-runDone:
	case <-time.After(20 * time.Second):
		t.Fatal("Run did not return after its input closed")
	}
	bW.Close()
	<-peerDone
	if err := rpc.CheckEnded(sess); err != nil {
		t.Error(err)
	}
	if err := sess.Err(); !errors.Is(err, rpc.ErrClosed) {
		t.Errorf("Err() = %v, want ErrClosed", err)
	}
	if _, err := sess.Call(context.Background(), "echo", []any{"late"}); !errors.Is(err, rpc.ErrClosed) {
		t.Errorf("a call after the end: %v, want ErrClosed", err)
	}
	h.mu.Lock()
	for _, err := range h.errs {
		t.Error(err)
	}
	h.mu.Unlock()
	if !cutMidFlight && peer.notes.Load() != sent.Load() {
		t.Errorf("the peer got %d notifications, want %d", peer.notes.Load(), sent.Load())
	}
}
