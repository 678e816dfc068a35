package rpc

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vigorvim/vigor/internal/codec/msgpackrpc"
	"github.com/vigorvim/vigor/internal/codec/vimjson"
	"github.com/vigorvim/vigor/internal/wire"
)

// holdWriter blocks its first Write until release is closed, and records
// every Write; fail, if set, is the error of every Write after the first.
type holdWriter struct {
	started chan struct{}
	release chan struct{}
	fail    error
	mu      sync.Mutex
	writes  []string
}

func (w *holdWriter) Write(b []byte) (int, error) {
	w.mu.Lock()
	first := len(w.writes) == 0
	w.writes = append(w.writes, string(b))
	w.mu.Unlock()
	if first {
		close(w.started)
		<-w.release
		return len(b), nil
	}
	if w.fail != nil {
		return 0, w.fail
	}
	return len(b), nil
}

// queued waits until n frames wait for the next write.
func queued(t *testing.T, s *Session, n int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		s.wr.mu.Lock()
		k := len(s.wr.kinds)
		s.wr.mu.Unlock()
		if k == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d frames queued, want %d", k, n)
		}
	}
}

// The messages of writers that come while a write is under way go out
// together in the next write, in the order they were queued, each writer
// returning once its frame is written, and Options.Wrote sees them in that
// order.
func TestWritesCoalesce(t *testing.T) {
	w := &holdWriter{started: make(chan struct{}), release: make(chan struct{})}
	var mu sync.Mutex
	var wrote []wire.Kind
	s := New(vimjson.New(strings.NewReader("")), w, Options{Wrote: func(k wire.Kind) {
		mu.Lock()
		wrote = append(wrote, k)
		mu.Unlock()
	}})
	errs := make(chan error, 8)
	go func() { errs <- s.Notify(context.Background(), "first", nil) }()
	<-w.started
	var want strings.Builder
	for i := range 7 {
		go func() { errs <- s.Respond(int64(i+1), i) }()
		queued(t, s, i+1) // one at a time, so that the order is known
		want.WriteString(fmt.Sprintf("[%d,%d]\n", i+1, i))
	}
	select {
	case err := <-errs:
		t.Fatalf("a write returned (%v) before its frame was written", err)
	default:
	}
	close(w.release)
	for range 8 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	if len(w.writes) != 2 {
		t.Fatalf("%d writes, want 2 (the first, and the 7 queued together): %q", len(w.writes), w.writes)
	}
	if got := w.writes[1]; got != want.String() {
		t.Errorf("second write %q, want %q", got, want.String())
	}
	if len(wrote) != 8 || wrote[0] != wire.Notification || wrote[7] != wire.Response {
		t.Errorf("Wrote saw %v, want a notification and 7 responses", wrote)
	}
}

// When a coalesced write fails, every writer of its frames gets the error,
// and so does every later writer: the stream is out of step.
func TestCoalescedWriteFails(t *testing.T) {
	broken := errors.New("broken pipe")
	w := &holdWriter{started: make(chan struct{}), release: make(chan struct{}), fail: broken}
	s := New(vimjson.New(strings.NewReader("")), w, Options{})
	errs := make(chan error, 4)
	go func() { errs <- s.Notify(context.Background(), "first", nil) }()
	<-w.started
	for i := range 3 {
		go func() { errs <- s.Notify(context.Background(), "queued", []any{i}) }()
	}
	queued(t, s, 3)
	close(w.release)
	failed := 0
	for range 4 {
		if err := <-errs; err != nil {
			if !errors.Is(err, ErrClosed) || !errors.Is(err, broken) {
				t.Errorf("error %v, want ErrClosed wrapping the write's", err)
			}
			failed++
		}
	}
	if failed != 3 {
		t.Errorf("%d writers failed, want the 3 queued", failed)
	}
	if err := s.Notify(context.Background(), "later", nil); !errors.Is(err, broken) {
		t.Errorf("a later write: %v, want the write's error", err)
	}
	if n := len(w.writes); n != 2 {
		t.Errorf("%d writes, want 2", n)
	}
}

// A call made while another is pending turns direct reads off for the
// next sharedRun calls: among concurrent callers, the one alone for a
// moment must not stop Run's reading for the others.
func TestOverlapTurnsDirectReadsOff(t *testing.T) {
	aR, aW, bR, bW := Pipes(t)
	in := NewInput(aR)
	s := New(msgpackrpc.New(in), bW, Options{Handler: nopHandler{}, Input: in})
	runDone := make(chan error, 1)
	go func() { runDone <- s.Run(context.Background()) }()
	peerDone := make(chan struct{})
	go func() {
		// Answers the two calls only once both have come.
		defer close(peerDone)
		c := msgpackrpc.New(bR)
		var ids []int64
		for len(ids) < 2 {
			var m wire.Message
			if err := c.ReadMessage(&m); err != nil {
				return
			}
			ids = append(ids, m.ID)
		}
		for _, id := range ids {
			b, _ := c.AppendResponse(nil, id, "ok")
			if _, err := aW.Write(b); err != nil {
				return
			}
		}
	}()
	errs := make(chan error, 2)
	for range 2 {
		go func() { _, err := s.Call(context.Background(), "m", nil); errs <- err }()
	}
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	<-peerDone
	s.mu.Lock()
	got := s.st.sharedUntil
	s.mu.Unlock()
	if got != 2+sharedRun {
		t.Errorf("sharedUntil %d, want %d: the overlapping call did not turn direct reads off", got, 2+sharedRun)
	}
	aW.Close()
	<-runDone
}

type nopHandler struct{}

func (nopHandler) Request(context.Context, *wire.Message) any  { return nil }
func (nopHandler) Notification(context.Context, *wire.Message) {}
