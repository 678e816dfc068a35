package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vigorvim/vigor/internal/editortest"
	"github.com/vigorvim/vigor/internal/protocol"
)

const pre, post, fail = "VigorPluginPre", "VigorPluginPost", "VigorPluginFail"
const unPre, unPost, unFail = "VigorPluginUnloadPre", "VigorPluginUnloadPost", "VigorPluginUnloadFail"

// waitState polls until the plugin is in state.
func waitState(t *testing.T, ed *editortest.Editor, name, state string) {
	t.Helper()
	ed.WaitFor(t, "vigor#plugin#status('"+name+"') ==# '"+state+"'", 60*time.Second)
}

// waitEvents polls until the plugin has had n events (not counting
// VigorReady) and returns them.
func waitEvents(t *testing.T, ed *editortest.Editor, name string, n int) []string {
	t.Helper()
	ed.WaitFor(t, "len(filter(copy(g:events), 'v:val =~# '':"+name+"$''')) >= "+strconv.Itoa(n), 60*time.Second)
	time.Sleep(100 * time.Millisecond) // no more should come
	var out []string
	for _, e := range eventsFor(t, ed, name) {
		if e != "VigorReady" {
			out = append(out, e)
		}
	}
	return out
}

func TestUnloadAndLoad(t *testing.T) {
	each(t, main1(), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "vtest")
		pid := ed.MustEval(t, `vigor#request('vtest', 'pid', [])`)
		// One expression, so that the process cannot finish unloading
		// between the calls.
		mustEqual(t, ed, "status and is_loaded while unloading",
			ed.MustEval(t, `[vigor#plugin#unload('vtest'), vigor#plugin#status('vtest'), vigor#plugin#is_loaded('vtest')][1:]`),
			[]any{"unloading", int64(0)})
		ed.MustEval(t, `vigor#plugin#unload('vtest')`) // a second unload does nothing
		mustEqual(t, ed, "events", waitEvents(t, ed, "vtest", 4), []string{pre, post, unPre, unPost})
		mustEqual(t, ed, "status", ed.MustEval(t, `vigor#plugin#status('vtest')`), "stopped")
		// The unload hook ran, and could still call the editor.
		mustEqual(t, ed, "hook ran", ed.MustEval(t, `g:vtest_unloaded`), int64(1))
		mustThrow(t, ed, `vigor#request('vtest', 'greet', ['x'])`, "vtest.greet: the plugin is not loaded", "vigor#plugin#load()")
		// Load it again from its directory.
		dir := filepath.Join(rtp("main")[0], "vigor", "vtest")
		ed.MustEval(t, `vigor#plugin#load('vtest', '`+dir+`')`)
		mustEqual(t, ed, "greet after load", ed.MustEval(t, `vigor#request('vtest', 'greet', ['back'])`), "Hello, back!")
		if pid2 := ed.MustEval(t, `vigor#request('vtest', 'pid', [])`); pid2 == pid {
			t.Fatalf("%s: same process after unload and load", ed.Kind)
		}
		mustEqual(t, ed, "events", waitEvents(t, ed, "vtest", 6), []string{pre, post, unPre, unPost, pre, post})
	})
}

func TestReloadWhenLoaded(t *testing.T) {
	each(t, main1(), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "vtest")
		pid := ed.MustEval(t, `vigor#request('vtest', 'pid', [])`)
		mustEqual(t, ed, "is_loaded right after reload",
			ed.MustEval(t, `[vigor#plugin#reload('vtest'), vigor#plugin#is_loaded('vtest')][1]`), int64(0))
		// A request during the reload waits for it.
		if pid2 := ed.MustEval(t, `vigor#request('vtest', 'pid', [])`); pid2 == pid {
			t.Fatalf("%s: same process after reload", ed.Kind)
		}
		mustEqual(t, ed, "events", waitEvents(t, ed, "vtest", 6), []string{pre, post, unPre, unPost, pre, post})
	})
}

func slowOpts() editortest.Options { return editortest.Options{RTP: rtp("slow")} }

func TestReloadWhileLoading(t *testing.T) {
	each(t, slowOpts(), func(t *testing.T, ed *editortest.Editor) {
		waitState(t, ed, "slow", "starting")
		ed.MustEval(t, `vigor#plugin#reload('slow')`)
		ed.MustEval(t, `vigor#plugin#reload('slow')`) // reload while reloading: one reload
		mustEqual(t, ed, "events", waitEvents(t, ed, "slow", 6), []string{pre, post, unPre, unPost, pre, post})
		mustEqual(t, ed, "ping", ed.MustEval(t, `vigor#request('slow', 'ping', [])`), "pong")
	})
}

