package e2e

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vigorvim/vigor/internal/editortest"
)

// :Vigor alone shows the status, as :Vigor status does, and neither fills
// :messages.
func TestVigorStatusCommand(t *testing.T) {
	each(t, editortest.Options{RTP: []string{hello()}}, func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "hello")
		for _, cmd := range []string{"Vigor status", "Vigor"} {
			got, err := ed.Eval("execute('" + cmd + "')")
			if s, _ := got.(string); err != nil || !strings.Contains(s, "hello: loaded") {
				t.Fatalf("%s: :%s = %#v, %v; want the status", ed.Kind, cmd, got, err)
			}
			// (execute() keeps what it captures out of :messages.)
			ed.MustExec(t, cmd)
			if m := ed.Messages(t); strings.Contains(m, "hello: loaded") {
				t.Fatalf("%s: :%s filled :messages: %s", ed.Kind, cmd, m)
			}
		}
	})
}

// :Vigor log lists the vigor command's own log with the plugins' logs.
func TestVigorLogListsOwnLog(t *testing.T) {
	cache := t.TempDir()
	each(t, editortest.Options{RTP: []string{hello()}, Cache: filepath.Join(cache, "c")}, func(t *testing.T, ed *editortest.Editor) {
		waitLoadedWithin(t, ed, "hello", coldBuild)
		ed.MustExec(t, "Vigor log")
		lines := ed.MustEval(t, "join(getline(1, '$'), \"\\n\")").(string)
		own := ed.MustEval(t, "vigor#_internal#conf#log_dir() . '/vigor.log'").(string)
		if !strings.Contains(lines, own) || !strings.Contains(lines, "hello.log") {
			t.Fatalf("%s: :Vigor log lists\n%s\nwithout %s", ed.Kind, lines, own)
		}
	})
}

// A lazy plugin that fails to build says so once, on its first use.
func TestLazyBuildFailureShownOnce(t *testing.T) {
	each(t, editortest.Options{RTP: rtp("lazyodd")}, func(t *testing.T, ed *editortest.Editor) {
		ed.WaitFor(t, "vigor#plugin#status('lazybroken') ==# 'lazy'", 30*time.Second)
		_ = ed.Exec("LazyBroken")
		waitState(t, ed, "lazybroken", "failed")
		m := ed.Messages(t)
		if n := strings.Count(m, "undefinedFunction"); n != 1 {
			t.Fatalf("%s: the build error is shown %d times: %s", ed.Kind, n, m)
		}
	})
}

// The health report warns about a lazy plugin whose setup did not define
// what its lazy.json declares, naming each.
func TestHealthLazyNotDefined(t *testing.T) {
	each(t, editortest.Options{RTP: rtp("lazyodd")}, func(t *testing.T, ed *editortest.Editor) {
		ed.WaitFor(t, "vigor#plugin#status('lazyundef') ==# 'lazy'", 30*time.Second)
		_ = ed.Exec("LazyUndef")
		waitLoaded(t, ed, "lazyundef")
		var report [][]any
		if err := ed.EvalInto("vigor#health#report()", &report); err != nil {
			t.Fatal(err)
		}
		for _, item := range report {
			if msg, _ := item[1].(string); strings.HasPrefix(msg, "lazyundef: ") {
				if item[0] != "warn" || !strings.Contains(msg, ":LazyUndef, LazyUndefFn()") {
					t.Fatalf("%s: the health report says %v", ed.Kind, item)
				}
				return
			}
		}
		t.Fatalf("%s: the health report does not name lazyundef: %v", ed.Kind, report)
	})
}
