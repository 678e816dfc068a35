package vigor

import (
	"context"
	"testing"
	"time"

	"github.com/vigorvim/vigor/internal/protocol"
)

// The plugin (host.Conn) answers $pending [token] with FuncPending(token,
// running): true from the moment it read the request, while it waits to start
// behind a notification and while it runs; false once the answer has been
// written (before the answer to the probe), and for a token it never read.
// The same for a request_async call, by its success id.
func TestServePending(t *testing.T) {
	forEachEditor(t, func(t *testing.T, kind string) {
		noteIn, noteOut := make(chan struct{}), make(chan struct{})
		reqIn, reqOut := make(chan struct{}), make(chan struct{})
		e := startServe(t, kind, serveOpts{}, func(ctx context.Context, p *Plugin) error {
			p.Handle("block", func() {
				close(noteIn)
				<-noteOut
			})
			p.Handle("wait", func() string {
				close(reqIn)
				<-reqOut
				return "done"
			})
			return nil
		})
		e.ready()
		probe := func(token int64, want bool) {
			t.Helper()
			e.notify(protocol.MethodPending, token)
			c := e.expect(protocol.FuncPending, false)
			checkEqual(t, "pending args", c.Args, []any{token, want})
		}
		probe(1, false) // not sent yet
		e.notify("block")
		waitChan(t, noteIn, "the notification to start")
		ans := e.requestAsync("wait") // token 1, queued behind block
		probe(1, true)
		close(noteOut)
		waitChan(t, reqIn, "the request to start")
		probe(1, true)
		close(reqOut)
		// answered asks about id until the answer is false: the SDK notes
		// an answer just after writing it (the runtime asks again a
		// second later).
		answered := func(id any) {
			t.Helper()
			for deadline := time.Now().Add(serveTimeout); ; {
				e.notify(protocol.MethodPending, id)
				if c := e.expect(protocol.FuncPending, false); c.Args[1] == false {
					return
				}
				if time.Now().After(deadline) {
					t.Fatalf("%v still runs after its answer", id)
				}
				time.Sleep(time.Millisecond)
			}
		}
		checkEqual(t, "answer", e.await(ans, "wait"), []any{"done", nil})
		answered(int64(1))

		// request_async, by its success id: the answer comes before the
		// answer to the probe.
		noteIn, noteOut = make(chan struct{}), make(chan struct{})
		reqIn, reqOut = make(chan struct{}), make(chan struct{})
		probeAsync := func(want bool) {
			t.Helper()
			e.notify(protocol.MethodPending, "vigor:1")
			c := e.expect(protocol.FuncPending, false)
			checkEqual(t, "pending args", c.Args, []any{"vigor:1", want})
		}
		probeAsync(false)
		e.notify("block")
		waitChan(t, noteIn, "the notification to start")
		e.notify(protocol.MethodAsync, "vigor:1", "vigor:2", "wait", []any{})
		probeAsync(true)
		close(noteOut)
		waitChan(t, reqIn, "the request_async handler to start")
		probeAsync(true)
		close(reqOut)
		e.expect(protocol.FuncResolve, false)
		answered("vigor:1")
	})
}
