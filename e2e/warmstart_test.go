package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vigorvim/vigor/internal/editortest"
)

// manyPlugins writes, into dir, a plugin repository of n plugins named
// prefix000, prefix001, ...: one module whose vigor/<name>/ directories
// each hold a copy of the hello example.
func manyPlugins(t *testing.T, dir, prefix string, n int) string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(hello(), "vigor", "hello", "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	mod, err := os.ReadFile(filepath.Join(hello(), "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	repo := filepath.Join(dir, prefix)
	if err := os.MkdirAll(repo, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, "go.mod"), mod, 0o644); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		d := filepath.Join(repo, "vigor", fmt.Sprintf("%s%03d", prefix, i))
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "main.go"), src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return repo
}

// The plugins that are not loaded, with their state and error, once none
// is still on its way (or after timeout).
const notLoaded = `map(filter(values(vigor#_internal#plugin#all()), 'v:val.state !=# "loaded"'), 'v:val.name . " " . v:val.state . ": " . v:val.error')`

const stillLoading = `(!empty(filter(values(vigor#_internal#plugin#all()), 'index(["reserved", "building", "starting"], v:val.state) >= 0')))`

// A warm start with many plugins loads them all: the runtime reads every
// line of the vigor command's output before it concludes that the command
// left a plugin out (issue 16, 1.1: Vim ran the exit callback before the
// last output callbacks). Warm starts with 50 and with 200 plugins, several
// of each, on a cache that one start filled; the builds are copies of the
// hello example (fakeGo).
func TestWarmStartManyPlugins(t *testing.T) {
	dir := t.TempDir()
	vigor, plugin := prebuild(t, dir)
	goCmd := fakeGo(t, dir, vigor, plugin)
	small := manyPlugins(t, dir, "f", 50)
	large := manyPlugins(t, dir, "p", 200)
	cache := filepath.Join(dir, "cache")
	cmds := []string{"let g:vigor#go = " + editortest.VimString(goCmd), "let g:vigor#start_timeout = 60000"}
	both := editortest.Options{RTP: []string{small, large}, Cache: cache, Cmds: cmds}
	settle := func(t *testing.T, ed *editortest.Editor, n int, what string) {
		t.Helper()
		ed.WaitFor(t, "!"+stillLoading, 60*time.Second)
		var bad []string
		if err := ed.EvalInto(notLoaded, &bad); err != nil {
			t.Fatal(err)
		}
		if len(bad) > 0 {
			t.Errorf("%s, %s: %d of %d plugins not loaded, e.g.:\n%s", ed.Kind, what, len(bad), n, strings.Join(bad[:min(len(bad), 5)], "\n"))
		}
	}
	// The cold start that fills the cache.
	fill := editortest.Start(t, "nvim", both)
	settle(t, fill, 250, "the cold start")
	fill.Close()

	rounds := []struct {
		repo string
		n    int
	}{{small, 50}, {small, 50}, {small, 50}, {small, 50}, {large, 200}, {large, 200}, {large, 200}}
	each(t, editortest.Options{RTP: []string{small}, Cache: cache, Cmds: cmds}, func(t *testing.T, ed *editortest.Editor) {
		for i, r := range rounds {
			if i > 0 {
				ed = editortest.Start(t, ed.Kind, editortest.Options{RTP: []string{r.repo}, Cache: cache, Cmds: cmds})
			}
			settle(t, ed, r.n, fmt.Sprintf("warm start %d with %d plugins", i+1, r.n))
			ed.Close()
		}
	})
}

// warmPlugins writes a repository of n plugins (manyPlugins) and fills a
// cache with their builds in one start; it returns the repository, the
// cache and the commands that make the editor build with fakeGo.
func warmPlugins(t *testing.T, prefix string, n int) (repo, cache string, cmds []string) {
	t.Helper()
	dir := t.TempDir()
	vigor, plugin := prebuild(t, dir)
	goCmd := fakeGo(t, dir, vigor, plugin)
	repo = manyPlugins(t, dir, prefix, n)
	cache = filepath.Join(dir, "cache")
	cmds = []string{"let g:vigor#go = " + editortest.VimString(goCmd)}
	fill := editortest.Start(t, "nvim", editortest.Options{RTP: []string{repo}, Cache: cache, Cmds: cmds})
	fill.WaitFor(t, "!"+stillLoading, 60*time.Second)
	fill.Close()
	return repo, cache, cmds
}

