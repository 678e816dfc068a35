package e2e

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/vigorvim/vigor/internal/editortest"
)

func kidsOpts() editortest.Options { return editortest.Options{RTP: rtp("kids")} }

// childWait is how long a plugin's child may outlive the plugin: the
// runtime's grace between SIGTERM and SIGKILL and a wide margin for a
// loaded machine.
const childWait = 10 * time.Second

// waitChildGone waits until the plugin's child pid has exited, failing the
// test after childWait (and killing it, so that it does not outlive the
// test).
func waitChildGone(t *testing.T, ed *editortest.Editor, pid, plugin int, log, what string) {
	t.Helper()
	start := time.Now()
	for time.Since(start) < childWait {
		if gone(pid) {
			t.Logf("%s: %s: the child exited %v after the plugin", ed.Kind, what, time.Since(start).Round(time.Millisecond))
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	// What the child and the plugin were then tells a plugin that did not
	// end (its exit never came) from a child that its end missed.
	child, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	state := "gone"
	if !gone(plugin) {
		b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stat", plugin))
		state = "still running: " + string(b)
	}
	_ = syscall.Kill(pid, syscall.SIGKILL)
	// The end of the plugin's log says how far its exit went.
	tail, _ := os.ReadFile(log)
	if i := len(tail) - 4000; i > 0 {
		tail = tail[i:]
	}
	t.Errorf("%s: %s: child process %d of the plugin is still there %v after the plugin ended (child: %s; the plugin %d: %s); the end of its log %s:\n%s",
		ed.Kind, what, pid, childWait, bytes.TrimSpace(child), plugin, state, log, tail)
}

// kidsChildren starts two children of the plugin kids (one that ignores
// SIGTERM) and a daemon in a session of its own, which the test kills
// when it ends.
func kidsChildren(t *testing.T, ed *editortest.Editor) (children []int, daemon int) {
	t.Helper()
	for _, stubborn := range []string{"v:false", "v:true"} {
		children = append(children, int(ed.MustEval(t, "vigor#request('kids', 'child', ["+stubborn+"])").(int64)))
	}
	daemon = int(ed.MustEval(t, "vigor#request('kids', 'daemon', [])").(int64))
	t.Cleanup(func() { _ = syscall.Kill(daemon, syscall.SIGKILL) })
	return children, daemon
}

// The processes that a plugin starts (a language server, a watcher) end
// with it, however it ends: a reload, an unload, a kill from outside, a
// crash, the editor quitting or being killed. The runtime ends the
// plugin's process group once the plugin has exited, and the SDK as it
// exits (the editor may be gone then): SIGTERM first, SIGKILL after a
// grace (the second child ignores SIGTERM). A daemon that the plugin
// starts in a session of its own (the documented way to keep one)
// outlives the plugin. After a reload, a kill and a crash the plugin
// answers again.
func TestChildrenEndWithPlugin(t *testing.T) {
	each(t, kidsOpts(), func(t *testing.T, ed *editortest.Editor) {
		dir := filepath.Join(rtp("kids")[0], "vigor", "kids")
		for _, end := range []string{"reload", "unload", "kill", "crash", "editor killed", "quit"} {
			e := ed
			if end == "editor killed" {
				e = editortest.Start(t, ed.Kind, kidsOpts())
			}
			waitLoaded(t, e, "kids")
			pid := pidOf(t, e, "kids")
			log := e.MustEval(t, "vigor#_internal#conf#log_file('kids')").(string)
			children, daemon := kidsChildren(t, e)
			switch end {
			case "reload":
				reloaded(t, e, "kids")
			case "unload":
				e.MustEval(t, "vigor#plugin#unload('kids')")
				waitState(t, e, "kids", "stopped")
			case "kill":
				if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
					t.Fatal(err)
				}
			case "crash":
				e.MustEval(t, "vigor#notify('kids', 'crash', [])")
			case "editor killed":
				if err := syscall.Kill(editorPid(t, e), syscall.SIGKILL); err != nil {
					t.Fatal(err)
				}
			case "quit":
				e.Close()
			}
			for _, c := range children {
				waitChildGone(t, e, c, pid, log, end)
			}
			if gone(daemon) {
				t.Errorf("%s: %s: the daemon %d in a session of its own has gone with the plugin", e.Kind, end, daemon)
			}
			switch end {
			case "unload":
				e.MustEval(t, "vigor#plugin#load('kids', '"+dir+"')")
			case "kill", "crash":
				restarted(t, e, end, pid)
			}
		}
	})
}

// restarted waits until the plugin kids answers from a process other than
// old.
func restarted(t *testing.T, ed *editortest.Editor, what string, old int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		if ed.MustEval(t, "vigor#plugin#status('kids')") == "loaded" && pidOf(t, ed, "kids") != old {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: %s: the plugin was not restarted within 30s; messages: %s", ed.Kind, what, ed.Messages(t))
		}
		time.Sleep(20 * time.Millisecond)
	}
}
