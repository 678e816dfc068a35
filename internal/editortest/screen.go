package editortest

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vigorvim/vigor/internal/codec/msgpackrpc"
	"github.com/vigorvim/vigor/internal/codec/vimjson"
	"github.com/vigorvim/vigor/internal/rpc"
)

// startScreen starts the editor bin in a terminal (see Options.Screen),
// sourcing script, with the environment variables env added, and connects
// the test's channel: Vim's harness opens it to ed.ln, Neovim listens on a
// socket (--listen) that the test dials. ed.done receives when the
// channel closes, which is when the editor exits.
func (ed *Editor) startScreen(t testing.TB, bin, script string, env []string, opts Options) {
	t.Helper()
	w, h := opts.ScreenWidth, opts.ScreenHeight
	if w == 0 {
		w = 100
	}
	if h == 0 {
		h = 30
	}
	argv := []string{bin, "-u", "NONE", "-i", "NONE", "-n"}
	var sock string
	if ed.Kind == "vim" {
		argv = append(argv, "-N")
	} else {
		// Not under t.TempDir: a socket's path has a short limit.
		dir, err := os.MkdirTemp("", "vigor-nvim-")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = os.RemoveAll(dir) })
		sock = filepath.Join(dir, "nvim.sock")
		argv = append(argv, "--listen", sock)
	}
	argv = append(argv, "--cmd", "source "+script)
	ed.term = StartTerm(t, ed.Kind, w, h, env, argv)
	deadline := time.Now().Add(20 * time.Second)
	if ed.Kind == "vim" {
		accepted := make(chan net.Conn, 1)
		go func() {
			c, err := ed.ln.Accept()
			if err == nil {
				accepted <- c
			}
		}()
		for ed.conn == nil {
			select {
			case c := <-accepted:
				ed.conn = c
			case <-time.After(100 * time.Millisecond):
				if !ed.term.Running() || time.Now().After(deadline) {
					_ = ed.ln.Close()
					t.Fatalf("vim did not connect to the test channel within 20s; the screen shows:\n%s", ed.screenOrEnded(t))
				}
			}
		}
		ed.codec = vimjson.New(ed.conn)
	} else {
		for {
			c, err := net.Dial("unix", sock)
			if err == nil {
				ed.conn = c
				break
			}
			if !ed.term.Running() || time.Now().After(deadline) {
				t.Fatalf("nvim did not listen on %s within 20s (%v); the screen shows:\n%s", sock, err, ed.screenOrEnded(t))
			}
			time.Sleep(50 * time.Millisecond)
		}
		ed.codec = msgpackrpc.New(ed.conn)
	}
	ed.sess = rpc.New(ed.codec, ed.conn, rpc.Options{Handler: nopHandler{}})
	go func() { ed.done <- ed.sess.Run(context.Background()) }()
	// The channel is up while the editor sources its startup files, before
	// its screen is: keys typed then may be lost. Wait for VimEnter and a
	// drawn screen.
	for {
		v, err := ed.Eval("get(g:, 'vigor_test_entered', 0)")
		if err == nil && v == int64(1) && strings.TrimSpace(ed.term.Screen(t)) != "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s did not enter its main loop within 20s (%v, %v); the screen shows:\n%s", ed.Kind, v, err, ed.screenOrEnded(t))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (ed *Editor) screenOrEnded(t testing.TB) string {
	if !ed.term.Running() {
		return "(the editor has ended)"
	}
	return ed.term.Screen(t)
}

// Term returns the terminal of an editor started with Options.Screen, or
// nil.
func (ed *Editor) Term() *Term { return ed.term }