// A request at startup to one of many eager plugins is answered before
// the others are built or started: they are held while it waits (so that
// the waited-for plugin has the CPUs), and load right after it. The
// request comes from a VimEnter timer, as a user's first call does; at its
// answer, no other plugin has a build result ('build' is set when the
// vigor command reports a plugin) nor a process.
func TestWaitedForPluginStartsFirst(t *testing.T) {
	repo, cache, cmds := warmPlugins(t, "e", 6)

	ask := append(cmds,
		`function! AskFirst(_timer) abort
		   let g:first = vigor#request('e000', 'greet', ['first'])
		   let g:others = map(filter(values(vigor#_internal#plugin#all()), 'v:val.name !=# "e000"'),
		         \ 'v:val.name . " " . v:val.state . " " . v:val.build . " " . string(v:val.handle isnot v:null)')
		 endfunction`,
		`autocmd VimEnter * call timer_start(0, 'AskFirst')`)
	each(t, editortest.Options{RTP: []string{repo}, Cache: cache, Cmds: ask}, func(t *testing.T, ed *editortest.Editor) {
		ed.WaitFor(t, "exists('g:first') && !"+stillLoading, 30*time.Second)
		var first string
		var others, bad []string
		if err := ed.EvalInto("g:first", &first); err != nil {
			t.Fatal(err)
		}
		if err := ed.EvalInto("g:others", &others); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(first, "first") {
			t.Errorf("%s: the first answer is %q", ed.Kind, first)
		}
		if len(others) != 5 {
			t.Fatalf("%s: the other plugins at the first answer: %q", ed.Kind, others)
		}
		for _, o := range others {
			if !strings.HasSuffix(o, " building  0") {
				t.Errorf("%s: at the first answer another plugin was built or started (name state build process): %q", ed.Kind, o)
			}
		}
		if err := ed.EvalInto(notLoaded, &bad); err != nil {
			t.Fatal(err)
		}
		if len(bad) > 0 {
			t.Errorf("%s: plugins not loaded after the first answer: %q", ed.Kind, bad)
		}
	})
}

// The plugins held while something waits are held for a bounded time: a
// wait that lasts (here vigor#plugin#wait() for a plugin that never comes,
// from VimEnter) does not keep the eager plugins from loading meanwhile.
func TestHeldPluginsLoadDuringLongWait(t *testing.T) {
	repo, cache, cmds := warmPlugins(t, "e", 3)

	wait := append(cmds,
		`function! WaitLong(_timer) abort
		   let g:waited = vigor#plugin#wait('nothere', {'timeout': 3000, 'silent': 1})
		   let g:during = map(values(vigor#_internal#plugin#all()), 'v:val.name . " " . v:val.state')
		 endfunction`,
		`autocmd VimEnter * call timer_start(0, 'WaitLong')`)
	each(t, editortest.Options{RTP: []string{repo}, Cache: cache, Cmds: wait}, func(t *testing.T, ed *editortest.Editor) {
		ed.WaitFor(t, "exists('g:during')", 30*time.Second)
		var during []string
		if err := ed.EvalInto("g:during", &during); err != nil {
			t.Fatal(err)
		}
		if len(during) != 3 {
			t.Fatalf("%s: the plugins at the end of the wait: %q", ed.Kind, during)
		}
		for _, d := range during {
			if !strings.HasSuffix(d, " loaded") {
				t.Errorf("%s: a plugin did not load during a 3 s wait for another: %q", ed.Kind, d)
			}
		}
	})
}

// An editor that quits while its eager plugins are still starting exits
// at once and leaves no plugin process behind: once it quits, no process
// starts. (Neovim's exit stops the jobs it has, then waits for them; a job
// that a start timer made meanwhile kept it waiting for ever.)
func TestQuitWhilePluginsStart(t *testing.T) {
	repo, cache, cmds := warmPlugins(t, "q", 6)
	for _, kind := range editortest.Kinds {
		t.Run(kind, func(t *testing.T) {
			ed := editortest.Start(t, kind, editortest.Options{RTP: []string{repo}, Cache: cache, Cmds: cmds})
			ed.MustExec(t, `call timer_start(0, {-> execute('qa!')})`)
			deadline := time.Now().Add(10 * time.Second)
			for !ed.Exited() {
				if time.Now().After(deadline) {
					t.Fatalf("%s: the editor did not exit within 10 s of :qa!", kind)
				}
				time.Sleep(20 * time.Millisecond)
			}
			for left := pluginProcesses(cache); len(left) > 0; left = pluginProcesses(cache) {
				if time.Now().After(deadline) {
					t.Fatalf("%s: plugin processes left after the editor exited: %v", kind, left)
				}
				time.Sleep(20 * time.Millisecond)
			}
		})
	}
}

// pluginProcesses lists the processes whose program is under cache (the
// plugins that Vigor built there), as "pid path".
func pluginProcesses(cache string) []string {
	var left []string
	procs, _ := filepath.Glob("/proc/[0-9]*/exe")
	for _, exe := range procs {
		if path, err := os.Readlink(exe); err == nil && strings.HasPrefix(path, cache+string(filepath.Separator)) {
			left = append(left, filepath.Base(filepath.Dir(exe))+" "+path)
		}
	}
	return left
}
