package e2e

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/vigorvim/vigor/internal/editortest"
)

func TestCallbacks(t *testing.T) {
	each(t, editortest.Options{}, func(t *testing.T, ed *editortest.Editor) {
		ed.MustExec(t, `let g:got = []`)
		ed.MustExec(t, `let g:id = vigor#callback#register({... -> add(g:got, a:000)})`)
		ed.MustExec(t, `let g:once = vigor#callback#register({x -> x * 2}, {'once': v:true})`)
		mustEqual(t, ed, "ids differ", ed.MustEval(t, `g:id !=# g:once`), int64(1))
		// The same funcref registered twice gets two ids (denops collides).
		ed.MustExec(t, `let g:F = {-> 1}`)
		mustEqual(t, ed, "same funcref, new id", ed.MustEval(t, `vigor#callback#register(g:F) !=# vigor#callback#register(g:F)`), int64(1))
		ed.MustEval(t, `vigor#callback#call(g:id, 1, 'a')`)
		ed.MustEval(t, `vigor#callback#call(g:id)`)
		mustEqual(t, ed, "args", ed.MustEval(t, `g:got`), []any{[]any{int64(1), "a"}, []any{}})
		mustEqual(t, ed, "once", ed.MustEval(t, `vigor#callback#call(g:once, 21)`), int64(42))
		mustThrow(t, ed, `vigor#callback#call(g:once, 1)`, "[vigor] there is no callback "+"vigor:")
		ed.MustEval(t, `vigor#callback#unregister(g:id)`)
		ed.MustEval(t, `vigor#callback#unregister(g:id)`) // twice is fine
		mustThrow(t, ed, `vigor#callback#call(g:id)`, "there is no callback")
		ed.MustEval(t, `vigor#callback#register({-> 0})`)
		ed.MustEval(t, `vigor#callback#clear()`)
		mustEqual(t, ed, "cleared", ed.MustEval(t, `vigor#callback#count()`), int64(0))
	})
}

// An editor that goes away mid-call: the plugin's handlers see their
// context end, its unload hooks run, and its process exits.
func TestEditorExitsMidCall(t *testing.T) {
	for _, kind := range editortest.Kinds {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			ed := editortest.Start(t, kind, main1())
			waitLoaded(t, ed, "vtest")
			pid := int(ed.MustEval(t, `vigor#request('vtest', 'pid', [])`).(int64))
			ed.MustEval(t, `vigor#request_async('vtest', 'block', [], {v -> 0}, {e -> 0})`)
			time.Sleep(100 * time.Millisecond)
			ed.Close()
			deadline := time.Now().Add(10 * time.Second)
			for syscall.Kill(pid, 0) == nil {
				if time.Now().After(deadline) {
					t.Fatalf("%s: the plugin process %d is still running after its editor quit", kind, pid)
				}
				time.Sleep(20 * time.Millisecond)
			}
			logf := filepath.Join(ed.Cache, "log", "vtest.log")
			data, _ := os.ReadFile(logf)
			if len(data) == 0 {
				t.Fatalf("%s: no log at %s", kind, logf)
			}
		})
	}
}

// While the first build runs, the editor keeps answering.
func TestEditorRespondsWhileBuilding(t *testing.T) {
	for _, kind := range editortest.Kinds {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			ed := editortest.Start(t, kind, editortest.Options{RTP: []string{hello()}, Cache: filepath.Join(t.TempDir(), "cache")})
			st := ed.MustEval(t, `vigor#plugin#status('hello')`)
			if st != "reserved" && st != "building" {
				t.Fatalf("%s: status right after start is %v, want reserved or building", kind, st)
			}
			// The editor answers while the build runs (the status is still
			// not loaded after the answer).
			mustEqual(t, ed, "eval while building", ed.MustEval(t, `[1 + 1, vigor#plugin#status('hello') !=# 'loaded']`), []any{int64(2), int64(1)})
			mustEqual(t, ed, "greet", ed.MustEval(t, `vigor#request('hello', 'greet', ['built'])`), "Hello, built!")
		})
	}
}

// request_async calls that are running when their plugin unloads or dies
// get their failure callback, and both callbacks are released.
func TestRequestAsyncOnUnloadAndCrash(t *testing.T) {
	each(t, main1(), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "vtest")
		ed.MustExec(t, `let g:ng = []`)
		ed.MustEval(t, `vigor#request_async('vtest', 'block', [], {v -> 0}, {e -> add(g:ng, e.message)})`)
		time.Sleep(100 * time.Millisecond)
		ed.MustEval(t, `vigor#plugin#reload('vtest')`)
		ed.WaitFor(t, `len(g:ng) == 1`, 10*time.Second)
		mustEqual(t, ed, "unloaded", ed.MustEval(t, `g:ng[0]`), "plugin unloaded")
		waitEvents(t, ed, "vtest", 6)
		waitLoaded(t, ed, "vtest")
		ed.MustEval(t, `vigor#request_async('vtest', 'block', [], {v -> 0}, {e -> add(g:ng, e.message)})`)
		time.Sleep(100 * time.Millisecond)
		mustThrow(t, ed, `vigor#request('vtest', 'die', [])`, "exited during the call")
		ed.WaitFor(t, `len(g:ng) == 2`, 10*time.Second)
		mustEqual(t, ed, "died", ed.MustEval(t, `g:ng[1]`), "the plugin process exited (status 4) before it answered")
		mustEqual(t, ed, "callbacks left", ed.MustEval(t, `vigor#callback#count()`), int64(0))
	})
}

// When the editor quits, the plugin's unload hooks still run (Vim stops
// its jobs with SIGTERM; Neovim closes the channel).
func TestUnloadHooksRunWhenEditorQuits(t *testing.T) {
	for _, kind := range editortest.Kinds {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			mark := filepath.Join(t.TempDir(), "unloaded")
			opts := main1()
			opts.Env = []string{"VTEST_UNLOAD_FILE=" + mark}
			ed := editortest.Start(t, kind, opts)
			waitLoaded(t, ed, "vtest")
			ed.Close()
			deadline := time.Now().Add(10 * time.Second)
			for {
				if _, err := os.Stat(mark); err == nil {
					return
				}
				if time.Now().After(deadline) {
					t.Fatalf("%s: the unload hook did not run after the editor quit", kind)
				}
				time.Sleep(20 * time.Millisecond)
			}
		})
	}
}