func TestUnloadWhileLoading(t *testing.T) {
	each(t, slowOpts(), func(t *testing.T, ed *editortest.Editor) {
		waitState(t, ed, "slow", "starting")
		ed.MustEval(t, `vigor#plugin#unload('slow')`)
		mustEqual(t, ed, "events", waitEvents(t, ed, "slow", 4), []string{pre, post, unPre, unPost})
		waitState(t, ed, "slow", "stopped")
	})
}

func TestLoadWhileLoading(t *testing.T) {
	each(t, slowOpts(), func(t *testing.T, ed *editortest.Editor) {
		waitState(t, ed, "slow", "starting")
		dir := filepath.Join(rtp("slow")[0], "vigor", "slow")
		ed.MustEval(t, `vigor#plugin#load('slow', '`+dir+`')`)
		waitLoaded(t, ed, "slow")
		mustEqual(t, ed, "events", waitEvents(t, ed, "slow", 2), []string{pre, post})
	})
}

func TestUnloadFail(t *testing.T) {
	each(t, editortest.Options{RTP: rtp("unloadfail")}, func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "unloadfail")
		ed.MustEval(t, `vigor#plugin#reload('unloadfail')`)
		// The reload goes on after a failed unload.
		mustEqual(t, ed, "events", waitEvents(t, ed, "unloadfail", 6), []string{pre, post, unPre, unFail, pre, post})
		if m := ed.Messages(t); !strings.Contains(m, "[vigor] unloadfail: unload failed: could not save the state") {
			t.Fatalf("%s: messages: %s", ed.Kind, m)
		}
	})
}

func TestWait(t *testing.T) {
	opts := editortest.Options{RTP: rtp("slow", "badsetup")}
	opts.Cmds = []string{`let g:early = 0`, `call vigor#plugin#wait_async('slow', {-> execute('let g:early += 1')})`}
	each(t, opts, func(t *testing.T, ed *editortest.Editor) {
		mustEqual(t, ed, "wait", ed.MustEval(t, `vigor#plugin#wait('slow')`), int64(0))
		mustEqual(t, ed, "wait_async registered before discovery", ed.MustEval(t, `g:early`), int64(1))
		mustEqual(t, ed, "wait failed", ed.MustEval(t, `vigor#plugin#wait('badsetup', {'silent': 1})`), int64(-3))
		mustEqual(t, ed, "wait timeout", ed.MustEval(t, `vigor#plugin#wait('nobody', {'timeout': 100, 'interval': 5, 'silent': 1})`), int64(-1))
		ed.MustExec(t, `let g:called = 0`)
		ed.MustEval(t, `vigor#plugin#wait_async('slow', {-> execute('let g:called = 1')})`)
		mustEqual(t, ed, "wait_async on a loaded plugin runs at once", ed.MustEval(t, `g:called`), int64(1))
		// wait_async while reloading runs after the load, before Post.
		ed.MustExec(t, `let g:order = [] | autocmd User VigorPluginPost:slow call add(g:order, 'post')`)
		ed.MustEval(t, `vigor#plugin#reload('slow')`)
		ed.MustEval(t, `vigor#plugin#wait_async('slow', {-> add(g:order, 'callback')})`)
		ed.WaitFor(t, `len(g:order) == 2`, 30*time.Second)
		mustEqual(t, ed, "order", ed.MustEval(t, `g:order`), []any{"callback", "post"})
	})
}

