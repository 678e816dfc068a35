package e2e

import (
	"fmt"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/vigorvim/vigor/internal/editortest"
)

func hard() editortest.Options { return editortest.Options{RTP: rtp("hard")} }

// evalWithin evaluates expr, failing the test if the editor has not
// answered within d (a hung editor fails instead of hanging the test; the
// editor is killed when the test ends).
func evalWithin(t *testing.T, ed *editortest.Editor, d time.Duration, expr string) (any, error) {
	t.Helper()
	type result struct {
		v   any
		err error
	}
	ch := make(chan result, 1)
	go func() {
		v, err := ed.Eval(expr)
		ch <- result{v, err}
	}()
	select {
	case r := <-ch:
		return r.v, r.err
	case <-time.After(d):
		t.Fatalf("%s: %s did not return within %s: the editor hangs", ed.Kind, expr, d)
	}
	panic("unreachable")
}

// A handler that calls the editor from many goroutines at once (and from
// a batch), each call coming back into the plugin, gets every answer: the
// editors' nested waits take the answers in any order.
func TestConcurrentReentrancy(t *testing.T) {
	each(t, hard(), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "vhard")
		for _, n := range []int{2, 8, 12} {
			v, err := evalWithin(t, ed, 20*time.Second, fmt.Sprintf("vigor#request('vhard', 'fanout', [%d])", n))
			if err != nil {
				t.Fatalf("%s: fanout %d: %v", ed.Kind, n, err)
			}
			var want []any
			for i := range n {
				want = append(want, int64(i*10))
			}
			want = append(want, int64(1000), int64(2000))
			if !reflect.DeepEqual(v, want) {
				t.Fatalf("%s: fanout %d = %v, want %v", ed.Kind, n, v, want)
			}
		}
		// Concurrent calls that come back into the plugin nest in the
		// editor: past 'maxfuncdepth' they fail with a clear error.
		_, err := evalWithin(t, ed, 30*time.Second, "vigor#request('vhard', 'fanout', [64])")
		if err == nil || !strings.Contains(err.Error(), "'maxfuncdepth'") {
			t.Fatalf("%s: fanout 64 gave %v, want the maxfuncdepth error", ed.Kind, err)
		}
		mustEqual(t, ed, "status after fanout", ed.MustEval(t, "vigor#plugin#status('vhard')"), "loaded")
		mustEqual(t, ed, "leaf after", ed.MustEval(t, "vigor#request('vhard', 'leaf', [4])"), int64(40))
	})
}

// Re-entrancy nests deep on both editors, and past what 'maxfuncdepth'
// allows it fails with a clear error instead of hanging.
func TestDeepReentrancy(t *testing.T) {
	each(t, hard(), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "vhard")
		// The depths that :help vigor-reentrancy promises: 16 levels on Vim
		// (headless Vim uses the callback way, the deeper-costing one), 40
		// on Neovim.
		depth := map[string]int{"vim": 16, "nvim": 40}[ed.Kind]
		v, err := evalWithin(t, ed, 30*time.Second, fmt.Sprintf("vigor#request('vhard', 'deep', [%d])", depth))
		if err != nil {
			t.Fatalf("%s: deep %d: %v", ed.Kind, depth, err)
		}
		mustEqual(t, ed, "deep", v, int64(depth))
		_, err = evalWithin(t, ed, 30*time.Second, "vigor#request('vhard', 'deep', [200])")
		if err == nil || !strings.Contains(err.Error(), "'maxfuncdepth'") || !strings.Contains(err.Error(), "[vigor] vhard.deep: requests nested") {
			t.Fatalf("%s: deep 200 gave %v, want the maxfuncdepth error", ed.Kind, err)
		}
		// Everything still works.
		mustEqual(t, ed, "leaf after", ed.MustEval(t, "vigor#request('vhard', 'leaf', [4])"), int64(40))
	})
}

