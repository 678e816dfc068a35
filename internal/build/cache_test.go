package build

import (
	"errors"
	"path/filepath"
	"testing"
)

func TestDefaultCache(t *testing.T) {
	xdg := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", xdg)
	if d, err := DefaultCache(); err != nil || d != filepath.Join(xdg, "vigor") {
		t.Errorf("with $XDG_CACHE_HOME: %q, %v; want %q", d, err, filepath.Join(xdg, "vigor"))
	}
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("HOME", "")
	t.Setenv("TMPDIR", t.TempDir())
	if d, err := DefaultCache(); !errors.Is(err, ErrNoCache) {
		t.Errorf("without $HOME and $XDG_CACHE_HOME: %q, %v; want ErrNoCache", d, err)
	}
	t.Setenv("XDG_CACHE_HOME", "relative/dir")
	if d, err := DefaultCache(); !errors.Is(err, ErrNoCache) {
		t.Errorf("with a relative $XDG_CACHE_HOME and no $HOME: %q, %v; want ErrNoCache", d, err)
	}
}

// Build needs a cache: an empty one would put binaries in the working
// directory.
func TestBuildNeedsCache(t *testing.T) {
	res, events := buildOnce(t, Options{SDK: t.TempDir()}, Plugin{Name: "p", Dir: t.TempDir()})
	if res.Err == nil || len(events) != 1 || events[0].Status != "failed" {
		t.Fatalf("a build with no cache: %v, events %v; want it to fail", res.Err, events)
	}
}
