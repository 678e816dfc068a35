package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Without $HOME and $XDG_CACHE_HOME, vigor build has no private place for
// its cache: it refuses, and says what to pass, instead of using a shared
// directory under $TMPDIR.
func TestBuildWithoutHomeRefuses(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("HOME", "")
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("TMPDIR", tmp)
	dir := filepath.Join(t.TempDir(), "vigor", "p")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr strings.Builder
	code := run(context.Background(), []string{"build", "-sdk", t.TempDir(), "p=" + dir}, &stdout, &stderr)
	if code != 2 {
		t.Errorf("exit code %d, want 2; stderr:\n%s", code, stderr.String())
	}
	msg := stderr.String()
	for _, want := range []string{"vigor build: ", "$HOME", "$XDG_CACHE_HOME", "-cache"} {
		if !strings.Contains(msg, want) {
			t.Errorf("stderr %q, want it to contain %q", msg, want)
		}
	}
	if strings.Count(strings.TrimSpace(msg), "\n") != 0 {
		t.Errorf("stderr %q is more than one line", msg)
	}
	if _, err := os.Stat(filepath.Join(tmp, "vigor")); !os.IsNotExist(err) {
		t.Errorf("vigor build made %s: %v", filepath.Join(tmp, "vigor"), err)
	}
}
