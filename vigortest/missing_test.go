package vigortest

import (
	"errors"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/vigorvim/vigor/internal/editortest"
)

// noTmux is a lookPath that finds no tmux.
func noTmux(file string) (string, error) {
	return "", &exec.Error{Name: file, Err: exec.ErrNotFound}
}

// Without tmux, Options.Screen is an error that says how to install it;
// a test without a screen does not need it.
func TestMissingTmux(t *testing.T) {
	for _, kind := range Kinds {
		if _, err := editortest.Binary(kind); err != nil {
			t.Skipf("%s: %v", kind, err)
		}
		err := missing(kind, true, noTmux)
		want := "vigortest: Options.Screen needs tmux, and it is not installed: apt-get install tmux, or brew install tmux, then put tmux on $PATH"
		if err == nil || !strings.HasPrefix(err.Error(), want) || !errors.Is(err, exec.ErrNotFound) {
			t.Errorf("%s: %v, want %s", kind, err, want)
		}
		if err := missing(kind, false, noTmux); err != nil {
			t.Errorf("%s: without a screen: %v", kind, err)
		}
	}
}

// With Missing = Skip, a screen without tmux skips both editors' subtests
// (with no editor started) instead of failing them: each subtest looks
// tmux up, the body never runs, and nothing fails.
func TestMissingTmuxSkips(t *testing.T) {
	for _, kind := range Kinds {
		if _, err := editortest.Binary(kind); err != nil {
			t.Skipf("%s: %v", kind, err)
		}
	}
	var looked, ran atomic.Int32
	lookPath := func(file string) (string, error) {
		looked.Add(1)
		return noTmux(file)
	}
	ok := t.Run("each", func(t *testing.T) {
		each(t, Options{Repos: []string{t.TempDir()}, Screen: true, Missing: Skip}, lookPath, func(t *testing.T, ed *Editor) {
			ran.Add(1)
		})
	})
	if !ok || looked.Load() != int32(len(Kinds)) || ran.Load() != 0 {
		t.Fatalf("each passed: %v, tmux looked up %d times, the body ran %d times; want a pass, %d, 0",
			ok, looked.Load(), ran.Load(), len(Kinds))
	}
}
