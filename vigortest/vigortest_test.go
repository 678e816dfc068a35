package vigortest_test

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/vigorvim/vigor/vigortest"
)

var hello = filepath.Join("..", "examples", "hello")

func TestEach(t *testing.T) {
	vigortest.Each(t, vigortest.Options{Repos: []string{hello}}, func(t *testing.T, ed *vigortest.Editor) {
		ed.WaitLoaded(t, "hello")
		if got := ed.Request(t, "hello", "greet", "kit"); got != "Hello, kit!" {
			t.Fatalf("%s: greet = %#v", ed.Kind, got)
		}
		_, err := ed.RequestErr("hello", "greet")
		if err == nil || !vigortest.IsEditorError(err) || !strings.HasPrefix(err.Error(), "[vigor] hello.greet: takes 1 argument") {
			t.Fatalf("%s: greet with no argument: %v", ed.Kind, err)
		}
		ed.Cmd(t, "let g:kit = 41 + 1")
		if got := ed.Eval(t, "g:kit"); got != int64(42) {
			t.Fatalf("%s: g:kit = %#v", ed.Kind, got)
		}
		if err := ed.CmdErr("nosuchcommand"); err == nil || !strings.Contains(err.Error(), "E492") {
			t.Fatalf("%s: a bad command: %v", ed.Kind, err)
		}
	})
}

// An editor that is not installed skips its subtest when Missing is Skip;
// the other editor still runs.
func TestMissingEditorSkips(t *testing.T) {
	t.Setenv("VIGOR_TEST_VIM", filepath.Join(t.TempDir(), "no-such-vim"))
	var mu sync.Mutex
	var ran []string
	t.Run("each", func(t *testing.T) {
		vigortest.Each(t, vigortest.Options{Repos: []string{hello}, Missing: vigortest.Skip}, func(t *testing.T, ed *vigortest.Editor) {
			mu.Lock()
			ran = append(ran, ed.Kind)
			mu.Unlock()
		})
	})
	if len(ran) != 1 || ran[0] != "nvim" {
		t.Fatalf("the body ran in %v, want nvim alone", ran)
	}
}

// The repository is found from the working directory when Options.Repos
// is empty.
func TestRepoFromWorkingDirectory(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chdir(filepath.Join(hello, "vigor", "hello")); err != nil {
		t.Fatal(err)
	}
	// Each reads the working directory before its subtests run.
	vigortest.Each(t, vigortest.Options{}, func(t *testing.T, ed *vigortest.Editor) {
		if got := ed.Request(t, "hello", "greet", "wd"); got != "Hello, wd!" {
			t.Fatalf("%s: greet = %#v", ed.Kind, got)
		}
	})
	if err := os.Chdir(wd); err != nil {
		t.Fatal(err)
	}
}