func TestLoadFailures(t *testing.T) {
	opts := editortest.Options{RTP: rtp("main", "broken", "badsetup", "notsdk", "oldproto", "badname")}
	each(t, opts, func(t *testing.T, ed *editortest.Editor) {
		for _, name := range []string{"broken", "badsetup", "notsdk", "oldproto"} {
			waitState(t, ed, name, "failed")
			mustEqual(t, ed, name+" events", waitEvents(t, ed, name, 2), []string{pre, fail})
			mustEqual(t, ed, name+" is_loaded", ed.MustEval(t, `vigor#plugin#is_loaded('`+name+`')`), int64(1))
		}
		brokenMain := filepath.Join(rtp("broken")[0], "vigor", "broken", "main.go")
		msgs := ed.Messages(t)
		for _, want := range []string{
			"[vigor] broken: build failed: " + brokenMain + ":8:2: undefined: undefinedFunction",
			"[vigor] badsetup: failed to load: cannot find the config file",
			"[vigor] notsdk: the process exited with status 5 (fatal error: this program is not a plugin)",
			"[vigor] oldproto: it speaks protocol 0 but this Vigor speaks " + strconv.Itoa(protocol.Version),
			"[vigor] skipped " + filepath.Join(rtp("badname")[0], "vigor", "bad.name"),
		} {
			if !strings.Contains(msgs, want) {
				t.Errorf("%s: messages lack %q:\n%s", ed.Kind, want, msgs)
			}
		}
		mustThrow(t, ed, `vigor#request('broken', 'x', [])`, "[vigor] broken.x: the plugin failed to load: build failed: ", "main.go:8:2")
		mustThrow(t, ed, `vigor#notify('badsetup', 'x', [])`, "the plugin failed to load")
		mustEqual(t, ed, "status of an invalid dir name", ed.MustEval(t, `vigor#plugin#status('bad')`), "")
		// The others keep working.
		mustEqual(t, ed, "greet", ed.MustEval(t, `vigor#request('vtest', 'greet', ['ok'])`), "Hello, ok!")
		// Reloading a failed plugin tries again.
		ed.MustEval(t, `vigor#plugin#reload('badsetup')`)
		mustEqual(t, ed, "events after retry", waitEvents(t, ed, "badsetup", 4), []string{pre, fail, pre, fail})
	})
}

func TestCrashAndRestart(t *testing.T) {
	each(t, main1(), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "vtest")
		pid := ed.MustEval(t, `vigor#request('vtest', 'pid', [])`)
		mustEqual(t, ed, "crash", ed.MustEval(t, `vigor#request('vtest', 'crash', [])`), "crashing")
		// Restarted: Pre and Post again, a new process.
		mustEqual(t, ed, "events", waitEvents(t, ed, "vtest", 4), []string{pre, post, pre, post})
		if pid2 := ed.MustEval(t, `vigor#request('vtest', 'pid', [])`); pid2 == pid {
			t.Fatalf("%s: not restarted", ed.Kind)
		}
		if m := ed.Messages(t); !strings.Contains(m, "[vigor] vtest: the process exited with status 3; restarting (1 of 3)") {
			t.Fatalf("%s: messages: %s", ed.Kind, m)
		}
		// A call in flight when the process dies fails at once.
		mustThrow(t, ed, `vigor#request('vtest', 'die', [])`, "[vigor] vtest.die: the plugin process exited during the call")
		waitEvents(t, ed, "vtest", 6)
		waitLoaded(t, ed, "vtest")
		mustEqual(t, ed, "greet", ed.MustEval(t, `vigor#request('vtest', 'greet', ['again'])`), "Hello, again!")
	})
}

func TestRestartThreshold(t *testing.T) {
	opts := main1()
	opts.Cmds = []string{`let g:vigor#restart_threshold = 1`}
	each(t, opts, func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "vtest")
		ed.MustEval(t, `vigor#request('vtest', 'crash', [])`)
		waitEvents(t, ed, "vtest", 4)
		waitLoaded(t, ed, "vtest")
		ed.MustEval(t, `vigor#request('vtest', 'crash', [])`)
		waitState(t, ed, "vtest", "failed")
		mustEqual(t, ed, "events", waitEvents(t, ed, "vtest", 5), []string{pre, post, pre, post, fail})
		if m := ed.Messages(t); !strings.Contains(m, "2 times within 10000 ms, so it is not restarted; fix it and :Vigor reload vtest. Its log: ") {
			t.Fatalf("%s: messages: %s", ed.Kind, m)
		}
		mustThrow(t, ed, `vigor#request('vtest', 'greet', ['x'])`, "the plugin failed to load", "not restarted")
		// Other plugins keep working.
		mustEqual(t, ed, "vtest2", ed.MustEval(t, `vigor#request('vtest2', 'upper', ['x'])`), "X")
	})
}

// The startup's summary waits until the editor is idle. Shown while a
// command or a wait runs (:sleep, or a request waiting for a plugin),
// Neovim would throw it into that command as an error.
func TestSummaryWaitsForIdle(t *testing.T) {
	each(t, editortest.Options{RTP: rtp("late")}, func(t *testing.T, ed *editortest.Editor) {
		// latefail fails 3 s after it starts, lateok loads then too: the
		// summary falls due during this wait, which runs timers and events.
		ed.MustExec(t, `let g:t = reltime() | while vigor#plugin#status('latefail') !=# 'failed' && reltimefloat(reltime(g:t)) < 30 | sleep 20m | endwhile | sleep 1`)
		waitState(t, ed, "latefail", "failed")
		ed.WaitFor(t, `execute('messages') =~# '1 of 2 plugins failed: latefail'`, 10*time.Second)
		mustEqual(t, ed, "lateok", ed.MustEval(t, `vigor#request('lateok', 'ping', [])`), "pong")
	})
}

