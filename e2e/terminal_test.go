package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/vigorvim/vigor/internal/editortest"
)

// term is an editor running with a screen, in a terminal of its own
// (editortest.Term, a tmux session).
type term struct {
	t    *testing.T
	kind string
	tm   *editortest.Term
}

// startTerm starts editor kind in a 100x30 terminal with Vigor and the
// repositories repos on 'runtimepath', using the tests' shared cache.
func startTerm(t *testing.T, kind string, repos ...string) *term {
	t.Helper()
	return startTermCache(t, kind, editortest.SharedCache(t), repos...)
}

// startTermCache is startTerm with the cache directory cache.
func startTermCache(t *testing.T, kind, cache string, repos ...string) *term {
	t.Helper()
	return startTermCmds(t, kind, cache, nil, repos...)
}

// startTermCmds is startTermCache that runs the Ex commands cmds before
// Vigor's plugin/vigor.vim is sourced.
func startTermCmds(t *testing.T, kind, cache string, cmds []string, repos ...string) *term {
	t.Helper()
	bin, err := editortest.Binary(kind)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var rtps []string
	for _, d := range append([]string{editortest.Root()}, repos...) {
		rtps = append(rtps, strings.ReplaceAll(d, ",", `\,`))
	}
	script := fmt.Sprintf("set nocompatible\nlet g:vigor#cache_dir = '%s'\nset runtimepath^=%s\n%sruntime! plugin/vigor.vim\n",
		cache, strings.Join(rtps, ","), strings.Join(append(cmds, ""), "\n"))
	path := filepath.Join(dir, "init.vim")
	if err := os.WriteFile(path, []byte(script), 0o600); err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(dir, "xdg")
	env := []string{"XDG_CONFIG_HOME=" + home + "/config", "XDG_DATA_HOME=" + home + "/data", "XDG_STATE_HOME=" + home + "/state"}
	return &term{t: t, kind: kind, tm: editortest.StartTerm(t, kind, 100, 30, env, []string{bin, "-u", "NONE", "-i", "NONE", "-n", "--cmd", "source " + path})}
}

// keys types keys (tmux key names, such as Enter or C-c).
func (tm *term) keys(keys ...string) { tm.t.Helper(); tm.tm.Keys(tm.t, keys...) }

// screen returns what the terminal shows.
func (tm *term) screen() string { tm.t.Helper(); return tm.tm.Screen(tm.t) }

// waitLoaded waits until the plugin name has loaded.
func (tm *term) waitLoaded(name string) {
	tm.t.Helper()
	tm.keys(fmt.Sprintf(":call vigor#plugin#wait('%s') | echo 'ready: ' . vigor#plugin#status('%s')", name, name), "Enter")
	tm.waitScreen("ready: loaded", 60*time.Second)
}

// waitScreen waits until the screen holds want, and returns the screen.
func (tm *term) waitScreen(want string, timeout time.Duration) string {
	tm.t.Helper()
	return tm.tm.WaitScreen(tm.t, want, timeout)
}

// interrupt types the command line cmd, presses CTRL-C after wait, and
// checks that the screen shows want within 2 s; it returns the screen.
func (tm *term) interrupt(cmd string, wait time.Duration, want string) string {
	tm.t.Helper()
	tm.keys(cmd, "Enter")
	time.Sleep(wait)
	start := time.Now()
	tm.keys("C-c")
	s := tm.waitScreen(want, 5*time.Second)
	if d := time.Since(start); d > 2*time.Second {
		tm.t.Fatalf("%s: CTRL-C took %s to stop the request", tm.kind, d)
	}
	return s
}

// CTRL-C stops a synchronous vigor#request at once, in a real terminal,
// and the handler's context is cancelled with the interrupt as its cause.
func TestCtrlCStopsRequest(t *testing.T) {
	for _, kind := range editortest.Kinds {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			tm := startTerm(t, kind, rtp("hard")...)
			tm.waitLoaded("vhard")
			s := tm.interrupt(":echo vigor#request('vhard', 'wait', ['ctrlc', 30000])", 500*time.Millisecond, "[vigor] vhard.wait: interrupted (CTRL-C)")
			t.Logf("%s screen after CTRL-C:\n%s", kind, s)
			tm.keys("Enter", ":echo 'cause: ' . vigor#request('vhard', 'cause', ['ctrlc'])", "Enter")
			tm.waitScreen("cause: interrupted by vigor#interrupt(): CTRL-C stopped vigor#request()", 10*time.Second)
		})
	}
}

// An error thrown to the user names only the public function that was
// called, not the runtime's helpers, and its [vigor] line appears once.
func TestThrownErrorsOnScreen(t *testing.T) {
	for _, kind := range editortest.Kinds {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			tm := startTerm(t, kind, rtp("hard")...)
			tm.waitLoaded("vhard")
			for _, c := range []struct{ call, fn, msg string }{
				{"vigor#request('nosuch', 'x', [])", "vigor#request", "[vigor] nosuch.x: there is no plugin nosuch"},
				{"vigor#request('vhard', 'wait', [1])", "vigor#request", "[vigor] vhard.wait: takes 2 arguments"},
				{"vigor#request('vhard', 'wait', 'x')", "vigor#request", "[vigor] vhard.wait: the arguments must be a List"},
				{"vigor#notify('vhard', 1, [])", "vigor#notify", "[vigor] vhard: the method name must be a String"},
				{"vigor#plugin#status('a.b')", "vigor#plugin#status", "[vigor] invalid plugin name 'a.b'"},
			} {
				tm.keys(":call "+c.call, "Enter")
				s := tm.waitScreen(c.msg, 10*time.Second)
				if n := strings.Count(s, c.msg); n != 1 || strings.Contains(s, "_internal") ||
					!regexp.MustCompile(`Error detected while processing function `+c.fn+`[[:]`).MatchString(s) {
					t.Fatalf("%s: %s shows its error %d times, or names more than %s():\n%s", kind, c.call, n, c.fn, s)
				}
				tm.keys("Enter", ":redraw!", "Enter")
			}
		})
	}
}

