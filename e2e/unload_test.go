package e2e

import (
	"errors"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/vigorvim/vigor/internal/editortest"
)

// An unload keeps to one budget, g:vigor#unload_timeout: the plugin waits
// for its request_async handlers and its unload hooks only within it,
// reports, and exits on its own, before the runtime would kill it (the
// budget and a grace of 500 ms). A handler that ignores its ctx fails its
// call when the process exits (UnloadPost); a hook that ignores it fails
// the unload (UnloadFail, with why).
func TestUnloadBudget(t *testing.T) {
	const budget, grace = 1500 * time.Millisecond, 500 * time.Millisecond
	opts := editortest.Options{RTP: rtp("h2"), Cmds: []string{
		`let g:vigor#unload_timeout = 1500`,
		`autocmd User VigorPluginUnloadPre:h2unload let g:h2_begin = reltime()`,
		`autocmd User VigorPluginUnloadPost:h2unload,VigorPluginUnloadFail:h2unload let g:h2_took = reltimefloat(reltime(g:h2_begin))`,
	}}
	each(t, opts, func(t *testing.T, ed *editortest.Editor) {
		dir := filepath.Join(rtp("h2")[0], "vigor", "h2unload")
		for _, tc := range []struct {
			hang  bool
			event string
		}{{false, unPost}, {true, unFail}} {
			if tc.hang {
				ed.MustEval(t, `vigor#plugin#load('h2unload', '`+dir+`')`)
			}
			waitLoaded(t, ed, "h2unload")
			pid := int(ed.MustEval(t, `vigor#request('h2unload', 'pid', [])`).(int64))
			if tc.hang {
				ed.MustEval(t, `vigor#request('h2unload', 'hang_hook', [])`)
			}
			ed.MustExec(t, `let g:h2_failed = [] | unlet! g:h2_took`)
			ed.MustEval(t, `vigor#request_async('h2unload', 'stuck', [], {v -> 0}, {e -> add(g:h2_failed, e.message)})`)
			ed.MustEval(t, `vigor#plugin#unload('h2unload')`)
			ed.WaitFor(t, `exists('g:h2_took')`, 10*time.Second)
			took := time.Duration(ed.MustEval(t, `g:h2_took`).(float64) * float64(time.Second))
			evs := eventsFor(t, ed, "h2unload")
			mustEqual(t, ed, "the last event", evs[len(evs)-1], tc.event)
			msgs := ed.Messages(t)
			if strings.Contains(msgs, "so it was killed") {
				t.Fatalf("%s: the plugin was killed (after %v): %s", ed.Kind, took, msgs)
			}
			if tc.hang && !strings.Contains(msgs, "[vigor] h2unload: unload failed: an unload hook did not return within the unload budget (1500 ms, g:vigor#unload_timeout)") {
				t.Fatalf("%s: messages: %s", ed.Kind, msgs)
			}
			if took > budget+grace/2 {
				t.Fatalf("%s: the unload took %v, want it within the budget of %v", ed.Kind, took, budget)
			}
			t.Logf("%s: hang %v: the unload took %v", ed.Kind, tc.hang, took)
			mustEqual(t, ed, "the stuck call", ed.MustEval(t, `g:h2_failed`), []any{"the plugin process exited (status 0) before it answered"})
			if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
				t.Fatalf("%s: process %d is still there (kill -0: %v)", ed.Kind, pid, err)
			}
		}
	})
}