func TestDiscoverAndLateStart(t *testing.T) {
	opts := editortest.Options{RTP: []string{hello()}, Late: true}
	each(t, opts, func(t *testing.T, ed *editortest.Editor) {
		// Vigor is sourced after startup, as a lazy plugin manager does.
		ed.MustExec(t, `runtime plugin/vigor.vim`)
		mustEqual(t, ed, "greet", ed.MustEval(t, `vigor#request('hello', 'greet', ['late'])`), "Hello, late!")
		mustEqual(t, ed, "unknown status", ed.MustEval(t, `vigor#plugin#status('vtest2')`), "")
		// A repository added to 'runtimepath' later is found by discover().
		ed.MustExec(t, `set runtimepath+=`+rtp("second")[0])
		ed.MustEval(t, `vigor#plugin#discover()`)
		mustEqual(t, ed, "vtest2", ed.MustEval(t, `vigor#request('vtest2', 'upper', ['found'])`), "FOUND")
		mustEqual(t, ed, "hello events", eventsFor(t, ed, "hello"), []string{"VigorReady", pre, post})
	})
}

func TestDisabled(t *testing.T) {
	opts := editortest.Options{RTP: []string{hello()}, Cmds: []string{`let g:vigor#disabled = 1`}}
	each(t, opts, func(t *testing.T, ed *editortest.Editor) {
		mustEqual(t, ed, "request", ed.MustEval(t, `vigor#request('hello', 'greet', ['x'])`), int64(0))
		mustEqual(t, ed, "status", ed.MustEval(t, `vigor#plugin#status('hello')`), "")
		h := ed.MustEval(t, `execute('call vigor#health#show()')`).(string)
		if !strings.Contains(h, "Vigor is disabled") {
			t.Fatalf("%s: the health report lacks the warning:\n%s", ed.Kind, h)
		}
		if ed.Kind == "nvim" {
			// A warning without advice shows no ADVICE heading.
			ed.MustExec(t, `checkhealth vigor`)
			buf := ed.MustEval(t, `join(getline(1, '$'), "\n")`).(string)
			if !strings.Contains(buf, "Vigor is disabled") || strings.Contains(buf, "ADVICE") {
				t.Fatalf("checkhealth vigor shows:\n%s", buf)
			}
		}
	})
}

// The first start builds with the user's Go; later starts with nothing
// changed do not run the Go toolchain at all.
func TestWarmStartRunsNoGo(t *testing.T) {
	goPath, err := exec.LookPath("go")
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range editortest.Kinds {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			logf := filepath.Join(dir, "go-calls.log")
			wrapper := filepath.Join(dir, "go")
			script := "#!/bin/sh\necho \"$*\" >> '" + logf + "'\nexec '" + goPath + "' \"$@\"\n"
			if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
				t.Fatal(err)
			}
			opts := editortest.Options{RTP: []string{hello()}, Cache: filepath.Join(dir, "cache"),
				Cmds: []string{`let g:vigor#go = '` + wrapper + `'`}}
			ed := editortest.Start(t, kind, opts)
			mustEqual(t, ed, "cold", ed.MustEval(t, `vigor#request('hello', 'greet', ['cold'])`), "Hello, cold!")
			calls, _ := os.ReadFile(logf)
			if !strings.Contains(string(calls), "build") {
				t.Fatalf("%s: the cold start did not build: %q", kind, calls)
			}
			ed.Close()
			ed2 := editortest.Start(t, kind, opts)
			mustEqual(t, ed2, "warm", ed2.MustEval(t, `vigor#request('hello', 'greet', ['warm'])`), "Hello, warm!")
			calls2, _ := os.ReadFile(logf)
			if string(calls2) != string(calls) {
				t.Fatalf("%s: the warm start ran go: %q", kind, strings.TrimPrefix(string(calls2), string(calls)))
			}
			ed2.Close()
			// With Go gone, the cached builds still start.
			opts.Cmds = []string{`let g:vigor#go = '/nonexistent/go'`}
			ed3 := editortest.Start(t, kind, opts)
			mustEqual(t, ed3, "without go", ed3.MustEval(t, `vigor#request('hello', 'greet', ['no go'])`), "Hello, no go!")
		})
	}
}