// After the startup's builds, one line names the plugins that failed and
// stays on the screen; typed in insert mode, it waits until the user
// leaves insert mode. A request that waits for a plugin says so.
func TestStartupSummaryOnScreen(t *testing.T) {
	for _, kind := range editortest.Kinds {
		see := map[string]string{"vim": ":Vigor health", "nvim": ":checkhealth vigor"}[kind]
		summary := "[vigor] 1 of 2 plugins failed: latefail (see " + see + ")"
		t.Run(kind+"/normal", func(t *testing.T) {
			t.Parallel()
			tm := startTerm(t, kind, rtp("late")...)
			if s := tm.waitScreen(summary, 60*time.Second); strings.Contains(s, "Error detected while processing") {
				t.Fatalf("%s: the summary comes with an error's header:\n%s", kind, s)
			}
		})
		t.Run(kind+"/insert", func(t *testing.T) {
			t.Parallel()
			// latefail fails 3 s after it starts (once built), and says
			// when in mark; the summary waits.
			mark := filepath.Join(t.TempDir(), "failed")
			tm := startTermCmds(t, kind, editortest.SharedCache(t), []string{"let $LATEFAIL_MARK = '" + mark + "'"}, rtp("late")...)
			tm.keys("i")
			tm.waitScreen("INSERT", 10*time.Second)
			tm.keys("typing")
			waitFile(t, kind, mark, 120*time.Second)
			// The failure reaches the editor a moment after the mark.
			for end := time.Now().Add(2 * time.Second); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
				if s := tm.screen(); strings.Contains(s, "plugins failed") {
					t.Fatalf("%s: the summary was shown in insert mode:\n%s", kind, s)
				}
			}
			tm.keys("Escape")
			tm.waitScreen(summary, 10*time.Second)
		})
		t.Run(kind+"/progress", func(t *testing.T) {
			t.Parallel()
			// A cache of its own: the vigor command and the plugin build.
			tm := startTermCache(t, kind, t.TempDir(), rtp("waitfor")...)
			s := tm.waitScreen("[vigor] building slowstart (", 120*time.Second)
			if !regexp.MustCompile(`\[vigor\] building slowstart \(\d+s\)\.\.\.`).MatchString(s) {
				t.Fatalf("%s: the progress line is not as it should be:\n%s", kind, s)
			}
			tm.waitScreen("[vigor] built slowstart in ", 120*time.Second)
		})
		t.Run(kind+"/waiting", func(t *testing.T) {
			t.Parallel()
			tm := startTerm(t, kind, rtp("waitfor")...)
			tm.keys(":echo vigor#request('slowstart', 'ping', [])", "Enter")
			s := tm.waitScreen("s; CTRL-C stops)", 20*time.Second)
			// On an empty cache the plugin is still being built.
			if !regexp.MustCompile(`\[vigor\] waiting for slowstart \((building|starting), \d+s; CTRL-C stops\)`).MatchString(s) {
				t.Fatalf("%s: the waiting line is not as it should be:\n%s", kind, s)
			}
			tm.waitScreen("pong", 30*time.Second)
		})
	}
}

// A mapping that a lazy plugin declares starts it when the user types it,
// and the keys are replayed to the plugin's own mapping.
func TestLazyMapping(t *testing.T) {
	for _, kind := range editortest.Kinds {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			tm := startTerm(t, kind, rtp("lazy")...)
			tm.keys(":nmap <F5> <Plug>(lazy-hello) | echo 'state: ' . vigor#plugin#status('lazyp')", "Enter")
			tm.waitScreen("state: lazy", 30*time.Second)
			tm.keys("F5")
			tm.keys(":echo 'log: ' . string(vigor#request('lazyp', 'log', []))", "Enter")
			tm.waitScreen("log: [['mapped']]", 60*time.Second)
		})
	}
}

// Keys typed while the editor starts (typeahead) run as soon as it is up,
// before any timer: a lazy plugin's command among them must already be
// there, although the rest of Vigor's start waits until after the first
// screen. The keys reach the terminal while the editor is still starting
// (a vimrc that takes its time: a :sleep before Vigor's plugin/ file).
func TestTypeaheadFindsLazyCommand(t *testing.T) {
	for _, kind := range editortest.Kinds {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			tm := startTermCmds(t, kind, editortest.SharedCache(t), []string{"sleep 500m"}, rtp("lazy")...)
			tm.keys(":LazyHello typed", "Enter")
			tm.keys(":echo 'log: ' . string(vigor#request('lazyp', 'log', []))", "Enter")
			s := tm.waitScreen("log: [", 60*time.Second)
			if !strings.Contains(s, "log: [['cmd', 'typed'") {
				t.Fatalf("%s: the typed-ahead :LazyHello did not reach the plugin; the screen:\n%s", kind, s)
			}
		})
	}
}
