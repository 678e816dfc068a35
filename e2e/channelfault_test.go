package e2e

import (
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/vigorvim/vigor/internal/editortest"
	"github.com/vigorvim/vigor/internal/protocol"
)

func ha() editortest.Options { return editortest.Options{RTP: rtp("ha")} }

// pidOf returns the process id of plugin name (its pid handler).
func pidOf(t *testing.T, ed *editortest.Editor, name string) int {
	t.Helper()
	v, err := evalWithin(t, ed, 20*time.Second, "vigor#request('"+name+"', 'pid', [])")
	if err != nil {
		t.Fatalf("%s: %s.pid: %v", ed.Kind, name, err)
	}
	return int(v.(int64))
}

// reloaded reloads plugin name and waits until its new process is loaded.
func reloaded(t *testing.T, ed *editortest.Editor, name string) {
	t.Helper()
	old := pidOf(t, ed, name)
	ed.MustEval(t, "vigor#plugin#reload('"+name+"')")
	deadline := time.Now().Add(30 * time.Second)
	for {
		if ed.MustEval(t, "vigor#plugin#status('"+name+"')") == "loaded" && pidOf(t, ed, name) != old {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: %s was not reloaded within 30s; messages: %s", ed.Kind, name, ed.Messages(t))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A plugin holds no pipe or socket but its own channel and stderr, also
// when other plugins run (on Vim, a job inherits the editor's ends of the
// pipes of the jobs started before it, and its sockets). So a plugin sees
// the end of its channel at once, although a sibling started after it is
// still running, and exits.
func TestPluginHoldsOnlyItsChannel(t *testing.T) {
	each(t, ha(), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "hafault")
		waitLoaded(t, ed, "hasib")
		// hafault starts after hasib: it would hold hasib's pipes.
		reloaded(t, ed, "hafault")
		var foreign []string
		if err := ed.EvalInto("vigor#request('hafault', 'fds', [])", &foreign); err != nil {
			t.Fatal(err)
		}
		if len(foreign) != 0 {
			t.Errorf("%s: the plugin holds pipes and sockets that are not its own: %s", ed.Kind, strings.Join(foreign, ", "))
		}
		// hasib starts after hafault: it would hold hafault's pipes, and
		// hafault would not see the end of its input while hasib runs.
		reloaded(t, ed, "hasib")
		pid := pidOf(t, ed, "hafault")
		ed.MustExec(t, "call vigor#_internal#host#stop(vigor#_internal#plugin#get('hafault').handle, 0)")
		start := time.Now()
		for !gone(pid) {
			if time.Since(start) > time.Second {
				_ = syscall.Kill(pid, syscall.SIGKILL)
				t.Fatalf("%s: the plugin did not exit within 1s of the end of its channel (hasib, started after it, still runs; the unload budget is %d ms)",
					ed.Kind, protocol.UnloadBudget)
			}
			time.Sleep(10 * time.Millisecond)
		}
		t.Logf("%s: the plugin exited %v after the end of its channel", ed.Kind, time.Since(start).Round(time.Millisecond))
	})
}
