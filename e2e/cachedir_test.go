package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vigorvim/vigor/internal/editortest"
)

// vigorVersionDir is the name of the vigor command's build directory in
// bin/ (vigor-{hash}-1), from an editor that started it on a cache of its
// own, with the go command goCmd (fakeGo).
func vigorVersionDir(t *testing.T, goCmd string) string {
	t.Helper()
	ed := editortest.Start(t, "vim", editortest.Options{Cache: filepath.Join(t.TempDir(), "cache"),
		Cmds: []string{"let g:vigor#go = " + editortest.VimString(goCmd)}})
	ed.WaitFor(t, "vigor#_internal#bootstrap#is_ready()", 60*time.Second)
	dir := filepath.Base(filepath.Dir(ed.MustEval(t, "vigor#_internal#bootstrap#vigor()").(string)))
	ed.Close()
	if !strings.HasPrefix(dir, "vigor-") {
		t.Fatalf("the vigor command's directory is %q, want vigor-{hash}-{n}", dir)
	}
	return dir
}

// plant writes, at each path, a program that appends its arguments to
// marker.
func plant(t *testing.T, marker string, paths ...string) {
	t.Helper()
	for _, p := range paths {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		script := "#!/bin/sh\necho \"$0 $*\" >> '" + marker + "'\n"
		if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

func goEnv(t *testing.T, name string) string {
	t.Helper()
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		t.Fatalf("go env %s: %v", name, err)
	}
	return strings.TrimSpace(string(out))
}

// topLevel lists the names in the Vigor checkout.
func topLevel(t *testing.T) []string {
	t.Helper()
	ents, err := os.ReadDir(editortest.Root())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	return names
}

// A cache directory that is not an absolute path is refused: with $HOME
// and $XDG_CACHE_HOME empty (Neovim's stdpath('cache') is then the
// relative "nvim"), or with g:vigor#cache_dir relative. The runtime runs
// nothing from a path found from the current directory, where a program
// was planted at the name it would run; it writes nothing into the Vigor
// checkout; it says why in one [vigor] line, and a request fails at once
// with that reason (issue 16, 1.3).
func TestCacheDirNotAbsolute(t *testing.T) {
	dir := t.TempDir()
	vigor, plugin := prebuild(t, dir)
	version := vigorVersionDir(t, fakeGo(t, dir, vigor, plugin))
	before := topLevel(t)
	cases := []struct {
		name  string
		env   []string
		cmds  []string
		plant []string // relative to the current directory
		want  string
	}{
		{"no home", []string{"HOME=", "XDG_CACHE_HOME="}, []string{"unlet g:vigor#cache_dir"},
			[]string{"nvim/vigor/bin/" + version + "/vigor", ".cache/vigor/bin/" + version + "/vigor", "vigor/bin/" + version + "/vigor"},
			"no cache directory: neither $XDG_CACHE_HOME nor $HOME is an absolute path; set g:vigor#cache_dir"},
		// Go's own caches are set, so that a build could run.
		{"no home, empty cwd", []string{"HOME=", "XDG_CACHE_HOME=", "GOCACHE=" + goEnv(t, "GOCACHE"), "GOMODCACHE=" + goEnv(t, "GOMODCACHE")},
			[]string{"unlet g:vigor#cache_dir"}, nil,
			"no cache directory: neither $XDG_CACHE_HOME nor $HOME is an absolute path; set g:vigor#cache_dir"},
		{"relative option", nil, []string{"let g:vigor#cache_dir = 'vcache'"},
			[]string{"vcache/bin/" + version + "/vigor"},
			"g:vigor#cache_dir is 'vcache', not an absolute path: set it to a directory of your own"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cwd := t.TempDir()
			marker := filepath.Join(t.TempDir(), "ran")
			var paths []string
			for _, p := range c.plant {
				paths = append(paths, filepath.Join(cwd, p))
			}
			plant(t, marker, paths...)
			cmds := append([]string{"execute 'cd' fnameescape(" + editortest.VimString(cwd) + ")"}, c.cmds...)
			opts := editortest.Options{RTP: []string{hello()}, Env: c.env, Cmds: cmds}
			each(t, opts, func(t *testing.T, ed *editortest.Editor) {
				ed.WaitFor(t, "index(['failed', 'ready'], vigor#_internal#bootstrap#state()) >= 0", 60*time.Second)
				if b, err := os.ReadFile(marker); err == nil {
					t.Fatalf("%s: the planted program ran: %s", ed.Kind, b)
				}
				mustEqual(t, ed, "Vigor's state", ed.MustEval(t, "vigor#_internal#bootstrap#state()"), "failed")
				_, err := ed.Call(20*time.Second, "vigor#request", "hello", "greet", []any{"x"})
				if err == nil || !strings.Contains(err.Error(), c.want) {
					t.Errorf("%s: greet: %v, want the error %q", ed.Kind, err, c.want)
				}
				msgs := ed.Messages(t)
				if n := strings.Count(msgs, "[vigor] "+c.want); n != 1 {
					t.Errorf("%s: %d [vigor] lines about the cache, want 1; messages:\n%s", ed.Kind, n, msgs)
				}
				if b, err := os.ReadFile(marker); err == nil {
					t.Errorf("%s: the planted program ran: %s", ed.Kind, b)
				}
			})
		})
	}
	if after := topLevel(t); strings.Join(after, " ") != strings.Join(before, " ") {
		t.Errorf("the Vigor checkout was written: its entries were %v, now %v", before, after)
	}
}

