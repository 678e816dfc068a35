package e2e

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/vigorvim/vigor/internal/editortest"
	"github.com/vigorvim/vigor/internal/protocol"
)

func h6() editortest.Options { return editortest.Options{RTP: rtp("h6")} }

// gone reports whether process pid has exited (a zombie that no one has
// reaped yet counts as exited: its parent, the editor, is gone).
func gone(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	// pid (comm) state ...: comm may hold spaces, the state follows the
	// last parenthesis.
	s := string(b)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2] == 'Z' || s[i+2] == 'X'
	}
	return false
}

// waitGone waits until process pid has exited, failing the test after d
// (and killing the process, so that it does not outlive the test).
func waitGone(t *testing.T, kind string, pid int, d time.Duration, what string) {
	t.Helper()
	start := time.Now()
	for time.Since(start) < d {
		if gone(pid) {
			t.Logf("%s: %s: the plugin exited %v after the editor went", kind, what, time.Since(start).Round(time.Millisecond))
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	_ = syscall.Kill(pid, syscall.SIGKILL)
	t.Errorf("%s: %s: plugin process %d is still there %v after the editor went (the unload budget is %d ms)",
		kind, what, pid, d, protocol.UnloadBudget)
}

// orphanWait is how long a plugin may outlive its editor: the unload
// budget and a margin for a loaded machine.
const orphanWait = protocol.UnloadBudget*time.Millisecond + 2*time.Second

// editorPid returns the editor's process id.
func editorPid(t *testing.T, ed *editortest.Editor) int {
	t.Helper()
	return int(ed.MustEval(t, "getpid()").(int64))
}

// A plugin exits within the unload budget when its editor quits (:qa!;
// Vim sends SIGTERM, Neovim closes the channel) or is killed, even if its
// unload hook ignores its ctx: nothing is left with parent pid 1.
func TestNoOrphanAfterEditor(t *testing.T) {
	each(t, h6(), func(t *testing.T, ed *editortest.Editor) {
		for _, end := range []string{"quit", "kill"} {
			e := ed
			if end != "quit" {
				e = editortest.Start(t, ed.Kind, h6())
			}
			waitLoaded(t, e, "h6proc")
			pid := int(e.MustEval(t, `vigor#request('h6proc', 'pid', [])`).(int64))
			e.MustEval(t, `vigor#request('h6proc', 'hang_hook', [])`)
			if end == "quit" {
				e.Close()
			} else {
				if err := syscall.Kill(editorPid(t, e), syscall.SIGKILL); err != nil {
					t.Fatal(err)
				}
			}
			waitGone(t, ed.Kind, pid, orphanWait, end+" with a hung unload hook")
		}
	})
}

// A plugin exits within the unload budget when its editor is killed while
// one of its handlers ignores its ctx: a request handler that blocks or
// spins, a notification handler, a request_async handler.
func TestNoOrphanWhileHandlerRuns(t *testing.T) {
	each(t, h6(), func(t *testing.T, ed *editortest.Editor) {
		for i, tc := range []struct{ call, how string }{
			{"request", "spin"},
			{"request", "block"},
			{"notify", "block"},
			{"request_async", "spin"},
		} {
			what := tc.call + " " + tc.how
			e := ed
			if i > 0 {
				e = editortest.Start(t, ed.Kind, h6())
			}
			waitLoaded(t, e, "h6proc")
			pid := int(e.MustEval(t, `vigor#request('h6proc', 'pid', [])`).(int64))
			marker := filepath.Join(t.TempDir(), "started")
			args := fmt.Sprintf("['%s', '%s']", marker, tc.how)
			switch tc.call {
			case "request":
				// From a timer, so that the test's own evaluation returns
				// while the editor waits for the answer.
				e.MustExec(t, "call timer_start(0, {-> vigor#request('h6proc', 'hang', "+args+")})")
			case "notify":
				e.MustEval(t, "vigor#notify('h6proc', 'hang', "+args+")")
			case "request_async":
				e.MustEval(t, "vigor#request_async('h6proc', 'hang', "+args+", {v -> 0}, {e -> 0})")
			}
			deadline := time.Now().Add(20 * time.Second)
			for {
				if _, err := os.Stat(marker); err == nil {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("%s: %s: the handler did not start within 20s", ed.Kind, what)
				}
				time.Sleep(10 * time.Millisecond)
			}
			if err := syscall.Kill(editorPid(t, e), syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			waitGone(t, ed.Kind, pid, orphanWait, what)
		}
	})
}

// Bytes written to fd 1 behind the SDK's back (a raw write, C code, a
// child that inherits stdout) go to the plugin's log, not into the
// channel: the request that wrote them returns its value, on both
// editors. A child inherits no descriptor of the channel.
func TestStrayOutputOnFd1(t *testing.T) {
	each(t, h6(), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "h6proc")
		tag := fmt.Sprintf("%s-%d", ed.Kind, time.Now().UnixNano())
		for i := range 3 {
			v, err := evalWithin(t, ed, 15*time.Second, "vigor#request('h6proc', 'stray', ['"+tag+"'])")
			if err != nil {
				t.Fatalf("%s: stray (round %d): %v", ed.Kind, i, err)
			}
			mustEqual(t, ed, "the answer", v, "answered "+tag)
		}
		mustEqual(t, ed, "status", ed.MustEval(t, "vigor#plugin#status('h6proc')"), "loaded")
		logf := filepath.Join(ed.Cache, "log", "h6proc.log")
		deadline := time.Now().Add(10 * time.Second)
		for {
			b, _ := os.ReadFile(logf)
			if strings.Contains(string(b), "raw "+tag) && strings.Contains(string(b), "child "+tag) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: %q and %q are not in %s within 10s", ed.Kind, "raw "+tag, "child "+tag, logf)
			}
			time.Sleep(20 * time.Millisecond)
		}
		var fds struct {
			Leaked string   `json:"leaked" msgpack:"leaked"`
			Std    []string `json:"std" msgpack:"std"`
		}
		if err := ed.EvalInto("vigor#request('h6proc', 'fds', [])", &fds); err != nil {
			t.Fatal(err)
		}
		if fds.Leaked != "" {
			t.Errorf("%s: descriptors that a child inherits: %s", ed.Kind, fds.Leaked)
		}
		if len(fds.Std) != 3 || fds.Std[0] != "/dev/null" || fds.Std[1] != fds.Std[2] {
			t.Errorf("%s: fds 0, 1, 2 are %q; want /dev/null, then stderr twice", ed.Kind, fds.Std)
		}
	})
}
