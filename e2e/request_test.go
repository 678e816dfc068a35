package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/vigorvim/vigor/internal/editortest"
)

func main1() editortest.Options { return editortest.Options{RTP: rtp("main", "second")} }

func TestRequestErrors(t *testing.T) {
	each(t, main1(), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "vtest")
		mustThrow(t, ed, `vigor#request('vtest', 'nope', [])`, "[vigor] vtest.nope:", `no method "nope"`, "greet")
		mustThrow(t, ed, `vigor#request('vtest', 'fail', [])`, "[vigor] vtest.fail: it failed on purpose")
		msg := mustThrow(t, ed, `vigor#request('vtest', 'panic', [])`, "[vigor] vtest.panic: panic: boom", "stack in ")
		if strings.Contains(msg, "\n") {
			t.Fatalf("%s: the panic message is not one line: %q", ed.Kind, msg)
		}
		// The plugin keeps serving after a panic.
		mustEqual(t, ed, "greet after panic", ed.MustEval(t, `vigor#request('vtest', 'greet', ['again'])`), "Hello, again!")
		// The stack went to the log.
		ed.WaitFor(t, `match(join(readfile(g:vigor#cache_dir . '/log/vtest.log'), "\n"), 'panic in handler.*main.go') >= 0`, 10*time.Second)
		// Wrong types name the method and the argument.
		mustThrow(t, ed, `vigor#request('vtest', 'int', ['x'])`, `vtest.int: argument 1: expected a Number, got a String ("x")`)
		mustThrow(t, ed, `vigor#request('vtest', 'strs', [[1, 2]])`, `vtest.strs: argument 1: index 0: expected a String, got a Number (1)`)
		mustThrow(t, ed, `vigor#request('vtest', 'greet', [])`, "vtest.greet: takes 1 argument (a String), got 0")
		mustThrow(t, ed, `vigor#request('vtest', 'greet', ['a', 'b'])`, "got 2")
		// Invalid and unknown names.
		mustThrow(t, ed, `vigor#request('bad.name', 'x', [])`, "[vigor] invalid plugin name 'bad.name'")
		mustThrow(t, ed, `vigor#notify('a b', 'x', [])`, "invalid plugin name")
		mustThrow(t, ed, `vigor#request_async('', 'x', [], {-> 0}, {-> 0})`, "invalid plugin name")
		mustThrow(t, ed, `vigor#request('nosuch', 'x', [])`, "[vigor] nosuch.x: there is no plugin nosuch")
		mustThrow(t, ed, `vigor#notify('nosuch', 'x', [])`, "there is no plugin nosuch")
		for _, fn := range []string{"vigor#plugin#load('a.b', '/tmp')", "vigor#plugin#unload('a.b')", "vigor#plugin#reload('a.b')",
			"vigor#plugin#is_loaded('a.b')", "vigor#plugin#wait('a.b')", "vigor#plugin#wait_async('a.b', {-> 0})", "vigor#plugin#status('a.b')"} {
			mustThrow(t, ed, fn, "invalid plugin name")
		}
		// A stray print to stdout does not break the channel.
		mustEqual(t, ed, "stdout", ed.MustEval(t, `vigor#request('vtest', 'stdout', [])`), "still fine")
		mustEqual(t, ed, "greet", ed.MustEval(t, `vigor#request('vtest', 'greet', ['x'])`), "Hello, x!")
	})
}

func TestNotifyInOrderBeforeReady(t *testing.T) {
	opts := main1()
	// Notify at once at startup, while vtest is still starting: the
	// messages are queued and delivered in order.
	opts.Cmds = []string{
		`autocmd VimEnter * call vigor#notify('vtest', 'record', [1]) | call vigor#notify('vtest', 'record', [2]) | call vigor#notify('vtest', 'record', [3])`,
	}
	each(t, opts, func(t *testing.T, ed *editortest.Editor) {
		got := ed.MustEval(t, `vigor#request('vtest', 'records', [])`)
		mustEqual(t, ed, "records", got, []any{int64(1), int64(2), int64(3)})
		// An error in a notified method reaches :messages.
		ed.MustEval(t, `vigor#notify('vtest', 'fail', [])`)
		ed.WaitFor(t, `execute('messages') =~# '\[vtest\] fail: it failed on purpose'`, 10*time.Second)
	})
}

func TestRequestAsync(t *testing.T) {
	each(t, main1(), func(t *testing.T, ed *editortest.Editor) {
		ed.MustExec(t, `let g:ok = [] | let g:ng = []`)
		// Sent before the plugin is ready: queued.
		ed.MustEval(t, `vigor#request_async('vtest', 'greet', ['async'], {v -> add(g:ok, v)}, {e -> add(g:ng, e)})`)
		ed.MustEval(t, `vigor#request_async('vtest', 'fail', [], {v -> add(g:ok, v)}, {e -> add(g:ng, e)})`)
		ed.WaitFor(t, `len(g:ok) == 1 && len(g:ng) == 1`, 30*time.Second)
		mustEqual(t, ed, "success", ed.MustEval(t, `g:ok`), []any{"Hello, async!"})
		mustEqual(t, ed, "failure", ed.MustEval(t, `[g:ng[0].name, g:ng[0].plugin, g:ng[0].method, g:ng[0].message]`),
			[]any{"VigorError", "vtest", "fail", "it failed on purpose"})
		// Both callbacks of each call are released.
		mustEqual(t, ed, "callbacks left", ed.MustEval(t, `vigor#callback#count()`), int64(0))
	})
}

