package rpc_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vigorvim/vigor/internal/rpc"
	"github.com/vigorvim/vigor/internal/wire"
)

// Options.Large hears of every large message, read or written, and of no
// small one: the SDK gives the memory back after them.
func TestLargeMessages(t *testing.T) {
	forEachCodec(t, func(t *testing.T, cc codecCase) {
		var n atomic.Int32
		big := strings.Repeat("x", rpc.LargeMessage)
		h := &handler{request: func(ctx context.Context, s *rpc.Session, m *wire.Message) any {
			if m.Method == "echo" {
				return big // a large answer to a large request
			}
			return "ok"
		}}
		e := start(t, cc, h, rpc.Options{Large: func() { n.Add(1) }})
		e.ed.request(1, "small", "x")
		e.ed.expectResponse(1)
		if got := n.Load(); got != 0 {
			t.Fatalf("Large was called %d times for small messages", got)
		}
		e.ed.request(2, "echo", big)
		for f := e.ed.next(); f.kind != wire.Response || f.id != 2; f = e.ed.next() {
			// (Vim gets a large answer in chunks first.)
		}
		// The session tells Large of a message it wrote once the write has
		// returned, which may be after the peer has read it.
		deadline := time.Now().Add(5 * time.Second)
		for n.Load() < 2 && time.Now().Before(deadline) {
			time.Sleep(time.Millisecond)
		}
		if got := n.Load(); got != 2 {
			t.Fatalf("Large was called %d times for a large request and its large answer, want 2", got)
		}
	})
}
