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
		ed.MustExec(t, "call vigor#_internal#transport#{has('nvim') ? 'nvim' : 'vim'}#stop(vigor#_internal#plugin#get('hafault').handle, 0)")
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

// A plugin that closes its channel but keeps running is gone for the
// runtime: the call fails saying so, the process is stopped within the
// unload budget and restarted as after a crash, and the next call works.
func TestClosedChannelRestarts(t *testing.T) {
	each(t, ha(), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "hafault")
		pid := pidOf(t, ed, "hafault")
		_, err := evalWithin(t, ed, 20*time.Second, `vigor#request('hafault', 'closechan', [])`)
		if err == nil || !strings.Contains(err.Error(), "[vigor] hafault.closechan: the plugin process closed its channel during the call") {
			t.Fatalf("%s: closechan: %v", ed.Kind, err)
		}
		start := time.Now()
		for !gone(pid) {
			if time.Since(start) > orphanWait {
				_ = syscall.Kill(pid, syscall.SIGKILL)
				t.Fatalf("%s: the process is still there %v after it closed its channel (the unload budget is %d ms); messages: %s",
					ed.Kind, orphanWait, protocol.UnloadBudget, ed.Messages(t))
			}
			time.Sleep(20 * time.Millisecond)
		}
		t.Logf("%s: the process was gone %v after the call failed", ed.Kind, time.Since(start).Round(time.Millisecond))
		// The next call waits for the restart.
		if pid2 := pidOf(t, ed, "hafault"); pid2 == pid {
			t.Fatalf("%s: not restarted (pid %d)", ed.Kind, pid)
		}
		v, err := evalWithin(t, ed, 20*time.Second, `vigor#request('hafault', 'echo', ['again'])`)
		if err != nil || v != "again" {
			t.Fatalf("%s: echo after the restart: %v, %v", ed.Kind, v, err)
		}
		if m := ed.Messages(t); !strings.Contains(m, "[vigor] hafault: the process closed its channel") || !strings.Contains(m, "restarting (1 of 3)") {
			t.Errorf("%s: messages: %s", ed.Kind, m)
		}
	})
}

// The messages name how a plugin process ended: a signal by its name.
func TestProcessEndMessages(t *testing.T) {
	each(t, ha(), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "hafault")
		// kill -9 from outside.
		pid := pidOf(t, ed, "hafault")
		if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		ed.WaitFor(t, `execute('messages') =~# 'hafault: the process was killed by signal KILL'`, 20*time.Second)
		waitLoaded(t, ed, "hafault")
		if pid2 := pidOf(t, ed, "hafault"); pid2 == pid {
			t.Fatalf("%s: not restarted", ed.Kind)
		}
		// A SIGKILL during a call.
		_, err := evalWithin(t, ed, 20*time.Second, `vigor#request('hafault', 'killme', [])`)
		if err == nil || !strings.Contains(err.Error(), "[vigor] hafault.killme: the plugin process was killed by signal KILL") ||
			!strings.Contains(err.Error(), "during the call; see :messages and ") {
			t.Fatalf("%s: killme: %v", ed.Kind, err)
		}
		m := ed.Messages(t)
		if !strings.Contains(m, "[vigor] hafault: the process was killed by signal KILL") || !strings.Contains(m, "; restarting (2 of 3)") {
			t.Errorf("%s: messages: %s", ed.Kind, m)
		}
		if strings.Contains(m, "status -1") {
			t.Errorf("%s: a message gives status -1: %s", ed.Kind, m)
		}
	})
}

// editorName is the editor's name as the runtime's messages give it.
func editorName(ed *editortest.Editor) string {
	if ed.Kind == "nvim" {
		return "Neovim"
	}
	return "Vim"
}

// garbageFails calls hafault.garbage, which writes what the editor cannot
// read into its channel, then answers: the call fails within a few
// seconds, saying that the editor could not read what the plugin sent
// and that the plugin is restarted. (Neovim closes the channel; Vim drops
// what it read, the answer with it, and the runtime finds out by asking
// the plugin whether it answered.)
func garbageFails(t *testing.T, ed *editortest.Editor) {
	t.Helper()
	start := time.Now()
	_, err := evalWithin(t, ed, 20*time.Second, `vigor#request('hafault', 'garbage', [])`)
	took := time.Since(start)
	if err == nil || !strings.Contains(err.Error(), "[vigor] hafault.garbage: ") ||
		!strings.Contains(err.Error(), "the plugin sent something that "+editorName(ed)+" ") ||
		!strings.Contains(err.Error(), "; it is restarted") {
		t.Fatalf("%s: garbage: %v", ed.Kind, err)
	}
	t.Logf("%s: the call failed after %v: %v", ed.Kind, took.Round(time.Millisecond), err)
	if took > 5*time.Second {
		t.Errorf("%s: the call took %v to fail", ed.Kind, took)
	}
}

