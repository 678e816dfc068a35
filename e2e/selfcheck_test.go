package e2e

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vigorvim/vigor/internal/editortest"
)

// copyRuntime copies into dir what a start of the runtime reads from its
// checkout: plugin/, autoload/ and the vigor command's sources (the builds
// themselves are fakeGo's copies), and returns dir.
func copyRuntime(t *testing.T, dir string) string {
	t.Helper()
	root := editortest.Root()
	keep := func(rel string, d fs.DirEntry) bool {
		top, _, _ := strings.Cut(rel, "/")
		switch {
		case top == "plugin" || top == "autoload":
			return true
		case d.IsDir():
			return !strings.Contains(rel, "/") && top == "internal" || rel == "cmd" || strings.HasPrefix(rel, "internal/") || strings.HasPrefix(rel, "cmd/vigor")
		case rel == "go.mod" || rel == "go.sum":
			return true
		}
		return strings.HasSuffix(rel, ".go") && (!strings.Contains(rel, "/") || top == "internal" || strings.HasPrefix(rel, "cmd/vigor/"))
	}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if rel == "." {
			return nil
		}
		if !keep(rel, d) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		to := filepath.Join(dir, filepath.FromSlash(rel))
		if d.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		// A root file can sort before the first directory (alloc_*.go
		// before autoload/), so its directory may not exist yet.
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return err
		}
		return os.WriteFile(to, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// A start that has used the vigor command before runs it again without
// listing its sources: the command checks them itself (vigor build -self).
// A changed source of the checkout (a file of the SDK's internal packages)
// still makes the next start build the command again, once, and the
// plugins then start with the new command.
func TestVigorCommandRebuiltAfterSourceChange(t *testing.T) {
	for _, kind := range editortest.Kinds {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			vigor, plugin := prebuild(t, dir)
			goCmd := fakeGo(t, dir, vigor, plugin)
			root := copyRuntime(t, filepath.Join(dir, "checkout"))
			opts := editortest.Options{RTP: []string{hello()}, Cache: filepath.Join(dir, "cache"),
				Cmds: []string{"let g:vigor#go = " + editortest.VimString(goCmd), "set runtimepath^=" + root}}
			builds := func() int {
				b, _ := os.ReadFile(filepath.Join(dir, "builds.log"))
				return strings.Count(string(b), "vigor ")
			}
			start := func(what string) string {
				t.Helper()
				ed := editortest.Start(t, kind, opts)
				defer ed.Close()
				if got := ed.MustEval(t, "vigor#_internal#bootstrap#root()"); got != root {
					t.Fatalf("%s: the runtime is the one of %v, not of the copy %s", what, got, root)
				}
				if got := ed.MustEval(t, `vigor#request('hello', 'greet', ['again'])`); got != "Hello, again!" {
					t.Fatalf("%s: hello.greet gave %v", what, got)
				}
				ed.WaitFor(t, "vigor#_internal#bootstrap#is_ready()", 30*time.Second)
				return ed.MustEval(t, "vigor#_internal#bootstrap#vigor()").(string)
			}
			first := start("the first start")
			if n := builds(); n != 1 {
				t.Fatalf("the first start built the vigor command %d times, want 1", n)
			}
			if again := start("a second start"); again != first || builds() != 1 {
				t.Fatalf("a second start ran %s (the first ran %s) after %d builds of the vigor command, want the same and 1", again, first, builds())
			}
			src := filepath.Join(root, "internal", "build", "build.go")
			f, err := os.OpenFile(src, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := f.WriteString("\n// A change.\n"); err != nil {
				t.Fatal(err)
			}
			f.Close()
			changed := start("the start after a change")
			if changed == first || builds() != 2 {
				t.Fatalf("after a change of %s the start ran %s (before: %s) after %d builds of the vigor command, want another and 2", src, changed, first, builds())
			}
			if again := start("the start after that"); again != changed || builds() != 2 {
				t.Fatalf("the start after that ran %s (want %s) after %d builds of the vigor command, want 2", again, changed, builds())
			}
		})
	}
}

// The runtime lists the vigor command's sources as the command does when
// it checks them (build.VigorSources): the list that a start wrote beside
// the command is "fresh" for the command itself. Otherwise every start
// would make its list again.
func TestVigorSourcesAgree(t *testing.T) {
	each(t, editortest.Options{RTP: []string{hello()}}, func(t *testing.T, ed *editortest.Editor) {
		// A build checks the command (and gets the checkout's if it was
		// not); a start without one leaves it as it found it.
		waitLoadedWithin(t, ed, "hello", coldBuild)
		exe := ed.MustEval(t, "vigor#_internal#bootstrap#vigor()").(string)
		list := filepath.Join(filepath.Dir(exe), "sources")
		cmd := exec.Command(exe, "build", "-json", "-cache", t.TempDir(), "-sdk", editortest.Root(), "-self", list,
			"none="+filepath.Join(t.TempDir(), "none"))
		out, _ := cmd.Output()
		first, _, _ := strings.Cut(string(out), "\n")
		if first != `{"plugin":"","status":"fresh"}` {
			b, _ := os.ReadFile(list)
			t.Fatalf("%s: the vigor command finds the runtime's list of its sources not fresh: it says %q; the list:\n%s", ed.Kind, out, b)
		}
	})
}

// Vigor starts after VimEnter, from a timer; a request from a VimEnter
// handler that runs before Vigor's (one the vimrc defines) starts it, and
// gets its answer.
func TestRequestFromVimEnter(t *testing.T) {
	opts := editortest.Options{RTP: []string{hello()},
		Cmds: []string{"autocmd VimEnter * let g:venter = vigor#request('hello', 'greet', ['VimEnter'])"}}
	each(t, opts, func(t *testing.T, ed *editortest.Editor) {
		ed.WaitFor(t, "get(g:, 'venter', '') ==# 'Hello, VimEnter!'", coldBuild)
	})
}