// An error that crosses re-entrant requests reads once, with the depth,
// not with a prefix per level.
func TestDeepReentrancyError(t *testing.T) {
	each(t, hard(), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "vhard")
		mustThrowExactly(t, ed, "vigor#request('vhard', 'fail_deep', [0])", "[vigor] vhard.fail_deep: the bottom failed")
		mustThrowExactly(t, ed, "vigor#request('vhard', 'fail_deep', [1])", "[vigor] vhard.fail_deep: the bottom failed (2 requests deep)")
		depth := map[string]int{"vim": 16, "nvim": 40}[ed.Kind]
		_, err := evalWithin(t, ed, 30*time.Second, fmt.Sprintf("vigor#request('vhard', 'fail_deep', [%d])", depth-1))
		if want := fmt.Sprintf("[vigor] vhard.fail_deep: the bottom failed (%d requests deep)", depth); err == nil || err.Error() != want {
			t.Fatalf("%s: fail_deep %d gave %v, want %q", ed.Kind, depth-1, err, want)
		}
		// Through a function of the user's, and past 'maxfuncdepth'.
		_, err = evalWithin(t, ed, 30*time.Second, "vigor#request('vhard', 'deep', [200])")
		if err == nil || !strings.HasPrefix(err.Error(), "[vigor] vhard.deep: requests nested ") ||
			strings.Count(err.Error(), "[vigor]") != 1 || !strings.HasSuffix(err.Error(), " requests deep)") {
			t.Fatalf("%s: deep 200 gave %v, want the maxfuncdepth error once, with the depth", ed.Kind, err)
		}
		// The innermost request is named when it is another one.
		mustThrowExactly(t, ed, "vigor#request('vhard', 'call', ['vigor#request', ['vhard', 'fail_deep', [1]]])",
			"[vigor] vhard.call: the bottom failed (from vhard.fail_deep, 3 requests deep)")
		mustThrowExactly(t, ed, "vigor#request('vhard', 'call', ['vigor#request', ['vhard', 'call', ['vigor#request', ['vhard', 'fail_deep', [1]]]]])",
			"[vigor] vhard.call: the bottom failed (from vhard.fail_deep, 4 requests deep)")
		// An error of more than one line reads once too.
		mustThrowExactly(t, ed, `vigor#request('vhard', 'call', ['vigor#request', ['vhard', 'call', ['execute', ["throw \"a\nb\""]]]])`,
			"[vigor] vhard.call: execute(): a\nb (2 requests deep)")
		// The errors of Vigor's other functions, and a user's own "[vigor]
		// ..." throw, are not taken for those of a request further in.
		mustThrowExactly(t, ed, "vigor#request('vhard', 'call', ['vigor#notify', ['nosuch', 'x', []]])",
			"[vigor] vhard.call: vigor#notify(): [vigor] nosuch.x: there is no plugin nosuch (no vigor/nosuch/ directory on 'runtimepath')")
		mustThrowExactly(t, ed, `vigor#request('vhard', 'call', ['execute', ["throw '[vigor] x.y: boom'"]])`,
			"[vigor] vhard.call: execute(): [vigor] x.y: boom")
	})
}

// Values that cannot be sent, and arguments of the wrong type, fail at the
// API with the same [vigor] error on both editors.
func TestUnsendableArguments(t *testing.T) {
	each(t, hard(), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "vhard")
		for _, call := range []string{
			"vigor#request('vhard', 'fmt', [{'f': function('tr')}])",
			"vigor#notify('vhard', 'fmt', [{'f': function('tr')}])",
			"vigor#request_async('vhard', 'fmt', [{'f': function('tr')}], {v -> 0}, {e -> 0})",
		} {
			v, err := evalWithin(t, ed, 10*time.Second, call)
			if err == nil {
				t.Fatalf("%s: %s returned %v, want an error", ed.Kind, call, v)
			}
			if want := "[vigor] vhard.fmt: argument 1['f'] is a Funcref, which cannot be sent to a plugin"; !strings.Contains(err.Error(), want) {
				t.Fatalf("%s: %s threw %q, want %q", ed.Kind, call, err, want)
			}
		}
		mustThrow(t, ed, "vigor#request('vhard', 'fmt', [1, [2, function('tr')]])", "argument 2[1] is a Funcref")
		// A Funcref as an argument itself, not inside a List or Dict.
		for _, call := range []string{
			"vigor#request('vhard', 'fmt', [1, function('tr')])",
			"vigor#notify('vhard', 'fmt', [1, function('tr')])",
			"vigor#request_async('vhard', 'fmt', [1, function('tr')], {v -> 0}, {e -> 0})",
		} {
			mustThrowExactly(t, ed, call, "[vigor] vhard.fmt: argument 2 is a Funcref, which cannot be sent to a plugin")
		}
		for _, bad := range []string{"v:null", "'x'", "{}", "1"} {
			for _, call := range []string{
				"vigor#request('vhard', 'fmt', %s)",
				"vigor#notify('vhard', 'fmt', %s)",
				"vigor#request_async('vhard', 'fmt', %s, {v -> 0}, {e -> 0})",
			} {
				mustThrow(t, ed, fmt.Sprintf(call, bad), "[vigor] vhard.fmt: the arguments must be a List, not ")
			}
		}
		mustThrow(t, ed, "vigor#request('vhard', 1, [])", "[vigor] vhard: the method name must be a String, not a Number")
		mustEqual(t, ed, "callbacks left", ed.MustEval(t, "vigor#callback#count()"), int64(0))
		mustEqual(t, ed, "a String that looks like a Funcref", ed.MustEval(t, `vigor#request('vhard', 'fmt', ["function('tr')"])`), "function('tr')")
	})
}

