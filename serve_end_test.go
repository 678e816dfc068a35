package vigor

import (
	"context"
	"testing"
	"time"

	"github.com/vigorvim/vigor/internal/protocol"
)

// endMargin is how late after its budget serve may return on a loaded
// machine.
const endMargin = 500 * time.Millisecond

// checkWithin fails the test unless serve has returned within d of begin.
func checkWithin(t *testing.T, e *fakeEditor, begin time.Time, d time.Duration) {
	t.Helper()
	checkEqual(t, "exit code", e.wait(), 0)
	if took := time.Since(begin); took > d+endMargin {
		t.Errorf("%s: serve returned %v after the end, want it within %v", e.kind, took, d)
	}
}

// When the editor goes away, serve returns within the default unload
// budget even if handlers ignore their ctx and never return: a request
// handler, a notification handler, a request_async handler.
func TestServeEndsDespiteStuckHandlers(t *testing.T) {
	budget := protocol.UnloadBudget * time.Millisecond
	for _, how := range []string{"request", "notify", "async"} {
		t.Run(how, func(t *testing.T) {
			t.Parallel()
			forEachEditor(t, func(t *testing.T, kind string) {
				release := make(chan struct{})
				t.Cleanup(func() { close(release) })
				started := make(chan struct{}, 1)
				e := startServe(t, kind, serveOpts{}, func(ctx context.Context, p *Plugin) error {
					p.Handle("stuck", func() { started <- struct{}{}; <-release })
					return nil
				})
				e.ready()
				switch how {
				case "request":
					e.requestAsync("stuck")
				case "notify":
					e.notify("stuck")
				case "async":
					e.notify(protocol.MethodAsync, "ok:1", "ng:1", "stuck", []any{})
				}
				waitChan(t, started, "the handler to start")
				begin := time.Now()
				e.closeInput()
				checkWithin(t, e, begin, budget)
			})
		})
	}
}

// $unload keeps to its budget even when it cannot run: behind a
// notification handler that never returns, the process exits when the
// budget ends.
func TestServeUnloadBehindStuckNotification(t *testing.T) {
	forEachEditor(t, func(t *testing.T, kind string) {
		release := make(chan struct{})
		t.Cleanup(func() { close(release) })
		started := make(chan struct{}, 1)
		e := startServe(t, kind, serveOpts{}, func(ctx context.Context, p *Plugin) error {
			p.Handle("stuck", func() { started <- struct{}{}; <-release })
			return nil
		})
		e.ready()
		e.notify("stuck")
		waitChan(t, started, "the handler to start")
		const budget = 300 * time.Millisecond
		begin := time.Now()
		e.notify(protocol.MethodUnload, budget.Milliseconds())
		checkWithin(t, e, begin, budget)
	})
}

// The stuck check ends with serve: an interrupt whose budget outlasts
// the process's exit (an $unload behind a notification handler that never
// returns) writes nothing after serve returned.
func TestServeStuckCheckEndsWithServe(t *testing.T) {
	forEachEditor(t, func(t *testing.T, kind string) {
		release := make(chan struct{})
		t.Cleanup(func() { close(release) })
		started := make(chan struct{}, 1)
		e := startServe(t, kind, serveOpts{}, func(ctx context.Context, p *Plugin) error {
			p.Handle("stuck", func() { started <- struct{}{}; <-release })
			return nil
		})
		e.ready()
		e.notify("stuck")
		waitChan(t, started, "the handler to start")
		e.notify(protocol.MethodInterrupt, "stop", 300)
		e.notify(protocol.MethodUnload, 50)
		e.wait()
		n := len(e.stderr.String())
		time.Sleep(600 * time.Millisecond)
		if late := e.stderr.String()[n:]; late != "" {
			t.Errorf("the plugin wrote after serve returned: %q", late)
		}
	})
}

// SIGTERM ends a plugin whose setup never returns, and so does the end
// of the channel.
func TestServeEndsDuringSetup(t *testing.T) {
	budget := protocol.UnloadBudget * time.Millisecond
	for _, how := range []string{"sigterm", "eof"} {
		t.Run(how, func(t *testing.T) {
			t.Parallel()
			forEachEditor(t, func(t *testing.T, kind string) {
				release := make(chan struct{})
				t.Cleanup(func() { close(release) })
				started := make(chan struct{}, 1)
				ctx, term := context.WithCancel(context.Background())
				defer term()
				e := startServe(t, kind, serveOpts{ctx: ctx}, func(ctx context.Context, p *Plugin) error {
					started <- struct{}{}
					<-release
					return nil
				})
				waitChan(t, started, "setup to start")
				begin := time.Now()
				if how == "sigterm" {
					term()
				} else {
					e.closeInput()
				}
				checkWithin(t, e, begin, budget)
			})
		})
	}
}