// restartedAfterGarbage checks that hafault, whose process was pid, was
// restarted as after a crash, saying why, and takes calls again, and that
// the other plugin still works.
func restartedAfterGarbage(t *testing.T, ed *editortest.Editor, pid int) {
	t.Helper()
	if pid2 := pidOf(t, ed, "hafault"); pid2 == pid {
		t.Fatalf("%s: not restarted", ed.Kind)
	}
	if v, err := evalWithin(t, ed, 20*time.Second, `vigor#request('hafault', 'echo', ['again'])`); err != nil || v != "again" {
		t.Fatalf("%s: echo after the restart: %v, %v", ed.Kind, v, err)
	}
	pidOf(t, ed, "hasib")
	if m := ed.Messages(t); !strings.Contains(m, "[vigor] hafault: the process sent something that "+editorName(ed)+" ") ||
		!strings.Contains(m, "; restarting (1 of 3)") {
		t.Errorf("%s: messages: %s", ed.Kind, m)
	}
}

// haLoaded waits for hafault and hasib and returns hafault's process id.
func haLoaded(t *testing.T, ed *editortest.Editor) int {
	t.Helper()
	waitLoaded(t, ed, "hafault")
	waitLoaded(t, ed, "hasib")
	return pidOf(t, ed, "hafault")
}

// haAsync calls hafault's method with vigor#request_async: g:ha_async
// becomes "ok: " and the result, or the failure's message.
func haAsync(t *testing.T, ed *editortest.Editor, method string) {
	t.Helper()
	ed.MustExec(t, "let g:ha_async = ''")
	ed.MustExec(t, `call vigor#request_async('hafault', '`+method+`', [], {v -> execute('let g:ha_async = "ok: " . v')}, {e -> execute('let g:ha_async = e.message')})`)
}

// What a plugin writes on its channel that the editor cannot read loses
// the answer to the call under way: the call fails within a few seconds,
// saying so, and the plugin is restarted as after a crash.
func TestGarbageOnChannel(t *testing.T) {
	each(t, ha(), func(t *testing.T, ed *editortest.Editor) {
		pid := haLoaded(t, ed)
		garbageFails(t, ed)
		restartedAfterGarbage(t, ed, pid)
	})
}

// The same while another goroutine of the plugin keeps calling the
// editor (a request_async handler): the calls of both end, and the
// plugin is restarted once.
func TestGarbageWhileReentering(t *testing.T) {
	each(t, ha(), func(t *testing.T, ed *editortest.Editor) {
		pid := haLoaded(t, ed)
		ed.MustExec(t, "let g:ha_reentered = 0")
		haAsync(t, ed, "reenter")
		ed.WaitFor(t, "g:ha_reentered > 5", 10*time.Second)
		garbageFails(t, ed)
		ed.WaitFor(t, "g:ha_async != ''", 15*time.Second)
		// Its call to the editor fails as the channel closes, or it
		// fails as the plugin unloads or exits.
		if v := ed.MustEval(t, "g:ha_async").(string); !strings.Contains(v, "unload") && !strings.Contains(v, "before it answered") &&
			!strings.Contains(v, "the editor closed the channel") {
			t.Errorf("%s: the request_async handler ended with %q", ed.Kind, v)
		}
		restartedAfterGarbage(t, ed, pid)
	})
}

// A request_async call whose answer the editor cannot read fails too: its
// failure callback runs within a few seconds, saying why, and the plugin
// is restarted.
func TestGarbageAsync(t *testing.T) {
	each(t, ha(), func(t *testing.T, ed *editortest.Editor) {
		pid := haLoaded(t, ed)
		start := time.Now()
		haAsync(t, ed, "garbage")
		ed.WaitFor(t, "g:ha_async != ''", 15*time.Second)
		v := ed.MustEval(t, "g:ha_async").(string)
		t.Logf("%s: the failure callback ran after %v: %s", ed.Kind, time.Since(start).Round(time.Millisecond), v)
		if !strings.Contains(v, "sent something that "+editorName(ed)+" ") {
			t.Errorf("%s: request_async ended with %q", ed.Kind, v)
		}
		restartedAfterGarbage(t, ed, pid)
	})
}

