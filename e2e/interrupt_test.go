package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/vigorvim/vigor/internal/editortest"
)

// spinBudget is g:vigor#unload_timeout in the tests of handlers that
// ignore their interrupt; TestInterruptedSpinRestarts interrupts three
// calls, each a moment after the one before, well within roundsBudget
// however busy the machine is.
const spinBudget, roundsBudget = 1000, 10000

// An interrupted request_async call runs exactly one of its callbacks, the
// failure callback, also when its handler ignores its context. A handler
// that has not returned within the unload budget of its interrupt keeps
// a CPU busy for nothing: the plugin is restarted, which one line says,
// naming the plugin and the method; the spinning handlers of all the
// interrupts before it go with the old process, and a handler that
// returns when interrupted restarts nothing.
func TestInterruptedSpinRestarts(t *testing.T) {
	opts := editortest.Options{RTP: rtp("spin"), Cmds: []string{fmt.Sprintf("let g:vigor#unload_timeout = %d", roundsBudget)}}
	each(t, opts, func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "spin")
		ed.MustExec(t, "let g:spin_ok = [] | let g:spin_fail = []")
		ed.MustExec(t, `execute "function! SpinOk(tag, v) abort\ncall add(g:spin_ok, a:tag)\nendfunction"`)
		ed.MustExec(t, `execute "function! SpinFail(tag, e) abort\ncall add(g:spin_fail, a:tag . ': ' . a:e.message)\nendfunction"`)
		async := func(method, tag, args string) {
			t.Helper()
			ed.MustExec(t, fmt.Sprintf("call vigor#request_async('spin', '%s', %s, function('SpinOk', ['%s']), function('SpinFail', ['%s']))",
				method, args, tag, tag))
		}
		// calls checks that each call so far ran exactly its failure
		// callback, saying that it was interrupted.
		calls := func(n int) {
			t.Helper()
			ed.WaitFor(t, fmt.Sprintf("len(g:spin_fail) >= %d", n), 10*time.Second)
			var fails []string
			if err := ed.EvalInto("g:spin_fail", &fails); err != nil {
				t.Fatal(err)
			}
			if ok := ed.MustEval(t, "len(g:spin_ok)"); ok != int64(0) || len(fails) != n {
				t.Fatalf("%s: %d success and %d failure callbacks for %d calls: %q", ed.Kind, ok, len(fails), n, fails)
			}
			if !strings.Contains(fails[n-1], "interrupted by vigor#interrupt()") {
				t.Fatalf("%s: failure callback: %q", ed.Kind, fails[n-1])
			}
		}
		pid := pidOf(t, ed, "spin")
		t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
		async("polite", "polite", "[60000]")
		ed.MustExec(t, "call vigor#interrupt('test')")
		calls(1)
		for i := 1; i <= 3; i++ {
			tag := fmt.Sprintf("spin%d", i)
			async("spin", tag, "['"+tag+"']")
			// The plugin serves other calls while it spins; this call
			// spins before it is interrupted.
			ed.WaitFor(t, fmt.Sprintf("vigor#request('spin', 'running', []) >= %d", i), 10*time.Second)
			ed.MustExec(t, "call vigor#interrupt()")
			calls(1 + i)
		}
		ed.WaitFor(t, fmt.Sprintf("vigor#request('spin', 'pid', []) != %d", pid), roundsBudget*time.Millisecond+60*time.Second)
		if !gone(pid) {
			t.Fatalf("%s: the old process %d, which spins, still runs", ed.Kind, pid)
		}
		if n := ed.MustEval(t, "vigor#request('spin', 'running', [])"); n != int64(0) {
			t.Fatalf("%s: %v handlers spin in the new process", ed.Kind, n)
		}
		// No callback runs a second time when the process ends.
		calls(4)
		m := ed.Messages(t)
		want := fmt.Sprintf("[vigor] spin.spin and 2 more ignored their interrupt for %d ms; restarting spin to stop them", roundsBudget)
		if strings.Count(m, want) != 1 || strings.Contains(m, "polite") {
			t.Fatalf("%s: messages: %s", ed.Kind, m)
		}
		t.Logf("%s: %s", ed.Kind, m)
	})
}

// CTRL-C on a request whose handler ignores its context stops the wait;
// the plugin is restarted, which a line in the messages says, and then
// nothing spins.
func TestCtrlCSpinRestartsOnScreen(t *testing.T) {
	for _, kind := range editortest.Kinds {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			tm := startTerm(t, kind, rtp("spin")...)
			tm.waitLoaded("spin")
			tm.keys(fmt.Sprintf(":let g:vigor#unload_timeout = %d", spinBudget), "Enter")
			tm.keys(":echo 'pid: ' . vigor#request('spin', 'pid', [])", "Enter")
			pid := screenPid(tm)
			t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
			// CTRL-C once the handler runs (spin creates mark then).
			mark := filepath.Join(t.TempDir(), "spinning")
			tm.keys(fmt.Sprintf(":echo vigor#request('spin', 'spin', ['%s'])", mark), "Enter")
			waitFile(t, kind, mark, 60*time.Second)
			tm.keys("C-c")
			tm.waitScreen("[vigor] spin.spin: interrupted (CTRL-C)", 10*time.Second)
			// The restart ends the process that spins (Neovim runs nothing
			// at the hit-enter prompt); then the line that said so is in
			// the messages.
			tm.keys("Enter")
			for deadline := time.Now().Add(60 * time.Second); !gone(pid); time.Sleep(50 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("%s: the process %d, whose handler ignores its interrupt, still runs; the screen shows:\n%s", kind, pid, tm.screen())
				}
			}
			tm.keys(":messages", "Enter")
			s := tm.waitScreen(fmt.Sprintf("[vigor] spin.spin ignored its interrupt for %d ms; restarting spin to stop it", spinBudget), 15*time.Second)
			t.Logf("%s screen:\n%s", kind, s)
			tm.keys("Enter", ":call vigor#plugin#wait('spin') | echo 'running: ' . vigor#request('spin', 'running', [])", "Enter")
			tm.waitScreen("running: 0", 20*time.Second)
		})
	}
}

// screenPid returns the number that the screen shows after "pid: ".
func screenPid(tm *term) int {
	tm.t.Helper()
	re := regexp.MustCompile(`pid: (\d+)`)
	s := tm.waitScreen("pid: ", 20*time.Second)
	for deadline := time.Now().Add(10 * time.Second); !re.MatchString(s); s = tm.screen() {
		if time.Now().After(deadline) {
			tm.t.Fatalf("%s: no pid on the screen:\n%s", tm.kind, s)
		}
		time.Sleep(50 * time.Millisecond)
	}
	pid, err := strconv.Atoi(re.FindStringSubmatch(s)[1])
	if err != nil {
		tm.t.Fatal(err)
	}
	return pid
}

// waitFile waits until the file path exists, failing the test after d.
func waitFile(t *testing.T, kind, path string, d time.Duration) {
	t.Helper()
	for deadline := time.Now().Add(d); ; time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(path); err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: %s does not exist within %s", kind, path, d)
		}
	}
}
