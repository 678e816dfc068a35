package editortest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Term is a program running in a terminal of its own: a tmux server with
// one session, on a private socket. Keys go in with send-keys; the screen
// comes out with capture-pane.
type Term struct {
	Kind   string // the editor's kind, for messages
	socket string
}

// TmuxMissing is the error text when tmux is not installed.
const TmuxMissing = "tmux is not installed: a screen needs it (apt-get install tmux, or brew install tmux)"

// StartTerm runs argv in a terminal of width x height, with the
// environment variables env added, and kills it when the test ends.
func StartTerm(t testing.TB, kind string, width, height int, env, argv []string) *Term {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Fatal(TmuxMissing)
	}
	// Not under t.TempDir: a socket's path has a short limit.
	dir, err := os.MkdirTemp("", "vigor-term-")
	if err != nil {
		t.Fatal(err)
	}
	tm := &Term{Kind: kind, socket: filepath.Join(dir, "tmux.sock")}
	t.Cleanup(func() {
		_ = exec.Command("tmux", "-S", tm.socket, "kill-server").Run()
		_ = os.RemoveAll(dir)
	})
	words := []string{"env"}
	for _, w := range append(env, argv...) {
		words = append(words, shellQuote(w))
	}
	tm.Tmux(t, "new-session", "-d", "-x", fmt.Sprint(width), "-y", fmt.Sprint(height), strings.Join(words, " "))
	return tm
}

// Tmux runs tmux with args on the terminal's server, and returns its
// output. An error fails the test.
func (tm *Term) Tmux(t testing.TB, args ...string) string {
	t.Helper()
	out, err := exec.Command("tmux", append([]string{"-S", tm.socket}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("%s: tmux %v: %v: %s", tm.Kind, args, err, out)
	}
	return string(out)
}

// Keys types keys: each is a tmux key name (Enter, Escape, C-c, F5, Up,
// BSpace) or else literal text.
func (tm *Term) Keys(t testing.TB, keys ...string) {
	t.Helper()
	tm.Tmux(t, append([]string{"send-keys", "-t", "0"}, keys...)...)
}

// Screen returns the text that the terminal shows, one line per row.
func (tm *Term) Screen(t testing.TB) string {
	t.Helper()
	return tm.Tmux(t, "capture-pane", "-p", "-t", "0")
}

// WaitScreen waits until the screen holds want, and returns the screen;
// after timeout it fails the test, showing the screen.
func (tm *Term) WaitScreen(t testing.TB, want string, timeout time.Duration) string {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		s := tm.Screen(t)
		if strings.Contains(s, want) {
			return s
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: the screen does not show %q within %s; it shows:\n%s", tm.Kind, want, timeout, s)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Running reports whether the terminal's program is still running.
func (tm *Term) Running() bool {
	return exec.Command("tmux", "-S", tm.socket, "has-session").Run() == nil
}

// Kill ends the terminal and its program.
func (tm *Term) Kill() { _ = exec.Command("tmux", "-S", tm.socket, "kill-server").Run() }

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
