package rpc

import (
	"io"
	"strings"
	"testing"

	"github.com/vigorvim/vigor/internal/codec/vimjson"
	"github.com/vigorvim/vigor/internal/wire"
)

// A reply channel goes back for reuse only when nothing was or will be
// sent on it (Session.slots): a caller that gave up after a reader took
// its entry must not hand its channel, which holds or will get the late
// reply, to the next call.
func TestSlotWithLateReplyNotReused(t *testing.T) {
	s := New(vimjson.New(strings.NewReader("")), io.Discard, Options{})
	for range 100 { // sync.Pool may drop what it is given; look many times
		ch := s.slot()
		s.update(func(st *state) { st.nextID++; st.pending[st.nextID] = ch })
		id := s.st.nextID
		// A reader takes the entry and sends the reply; the caller, whose
		// ctx ended meanwhile, gives up.
		s.take(id) <- response{result: wire.Raw(`"late"`)}
		s.drop(id, ch)
		next := s.slot()
		select {
		case r := <-next:
			t.Fatalf("a new call's channel holds the reply %s of an earlier call", r.result)
		default:
		}
		// The new call gets its answer, after which its channel is reused.
		s.update(func(st *state) { st.nextID++; st.pending[st.nextID] = next })
		s.take(s.st.nextID) <- response{result: wire.Raw(`1`)}
		<-next
		s.reuse(next)
	}
}

// A caller that removed its own entry (it read its reply itself, or gave
// up first) gives its channel back, and the next call reuses it: a call
// makes no channel.
func TestSlotReusedAfterOwnRemoval(t *testing.T) {
	s := New(vimjson.New(strings.NewReader("")), io.Discard, Options{})
	allocs := testing.AllocsPerRun(100, func() {
		ch := s.slot()
		s.update(func(st *state) { st.nextID++; st.pending[st.nextID] = ch })
		s.drop(s.st.nextID, ch)
	})
	if allocs > 0 {
		t.Errorf("%v allocations a call, want 0", allocs)
	}
}