// A timer runs while a synchronous request waits, and an interrupt from it
// cancels the handler's context.
func TestTimerInterruptsRequest(t *testing.T) {
	each(t, hard(), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "vhard")
		ed.MustExec(t, "call timer_start(200, {-> vigor#interrupt('from a timer')})")
		start := time.Now()
		v, err := evalWithin(t, ed, 20*time.Second, "vigor#request('vhard', 'wait', ['t', 10000])")
		if err != nil {
			t.Fatalf("%s: %v", ed.Kind, err)
		}
		if s, _ := v.(string); !strings.Contains(s, "interrupted by vigor#interrupt(): from a timer") {
			t.Fatalf("%s: wait returned %q, want the interrupt as the cause", ed.Kind, v)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Fatalf("%s: the request took %s: the timer did not run while it waited", ed.Kind, d)
		}
	})
}

// An interrupt reaches every request that the plugin received before it,
// however late their handlers start.
func TestInterruptReachesEveryRequest(t *testing.T) {
	each(t, hard(), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "vhard")
		ed.MustExec(t, "let g:hard_done = []")
		for round := range 10 {
			ed.MustExec(t, fmt.Sprintf(
				"for i in range(20) | call vigor#request_async('vhard', 'wait', ['r%d' . i, 20000], {v -> add(g:hard_done, v)}, {e -> add(g:hard_done, e.message)}) | endfor | call vigor#interrupt('now')", round))
			ed.WaitFor(t, fmt.Sprintf("len(g:hard_done) == %d", (round+1)*20), 15*time.Second)
		}
		var done []string
		if err := ed.EvalInto("g:hard_done", &done); err != nil {
			t.Fatal(err)
		}
		for i, d := range done {
			if !strings.Contains(d, "interrupted by vigor#interrupt(): now") {
				t.Fatalf("%s: request %d of %d ended with %q, want the interrupt", ed.Kind, i, len(done), d)
			}
		}
	})
}

// What a handler shows before it answers is in :messages when the request
// returns.
func TestMessagesBeforeReply(t *testing.T) {
	each(t, hard(), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "vhard")
		for i := range 30 {
			msg := fmt.Sprintf("hello %d", i)
			got := ed.MustEval(t, fmt.Sprintf("[vigor#request('vhard', 'say', ['%s']), execute('messages')]", msg))
			l, _ := got.([]any)
			if len(l) != 2 || !strings.Contains(fmt.Sprint(l[1]), msg) {
				t.Fatalf("%s: after say %q, :messages is %q", ed.Kind, msg, got)
			}
		}
	})
}

// What a handler has the editor run without waiting, a notification that
// calls the plugin again, has run when its request returns, also while a
// goroutine of the handler calls back into the plugin meanwhile; and the
// answers that cross stay in order (on Neovim the request is an
// rpcrequest() that the plugin answers, and one made meanwhile on the
// same channel is not: a response out of order closes the channel).
func TestNotificationBeforeReply(t *testing.T) {
	each(t, hard(), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "vhard")
		ed.MustExec(t, "let g:hard_notes = {}")
		for i := range 30 {
			got := ed.MustEval(t, fmt.Sprintf("[vigor#request('vhard', 'notifythen', ['k%d', %d]), get(g:hard_notes, 'k%d', -1)]", i, i, i))
			mustEqual(t, ed, fmt.Sprintf("round %d: [answer, note]", i), got, []any{int64(i * 10), int64(i * 10)})
		}
	})
}

// After a crash, a request waits for the restart instead of failing, and
// request_async queues: nothing throws, and exactly one callback runs.
func TestRequestsAfterCrash(t *testing.T) {
	opts := hard()
	opts.Cmds = []string{"let g:vigor#restart_threshold = 100", "let g:vigor#restart_delay = 10"}
	each(t, opts, func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "vhard")
		ed.MustExec(t, "let g:hard_done = []")
		const rounds = 5
		for i := range rounds {
			var pid int
			if err := ed.EvalInto("vigor#request('vhard', 'pid', [])", &pid); err != nil {
				t.Fatal(err)
			}
			if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			v, err := evalWithin(t, ed, 20*time.Second, "vhard#after_crash()")
			if err != nil {
				t.Fatalf("%s: round %d after a crash: %v", ed.Kind, i, err)
			}
			mustEqual(t, ed, "request after a crash", v, []any{int64(0), int64(20)})
		}
		ed.WaitFor(t, fmt.Sprintf("len(g:hard_done) == %d", rounds), 15*time.Second)
		var done []any
		if err := ed.EvalInto("g:hard_done", &done); err != nil {
			t.Fatal(err)
		}
		for _, d := range done {
			if d != int64(30) {
				t.Fatalf("%s: request_async results after crashes: %v, want 30 each", ed.Kind, done)
			}
		}
		mustEqual(t, ed, "callbacks left", ed.MustEval(t, "vigor#callback#count()"), int64(0))
	})
}