// readOnly makes the directory dir read-only until the test ends: with a
// read-only bind mount over it when the test runs as root (root writes
// into any directory whatever its mode), else with chmod -R a-w. The test
// fails when the mechanism is not available or leaves dir writable.
func readOnly(t *testing.T, dir string) {
	t.Helper()
	if os.Geteuid() == 0 {
		for _, args := range [][]string{{"--bind", dir, dir}, {"-o", "remount,ro,bind", dir}} {
			if out, err := exec.Command("mount", args...).CombinedOutput(); err != nil {
				t.Fatalf("running as root, the test needs a read-only bind mount: mount %s: %v\n%s", strings.Join(args, " "), err, out)
			}
			if args[0] == "--bind" {
				t.Cleanup(func() { unmount(t, dir) })
			}
		}
	} else {
		if out, err := exec.Command("chmod", "-R", "a-w", dir).CombinedOutput(); err != nil {
			t.Fatalf("chmod -R a-w %s: %v\n%s", dir, err, out)
		}
		t.Cleanup(func() { _ = exec.Command("chmod", "-R", "u+w", dir).Run() })
	}
	probe := filepath.Join(dir, "probe")
	if err := os.WriteFile(probe, nil, 0o600); err == nil {
		t.Fatalf("%s is still writable after it was made read-only", dir)
	}
}

// unmount undoes readOnly's bind mount, once the programs that ran from
// it (plugins of editors that have quit, which may take their unload
// budget and more on a busy machine) have gone. A mount that stays is a
// leak: the test fails, and the mount is detached lazily.
func unmount(t *testing.T, dir string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for len(usersOf(dir)) > 0 && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	var out []byte
	var err error
	for deadline = time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if out, err = exec.Command("umount", dir).CombinedOutput(); err == nil {
			return
		}
		if time.Now().After(deadline) {
			break
		}
	}
	t.Errorf("umount %s: %v (processes using it: %v)\n%s", dir, err, usersOf(dir), out)
	_ = exec.Command("umount", "-l", dir).Run()
}

// usersOf returns the processes whose program, current directory or an
// open file lies in dir.
func usersOf(dir string) []int {
	in := func(link string) bool {
		p, err := os.Readlink(link)
		return err == nil && (p == dir || strings.HasPrefix(p, dir+"/"))
	}
	var pids []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		proc := filepath.Join("/proc", e.Name())
		used := in(filepath.Join(proc, "exe")) || in(filepath.Join(proc, "cwd"))
		if !used {
			fds, _ := os.ReadDir(filepath.Join(proc, "fd"))
			for _, fd := range fds {
				if in(filepath.Join(proc, "fd", fd.Name())) {
					used = true
					break
				}
			}
		}
		if used {
			pids = append(pids, pid)
		}
	}
	return pids
}

