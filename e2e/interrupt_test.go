package e2e

import (
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/vigorvim/vigor/internal/editortest"
)

// spinBudget is g:vigor#unload_timeout in the tests of handlers that
// ignore their interrupt; TestInterruptedSpinRestarts interrupts three
// calls well within roundsBudget.
const spinBudget, roundsBudget = 1000, 4000

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
			// The plugin serves other calls while it spins.
			ed.WaitFor(t, "vigor#request('spin', 'running', []) >= 1", 10*time.Second)
			ed.MustExec(t, "call vigor#interrupt()")
			calls(1 + i)
		}
		ed.WaitFor(t, fmt.Sprintf("vigor#request('spin', 'pid', []) != %d", pid), 20*time.Second)
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

// CTRL-C on a request whose handler ignores its context stops the wait at
// once; a moment later a line says that the handler still runs and that
// the plugin is restarted, and then nothing spins.
func TestCtrlCSpinRestartsOnScreen(t *testing.T) {
	for _, kind := range editortest.Kinds {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			tm := startTerm(t, kind, rtp("spin")...)
			tm.waitLoaded("spin")
			tm.keys(fmt.Sprintf(":let g:vigor#unload_timeout = %d", spinBudget), "Enter")
			tm.interrupt(":echo vigor#request('spin', 'spin', ['ctrlc'])", 500*time.Millisecond, "[vigor] spin.spin: interrupted (CTRL-C)")
			// (Neovim shows nothing new at the hit-enter prompt.)
			tm.keys("Enter")
			s := tm.waitScreen(fmt.Sprintf("[vigor] spin.spin ignored its interrupt for %d ms; restarting spin to stop it", spinBudget), 15*time.Second)
			t.Logf("%s screen:\n%s", kind, s)
			tm.keys("Enter", ":call vigor#plugin#wait('spin') | echo 'running: ' . vigor#request('spin', 'running', [])", "Enter")
			tm.waitScreen("running: 0", 20*time.Second)
		})
	}
}
