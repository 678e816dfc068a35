package editortest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The shared test cache is made private (0700) when it is missing, and
// used only when it is ours and not group or world writable: another local
// user who makes it first must not decide what the tests run.
func TestCacheDir(t *testing.T) {
	t.Run("made private", func(t *testing.T) {
		d := filepath.Join(t.TempDir(), "cache")
		got, err := cacheDir(d)
		if err != nil || got != d {
			t.Fatalf("cacheDir(%s) = %q, %v", d, got, err)
		}
		if st, err := os.Stat(d); err != nil || st.Mode().Perm() != 0o700 {
			t.Fatalf("%s: %v, %v; want a directory with mode 0700", d, st.Mode().Perm(), err)
		}
	})
	t.Run("ours and 0755", func(t *testing.T) {
		d := t.TempDir()
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if _, err := cacheDir(d); err != nil {
			t.Fatalf("a 0755 directory of ours: %v", err)
		}
	})
	for _, mode := range []os.FileMode{0o777, 0o775, 0o1777} {
		t.Run(fmt.Sprintf("mode %o", mode), func(t *testing.T) {
			d := t.TempDir()
			if err := os.Chmod(d, mode); err != nil {
				t.Fatal(err)
			}
			refused(t, d, "writable")
		})
	}
	t.Run("someone else's", func(t *testing.T) {
		d := "/" // not ours unless we are root
		if os.Getuid() == 0 {
			d = t.TempDir()
			if err := os.Chown(d, 65534, 65534); err != nil {
				t.Fatal(err)
			}
		}
		refused(t, d, "owned by")
	})
	t.Run("a symbolic link", func(t *testing.T) {
		link := filepath.Join(t.TempDir(), "link")
		if err := os.Symlink(t.TempDir(), link); err != nil {
			t.Fatal(err)
		}
		refused(t, link, "symbolic link")
	})
	t.Run("a file", func(t *testing.T) {
		f := filepath.Join(t.TempDir(), "file")
		if err := os.WriteFile(f, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		refused(t, f, "")
	})
}

// Without $VIGOR_TEST_CACHE the cache is in the user's cache directory, or,
// where there is none, at a predictable name under $TMPDIR, which is used
// only if it passes the same checks.
func TestDefaultCacheDir(t *testing.T) {
	t.Setenv("VIGOR_TEST_CACHE", "")
	xdg := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", xdg)
	t.Setenv("HOME", t.TempDir())
	if got, err := cacheDir(""); err != nil || !strings.HasPrefix(got, xdg+string(filepath.Separator)) && !strings.HasPrefix(got, os.Getenv("HOME")+string(filepath.Separator)) {
		t.Fatalf("default = %q, %v; want it in the user's cache directory", got, err)
	}

	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("HOME", "")
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	want := filepath.Join(tmp, fmt.Sprintf("vigor-test-cache-%d", os.Getuid()))
	if err := os.Mkdir(want, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(want, 0o777); err != nil {
		t.Fatal(err)
	}
	refused(t, "", "writable")
	if err := os.Chmod(want, 0o700); err != nil {
		t.Fatal(err)
	}
	if got, err := cacheDir(""); err != nil || got != want {
		t.Fatalf("default = %q, %v; want %q", got, err, want)
	}
}

func refused(t *testing.T, dir, why string) {
	t.Helper()
	got, err := cacheDir(dir)
	if err == nil {
		t.Fatalf("cacheDir(%q) = %q: used, want it refused", dir, got)
	}
	for _, want := range []string{why, "VIGOR_TEST_CACHE"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q, want it to contain %q", err, want)
		}
	}
}

// A missing editor's error says how to install it, naming no file that
// only Vigor's repository has.
func TestBinaryMissingSaysHowToInstall(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	for _, c := range []struct{ kind, env, how string }{
		{"vim", "VIGOR_TEST_VIM", "apt-get install vim"},
		{"nvim", "VIGOR_TEST_NVIM", "brew install neovim"},
	} {
		for _, set := range []string{"", filepath.Join(t.TempDir(), "none")} {
			t.Setenv(c.env, set)
			_, err := Binary(c.kind)
			if err == nil || !strings.Contains(err.Error(), c.how) || strings.Contains(err.Error(), ".ci/") || strings.Contains(err.Error(), "scripts/") {
				t.Errorf("%s with $%s=%q: %v", c.kind, c.env, set, err)
			}
		}
	}
}

// A screen without tmux fails, saying how to install it.
func TestTermNeedsTmux(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	ft := &fatalT{TB: t}
	func() {
		defer func() { _ = recover() }()
		StartTerm(ft, "vim", 80, 24, nil, []string{"true"})
	}()
	if !strings.Contains(ft.msg, "apt-get install tmux") || !strings.Contains(ft.msg, "brew install tmux") {
		t.Fatalf("StartTerm without tmux: %q", ft.msg)
	}
}

// fatalT records a Fatal and stops the function with a panic.
type fatalT struct {
	testing.TB
	msg string
}

func (f *fatalT) Helper() {}
func (f *fatalT) Fatal(args ...any) {
	f.msg = fmt.Sprint(args...)
	panic(f)
}