// A fully built cache that cannot be written (a package installed it, say)
// starts its plugins on both editors; the logs then go to the state
// directory, which the health report names. Only when that cannot be
// written either does Vigor refuse to start, in one [vigor] line that
// names both (issue 16, 1.7).
func TestReadOnlyCache(t *testing.T) {
	dir := t.TempDir()
	vigor, plugin := prebuild(t, dir)
	goCmd := fakeGo(t, dir, vigor, plugin)
	cache := filepath.Join(dir, "cache")
	opts := editortest.Options{RTP: []string{hello()}, Cache: cache, Cmds: []string{"let g:vigor#go = " + editortest.VimString(goCmd)}}
	for _, kind := range editortest.Kinds {
		ed := editortest.Start(t, kind, opts)
		waitLoaded(t, ed, "hello")
		if h := healthText(t, ed); !strings.Contains(h, "\nlogs: "+cache+"/log\n") {
			t.Fatalf("%s: the health report does not name the logs in %s/log:\n%s", ed.Kind, cache, h)
		}
		ed.Close()
	}
	readOnly(t, cache)

	t.Run("state directory", func(t *testing.T) {
		each(t, opts, func(t *testing.T, ed *editortest.Editor) {
			waitLoaded(t, ed, "hello")
			mustEqual(t, ed, "greet", ed.MustEval(t, `vigor#request('hello', 'greet', ['read-only'])`), "Hello, read-only!")
			logs := ed.MustEval(t, `(has('nvim') ? stdpath('state') : $XDG_STATE_HOME) . '/vigor/log'`).(string)
			log := ed.MustEval(t, "vigor#_internal#plugin#get('hello').log").(string)
			if log != logs+"/hello.log" {
				t.Fatalf("%s: the plugin logs to %s, want %s/hello.log", ed.Kind, log, logs)
			}
			ed.WaitFor(t, "filereadable("+editortest.VimString(log)+") && !empty(readfile("+editortest.VimString(log)+"))", 10*time.Second)
			if health := healthText(t, ed); !strings.Contains(health, "logs: "+logs+" (the cache cannot be written)") {
				t.Fatalf("%s: the health report does not name the logs in %s:\n%s", ed.Kind, logs, health)
			}
			ed.MustExec(t, "Vigor log")
			mustEqual(t, ed, ":Vigor log", ed.MustEval(t, "getline(1, 2)"), []any{"Vigor logs, in " + logs + " (gf opens one):", log})
			ed.MustExec(t, "close")
			if msgs := ed.Messages(t); strings.Contains(msgs, "[vigor]") {
				t.Fatalf("%s: messages from Vigor: %s", ed.Kind, msgs)
			}
		})
	})

	t.Run("a plugin to build", func(t *testing.T) {
		o := opts
		o.RTP = append([]string{manyPlugins(t, t.TempDir(), "fresh", 1)}, opts.RTP...)
		each(t, o, func(t *testing.T, ed *editortest.Editor) {
			waitLoaded(t, ed, "hello")
			want := "[vigor] fresh000.greet: the plugin failed to load: the plugin must be built, and the cache " + cache + " cannot be written"
			mustThrow(t, ed, `vigor#request('fresh000', 'greet', ['x'])`, want, "read-only file system", ":help vigor-cache")
			mustEqual(t, ed, "greet", ed.MustEval(t, `vigor#request('hello', 'greet', ['still'])`), "Hello, still!")
		})
	})

	t.Run("nothing writable", func(t *testing.T) {
		o := opts
		// Neovim's own log too would go to the state directory; without
		// it, to the current directory.
		o.Env = []string{"XDG_STATE_HOME=" + filepath.Join(cache, "state"), "NVIM_LOG_FILE=" + filepath.Join(t.TempDir(), "nvim.log")}
		each(t, o, func(t *testing.T, ed *editortest.Editor) {
			state := ed.MustEval(t, `(has('nvim') ? stdpath('state') : $XDG_STATE_HOME) . '/vigor/log'`).(string)
			want := "cannot write the logs: neither " + cache + "/log nor " + state + " can be made and written"
			mustThrow(t, ed, `vigor#request('hello', 'greet', ['x'])`, "[vigor] hello.greet: the plugin failed to load: "+want, ":help vigor-log")
			msgs := ed.Messages(t)
			if n := strings.Count(msgs, "[vigor] "+want); n != 1 {
				t.Fatalf("%s: %d [vigor] lines about the logs, want 1; messages:\n%s", ed.Kind, n, msgs)
			}
		})
	})
}

// healthText is the health report's messages, a line each.
func healthText(t *testing.T, ed *editortest.Editor) string {
	t.Helper()
	var report [][]any
	if err := ed.EvalInto("vigor#health#report()", &report); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, r := range report {
		fmt.Fprintf(&b, "%v\n", r[1])
	}
	return b.String()
}

// An empty or relative $XDG_CACHE_HOME is ignored (the XDG rule): the cache
// is ~/.cache/vigor (~/.cache/nvim/vigor on Neovim, whose stdpath('cache')
// is then relative), never a path found from the current directory, where
// a program was planted at the name it would run.
func TestCacheDirIgnoresRelativeXDG(t *testing.T) {
	dir := t.TempDir()
	vigor, plugin := prebuild(t, dir)
	goCmd := fakeGo(t, dir, vigor, plugin)
	version := vigorVersionDir(t, goCmd)
	for _, xdg := range []string{"", "rel"} {
		t.Run(fmt.Sprintf("XDG_CACHE_HOME=%q", xdg), func(t *testing.T) {
			home, cwd := t.TempDir(), t.TempDir()
			marker := filepath.Join(t.TempDir(), "ran")
			plant(t, marker, filepath.Join(cwd, "nvim", "vigor", "bin", version, "vigor"),
				filepath.Join(cwd, "rel", "nvim", "vigor", "bin", version, "vigor"), filepath.Join(cwd, "rel", "vigor", "bin", version, "vigor"))
			opts := editortest.Options{RTP: []string{hello()}, Env: []string{"HOME=" + home, "XDG_CACHE_HOME=" + xdg},
				Cmds: []string{"unlet g:vigor#cache_dir", "let g:vigor#go = " + editortest.VimString(goCmd),
					"execute 'cd' fnameescape(" + editortest.VimString(cwd) + ")"}}
			each(t, opts, func(t *testing.T, ed *editortest.Editor) {
				want := filepath.Join(home, ".cache", "vigor")
				if ed.Kind == "nvim" {
					want = filepath.Join(home, ".cache", "nvim", "vigor")
				}
				mustEqual(t, ed, "the cache", ed.MustEval(t, "vigor#_internal#conf#cache_dir()"), want)
				waitLoaded(t, ed, "hello")
				if b, err := os.ReadFile(marker); err == nil {
					t.Fatalf("%s: the planted program ran: %s", ed.Kind, b)
				}
			})
		})
	}
}