// A handler that runs for several seconds, longer than the runtime waits
// before it asks the plugin whether the call is still running, still
// answers, and the plugin keeps running.
func TestLongHandlerAnswers(t *testing.T) {
	each(t, ha(), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "hafault")
		pid := pidOf(t, ed, "hafault")
		start := time.Now()
		v, err := evalWithin(t, ed, 20*time.Second, `vigor#request('hafault', 'sleep', [3500])`)
		if err != nil || v != int64(3500) {
			t.Fatalf("%s: sleep: %v, %v", ed.Kind, v, err)
		}
		if took := time.Since(start); took < 3500*time.Millisecond {
			t.Errorf("%s: sleep returned after %v", ed.Kind, took)
		}
		if pid2 := pidOf(t, ed, "hafault"); pid2 != pid {
			t.Errorf("%s: the plugin was restarted (pid %d, then %d); messages: %s", ed.Kind, pid, pid2, ed.Messages(t))
		}
	})
}

// A plugin that closes its channel and then neither exits nor answers (a
// stopped process) is killed after the unload budget and restarted; the
// call that was under way fails, and the next one waits for the restart.
func TestClosedChannelHungIsKilled(t *testing.T) {
	each(t, ha(), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "hafault")
		pid := pidOf(t, ed, "hafault")
		// A stopped process would stay if the runtime failed to kill it.
		t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
		ed.MustExec(t, "let g:ha_err = ''")
		// Not through execute(), which would take the messages.
		ed.MustExec(t, `execute "function! HaCall(_) abort\ntry\ncall vigor#request('hafault', 'closestop', [])\ncatch\nlet g:ha_err = v:exception\nendtry\nendfunction"`)
		ed.MustExec(t, "call timer_start(0, 'HaCall')")
		// Until the channel is seen closed (Vim: its close callback; Neovim:
		// this request), then for the kill and the restart.
		time.Sleep(200 * time.Millisecond)
		start := time.Now()
		pid2 := pidOf(t, ed, "hafault")
		if pid2 == pid {
			t.Fatalf("%s: not restarted", ed.Kind)
		}
		t.Logf("%s: restarted %v after the channel closed", ed.Kind, time.Since(start).Round(time.Millisecond))
		if !gone(pid) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("%s: the old process %d is still there", ed.Kind, pid)
		}
		ed.WaitFor(t, "g:ha_err != ''", 10*time.Second)
		// The runtime sees the channel closed before the process stops
		// (Vim's close callback, the next request on Neovim: "kept
		// running"), or the SDK does (it reads the end of its input, on
		// Neovim one socket with its output) and says so on stderr.
		if e := ed.MustEval(t, "g:ha_err").(string); !strings.Contains(e, "[vigor] hafault.closestop: ") ||
			!strings.Contains(e, "during the call but the process kept running; it is stopped and restarted") &&
				!strings.Contains(e, "closed its channel during the call but kept running; it is stopped and restarted") &&
				!strings.Contains(e, "closed its channel during the call; it is restarted") {
			t.Errorf("%s: the call under way threw %q", ed.Kind, e)
		}
		if m := ed.Messages(t); !strings.Contains(m, "[vigor] hafault: the process closed its channel") &&
			!strings.Contains(m, "[vigor] hafault: the process lost its channel") || !strings.Contains(m, "; restarting (1 of 3)") {
			t.Errorf("%s: messages: %s", ed.Kind, m)
		}
	})
}

