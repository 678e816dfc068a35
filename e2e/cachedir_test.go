package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/vigorvim/vigor/internal/editortest"
)

// vigorVersionDir is the name of the vigor command's build directory in
// bin/ (vigor-{hash}-1), from an editor that started it.
func vigorVersionDir(t *testing.T) string {
	t.Helper()
	ed := editortest.Start(t, "vim", editortest.Options{})
	ed.WaitFor(t, "vigor#_internal#bootstrap#is_ready()", 120*time.Second)
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
	version := vigorVersionDir(t)
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

// An empty or relative $XDG_CACHE_HOME is ignored (the XDG rule): the cache
// is ~/.cache/vigor (~/.cache/nvim/vigor on Neovim, whose stdpath('cache')
// is then relative), never a path found from the current directory, where
// a program was planted at the name it would run.
func TestCacheDirIgnoresRelativeXDG(t *testing.T) {
	dir := t.TempDir()
	vigor, plugin := prebuild(t, dir)
	goCmd := fakeGo(t, dir, vigor, plugin)
	version := vigorVersionDir(t)
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