func TestInterrupt(t *testing.T) {
	each(t, main1(), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "vtest")
		ed.MustExec(t, `let g:ok = [] | let g:ng = []`)
		ed.MustEval(t, `vigor#request_async('vtest', 'block', [], {v -> add(g:ok, v)}, {e -> add(g:ng, e.message)})`)
		ed.MustEval(t, `vigor#request_async('vtest', 'block', [], {v -> add(g:ok, v)}, {e -> add(g:ng, e.message)})`)
		time.Sleep(100 * time.Millisecond)
		ed.MustEval(t, `vigor#interrupt('user pressed a key')`)
		ed.WaitFor(t, `len(g:ng) == 2`, 10*time.Second)
		mustEqual(t, ed, "interrupted", ed.MustEval(t, `g:ng`), []any{
			"interrupted by vigor#interrupt(): user pressed a key",
			"interrupted by vigor#interrupt(): user pressed a key"})
		// A new handler after the interrupt is not cancelled.
		mustEqual(t, ed, "greet", ed.MustEval(t, `vigor#request('vtest', 'greet', ['x'])`), "Hello, x!")
		// Unloading cancels running handlers too.
		ed.MustEval(t, `vigor#request_async('vtest', 'block_mark', [], {v -> 0}, {e -> 0})`)
		time.Sleep(100 * time.Millisecond)
		ed.MustEval(t, `vigor#plugin#unload('vtest')`)
		ed.WaitFor(t, `get(g:, 'vtest_cause', '') =~# 'plugin unloaded'`, 10*time.Second)
	})
}

func TestReentrancy(t *testing.T) {
	each(t, main1(), func(t *testing.T, ed *editortest.Editor) {
		// vtest.reenter(n) calls vigor#request('vtest', 'reenter', [n-1])
		// through the editor while the editor waits on it.
		mustEqual(t, ed, "depth", ed.MustEval(t, `vigor#request('vtest', 'reenter', [5])`), int64(5))
	})
}

func TestDispatchWaitsForTarget(t *testing.T) {
	opts := editortest.Options{RTP: rtp("main", "second")}
	each(t, opts, func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "vtest")
		mustEqual(t, ed, "dispatch", ed.MustEval(t, `vigor#request('vtest', 'dispatch', ['vtest2', 'upper', ['go']])`), "GO")
		// Reload vtest2 and dispatch at once: Dispatch waits until it is
		// loaded again.
		ed.MustEval(t, `vigor#plugin#reload('vtest2')`)
		mustEqual(t, ed, "dispatch while reloading", ed.MustEval(t, `vigor#request('vtest', 'dispatch', ['vtest2', 'upper', ['again']])`), "AGAIN")
		mustThrow(t, ed, `vigor#request('vtest', 'dispatch', ['nosuch', 'x', []])`, "vtest.dispatch:", "there is no plugin nosuch")
	})
}

// Arguments of the wrong type to the Vim script API give one [vigor] line
// that names the expected type, the same on both editors, never the
// editor's own error from inside the runtime.
func TestAPIArgumentTypes(t *testing.T) {
	each(t, editortest.Options{RTP: []string{hello()}}, func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "hello")
		for expr, want := range map[string]string{
			`vigor#request('hello', 'greet', 'notalist')`:           "[vigor] hello.greet: the arguments must be a List, not a String",
			`vigor#request('hello', v:null, [])`:                    "[vigor] hello: the method name must be a String, not v:null",
			`vigor#notify('hello', 1, [])`:                          "[vigor] hello: the method name must be a String, not a Number",
			`vigor#request(1, 'greet', [])`:                         "[vigor] a plugin name must be a String, not a Number",
			`vigor#plugin#status(v:null)`:                           "[vigor] a plugin name must be a String, not v:null",
			`vigor#request_async('hello', 'greet', [], 1, {-> 0})`:  "[vigor] hello.greet: the success callback must be a Funcref or the name of a function, not a Number",
			`vigor#request_async('hello', 'greet', [], {-> 0}, [])`: "[vigor] hello.greet: the failure callback must be a Funcref or the name of a function, not a List",
			`vigor#plugin#wait('hello', 'x')`:                       "[vigor] hello: the options of vigor#plugin#wait() must be a Dict, not a String",
			`vigor#plugin#wait_async('hello', 1)`:                   "[vigor] hello: the callback must be a Funcref or the name of a function, not a Number",
			`vigor#plugin#load('hello', 1)`:                         "[vigor] hello: the directory must be a String, not a Number",
			`vigor#interrupt(1)`:                                    "[vigor] vigor#interrupt(): the reason must be a String, not a Number",
		} {
			mustThrow(t, ed, expr, want)
		}
		mustEqual(t, ed, "greet", ed.MustEval(t, `vigor#request('hello', 'greet', ['x'])`), "Hello, x!")
	})
}