// A call waiting for a plugin that closes its channel during the call
// fails at once with the reason, also when nothing else happens: a process
// that keeps running but says nothing (stopped: its SDK cannot tell the
// runtime), and one that exits. The plugin is restarted, and the next call
// works.
func TestClosedChannelFailsTheWaitingCall(t *testing.T) {
	// Both faults count towards one restart limit however long they take.
	opts := ha()
	opts.Cmds = append(opts.Cmds, "let g:vigor#restart_interval = 600000")
	each(t, opts, func(t *testing.T, ed *editortest.Editor) {
		for _, method := range []string{"closestop", "closeexit"} {
			waitLoaded(t, ed, "hafault")
			pid := pidOf(t, ed, "hafault")
			t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
			// Nothing but this call runs in the editor until it ends.
			_, err := evalWithin(t, ed, 10*time.Second, `vigor#request('hafault', '`+method+`', [])`)
			if err == nil || !strings.Contains(err.Error(), "[vigor] hafault."+method+": the plugin") ||
				!strings.Contains(err.Error(), " during the call") ||
				!strings.Contains(err.Error(), "restarted; see :messages") && !strings.Contains(err.Error(), "exited during the call (status 3)") {
				t.Fatalf("%s: %s: %v", ed.Kind, method, err)
			}
			v, err := evalWithin(t, ed, 20*time.Second, `vigor#request('hafault', 'echo', ['again'])`)
			if err != nil || v != "again" {
				t.Fatalf("%s: echo after %s: %v, %v; messages: %s", ed.Kind, method, v, err, ed.Messages(t))
			}
			if pid2 := pidOf(t, ed, "hafault"); pid2 == pid {
				t.Fatalf("%s: %s: not restarted (pid %d)", ed.Kind, method, pid)
			}
		}
		if m := ed.Messages(t); !strings.Contains(m, "restarting (1 of 3)") || !strings.Contains(m, "restarting (2 of 3)") {
			t.Errorf("%s: messages: %s", ed.Kind, m)
		}
	})
}

// A request_async call under way when its plugin closes its channel
// fails soon, also when nothing else happens (no other call looks at the
// channel): its failure callback runs once, its success callback never,
// for a process that keeps running but says nothing (stopped) and for
// one that exits. The plugin is restarted, and the next call works.
func TestClosedChannelFailsTheAsyncCall(t *testing.T) {
	each(t, ha(), func(t *testing.T, ed *editortest.Editor) {
		for _, method := range []string{"closestop", "closeexit"} {
			waitLoaded(t, ed, "hafault")
			pid := pidOf(t, ed, "hafault")
			t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
			ed.MustExec(t, "let g:ha_ok = [] | let g:ha_ng = []")
			ed.MustExec(t, `call vigor#request_async('hafault', '`+method+`', [], {v -> add(g:ha_ok, v)}, {e -> add(g:ha_ng, e.message)})`)
			ed.WaitFor(t, "len(g:ha_ng) + len(g:ha_ok) > 0", 10*time.Second)
			v, err := evalWithin(t, ed, 20*time.Second, `vigor#request('hafault', 'echo', ['again'])`)
			if err != nil || v != "again" {
				t.Fatalf("%s: echo after %s: %v, %v; messages: %s", ed.Kind, method, v, err, ed.Messages(t))
			}
			if pid2 := pidOf(t, ed, "hafault"); pid2 == pid {
				t.Fatalf("%s: %s: not restarted (pid %d)", ed.Kind, method, pid)
			}
			var ok, ng []string
			if err := ed.EvalInto("g:ha_ok", &ok); err != nil {
				t.Fatal(err)
			}
			if err := ed.EvalInto("g:ha_ng", &ng); err != nil {
				t.Fatal(err)
			}
			if len(ok) != 0 || len(ng) != 1 || !strings.HasPrefix(ng[0], "the plugin") {
				t.Fatalf("%s: %s: success callbacks %q, failure callbacks %q; want one failure", ed.Kind, method, ok, ng)
			}
			t.Logf("%s: %s: %s", ed.Kind, method, ng[0])
		}
	})
}

// In a real terminal (where Vim's calls come as channel commands), CTRL-C
// stops a request that has run long enough for the runtime to ask the
// plugin whether it still runs it, and a reply that Vim drops fails its
// call on the screen.
func TestLongAndLostRequestsOnScreen(t *testing.T) {
	for _, kind := range editortest.Kinds {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			tm := startTerm(t, kind, rtp("ha")...)
			tm.waitLoaded("hafault")
			tm.interrupt(":echo vigor#request('hafault', 'sleep', [30000])", 2500*time.Millisecond, "[vigor] hafault.sleep: interrupted (CTRL-C)")
			tm.keys("Enter", ":echo vigor#request('hafault', 'garbage', [])", "Enter")
			if s := tm.waitScreen("Exception not caught: [vigor] hafault.garbage: ", 10*time.Second); strings.Contains(s, "E906") {
				t.Errorf("%s: the screen shows E906:\n%s", kind, s)
			}
		})
	}
}