func TestNoGoToolchain(t *testing.T) {
	for _, kind := range editortest.Kinds {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			opts := editortest.Options{RTP: []string{hello()}, Cache: filepath.Join(t.TempDir(), "cache"),
				Cmds: []string{`let g:vigor#go = '/nonexistent/go'`}}
			ed := editortest.Start(t, kind, opts)
			mustThrow(t, ed, `vigor#request('hello', 'greet', ['x'])`, "[vigor] hello.greet: the plugin failed to load: the Go toolchain '/nonexistent/go' was not found")
			mustEqual(t, ed, "events", eventsFor(t, ed, "hello"), []string{fail})
			// Fixed without a restart: point at Go and reload.
			ed.MustExec(t, `let g:vigor#go = exepath('go')`)
			ed.MustEval(t, `vigor#plugin#reload('hello')`)
			mustEqual(t, ed, "after reload", ed.MustEval(t, `vigor#request('hello', 'greet', ['fixed'])`), "Hello, fixed!")
		})
	}
}

// A failed build of the vigor command writes its output to log/vigor.log,
// which the error names.
func TestVigorCommandBuildLog(t *testing.T) {
	for _, kind := range editortest.Kinds {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			fake := filepath.Join(dir, "go")
			script := "#!/bin/sh\nif [ \"$1\" = build ]; then echo 'cmd/vigor/main.go:1:1: something is broken' >&2; exit 1; fi\nexec go \"$@\"\n"
			if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
				t.Fatal(err)
			}
			cache := filepath.Join(dir, "cache")
			ed := editortest.Start(t, kind, editortest.Options{RTP: []string{hello()}, Cache: cache,
				Cmds: []string{`let g:vigor#go = '` + fake + `'`}})
			log := filepath.Join(cache, "log", "vigor.log")
			mustThrow(t, ed, `vigor#request('hello', 'greet', ['x'])`, "cannot build the vigor command (go build exited 1): ",
				"something is broken", "(its log: "+log+")")
			b, err := os.ReadFile(log)
			if err != nil || !strings.Contains(string(b), "go build of the vigor command in ") || !strings.Contains(string(b), "something is broken") {
				t.Fatalf("%s: log/vigor.log holds %q (%v)", kind, b, err)
			}
			if st, err := os.Stat(log); err != nil || st.Mode().Perm() != 0o600 {
				t.Fatalf("%s: log/vigor.log's mode: %v (%v)", kind, st.Mode(), err)
			}
		})
	}
}

// A plugin declared lazy (lazy.json) is neither built nor started at
// startup; the first use of a command (with its range, bang and
// arguments), an event or a function that it declares, or a request,
// starts it and replays that use. (Mappings: TestLazyMapping, in a
// terminal, where keys are typed.)
func TestLazyStart(t *testing.T) {
	for _, c := range []struct{ name, trigger, want string }{
		{"command", "3,4LazyHello! a b", `[[cmd a b 3 4 !]]`},
		{"event", "set filetype=lazytest", `[[ft lazytest]]`},
		{"function", "let g:got = LazyHello('x')", `[[fn x]]`},
		{"request", "call vigor#request('lazyp', 'cmd', ['r', 1, 1, ''])", `[[cmd r 1 1 ]]`},
	} {
		t.Run(c.name, func(t *testing.T) {
			each(t, editortest.Options{RTP: rtp("lazy")}, func(t *testing.T, ed *editortest.Editor) {
				ed.WaitFor(t, "vigor#plugin#discovered()", 30*time.Second)
				mustEqual(t, ed, "state before use", ed.MustEval(t, "vigor#plugin#status('lazyp')"), "lazy")
				ed.MustExec(t, "call setline(1, range(1, 5))")
				ed.MustExec(t, c.trigger)
				mustEqual(t, ed, "state after use", ed.MustEval(t, "vigor#plugin#status('lazyp')"), "loaded")
				ed.WaitFor(t, "len(vigor#request('lazyp', 'log', [])) > 0", 10*time.Second)
				if got := fmt.Sprint(ed.MustEval(t, "vigor#request('lazyp', 'log', [])")); got != c.want {
					t.Fatalf("%s: after %q the plugin saw %s, want %s", ed.Kind, c.trigger, got, c.want)
				}
				if c.name == "function" {
					mustEqual(t, ed, "the function's result", ed.MustEval(t, "g:got"), "fn:x")
				}
			})
		})
	}
}
