package vigortest_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

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

var kit = filepath.Join("testdata", "kit")

// The editors load the repositories as a plugin manager would: plugin/
// (a command defined the documented way), autoload/, ftplugin/, doc/
// and after/, after the vimrc.
func TestPluginFilesLoad(t *testing.T) {
	vimrc := filepath.Join(t.TempDir(), "vimrc")
	if err := os.WriteFile(vimrc, []byte("let g:kit_vimrc = exists('g:loaded_kit')\nlet mapleader = ','\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	vigortest.Each(t, vigortest.Options{Repos: []string{kit}, Vimrc: vimrc}, func(t *testing.T, ed *vigortest.Editor) {
		if got := ed.Output(t, "KitEcho loaded"); got != "\nkit: loaded" {
			t.Fatalf("%s: :KitEcho echoed %q", ed.Kind, got)
		}
		for expr, want := range map[string]any{
			"g:kit_vimrc":                  int64(0), // the vimrc runs before the plugins
			"g:kit_after":                  int64(1), // after/plugin runs after plugin/
			"kit#twice(21)":                int64(42),
			"maparg(',k', 'n')":            "<Plug>(kit-mark)",
			"&runtimepath =~# 'kit/after'": int64(1),
		} {
			if got := ed.Eval(t, expr); got != want {
				t.Errorf("%s: %s = %#v, want %#v", ed.Kind, expr, got, want)
			}
		}
		ed.Cmd(t, "new | setfiletype kitft")
		if got := ed.Eval(t, "get(b:, 'kit_ftplugin', 0)"); got != int64(1) {
			t.Errorf("%s: the ftplugin did not run: b:kit_ftplugin = %#v", ed.Kind, got)
		}
		ed.Cmd(t, "help kit-usage")
		if got := ed.Eval(t, "expand('%:t') . ':' . getline('.')"); !strings.HasPrefix(fmt.Sprint(got), "kit.txt:") || !strings.Contains(fmt.Sprint(got), "*kit-usage*") {
			t.Errorf("%s: :help kit-usage shows %v", ed.Kind, got)
		}
		if _, err := os.Stat(filepath.Join(kit, "doc", "tags")); err == nil {
			t.Errorf("%s: help tags were written into the repository", ed.Kind)
		}
	})
}

// Messages holds what the plugin showed, and not Vim's "Entering Ex
// mode"; Output captures what a command echoed, OutputErr its error.
func TestMessages(t *testing.T) {
	vigortest.Each(t, vigortest.Options{Repos: []string{kit}}, func(t *testing.T, ed *vigortest.Editor) {
		if m := ed.Messages(t); strings.Contains(m, "Ex mode") {
			t.Fatalf("%s: Messages = %q", ed.Kind, m)
		}
		ed.Cmd(t, "KitSay said by kit")
		ed.WaitMessage(t, "said by kit", 30*time.Second)
		ed.Request(t, "kit", "complain", "kit is unhappy")
		m := ed.WaitMessage(t, "kit is unhappy", 10*time.Second)
		if strings.Contains(m, "Ex mode") || !strings.Contains(m, "[kit]") {
			t.Fatalf("%s: Messages = %q", ed.Kind, m)
		}
		ed.ClearMessages(t)
		if m := ed.Messages(t); strings.TrimSpace(m) != "" {
			t.Fatalf("%s: Messages after ClearMessages = %q", ed.Kind, m)
		}
		if got := ed.Output(t, "echo 'a' | echomsg 'b'"); got != "\na\nb" {
			t.Fatalf("%s: Output = %q", ed.Kind, got)
		}
		if got := ed.Output(t, "KitSay in output"); got != "\n[kit] in output" {
			t.Fatalf("%s: Output of a request that shows a message = %q", ed.Kind, got)
		}
		if _, err := ed.OutputErr("nosuchcommand"); err == nil || !strings.Contains(err.Error(), "E492") {
			t.Fatalf("%s: OutputErr of a bad command: %v", ed.Kind, err)
		}
	})
}

// With a screen, keys, mappings, :normal and feedkeys() work on both
// editors, the screen's text can be read, and Eval, Cmd and Request still
// work.
func TestScreen(t *testing.T) {
	vigortest.Each(t, vigortest.Options{Repos: []string{kit, hello}, Screen: true}, func(t *testing.T, ed *vigortest.Editor) {
		// Vigor's "built hello" would overwrite the message line.
		ed.WaitLoaded(t, "hello")
		ed.WaitLoaded(t, "kit")
		ed.Keys(t, ":KitEcho typed", "Enter")
		ed.WaitScreen(t, "kit: typed", 10*time.Second)
		ed.Keys(t, `\k`)
		ed.WaitFor(t, "get(g:, 'kit_mapped', 0) == 1", 10*time.Second)
		ed.Keys(t, ":KitEcho <lt>in Vim's notation><CR>")
		ed.WaitScreen(t, "kit: <in Vim's notation>", 10*time.Second)
		ed.Keys(t, ":KitEcho Enter", "<Esc>", ":KitEcho not Esc<CR>")
		ed.WaitScreen(t, "kit: not Esc", 10*time.Second)
		ed.Cmd(t, `normal \k`)
		ed.Cmd(t, `call feedkeys('\k', 'x')`)
		if got := ed.Eval(t, "g:kit_mapped"); got != int64(3) {
			t.Fatalf("%s: g:kit_mapped = %#v after a key, :normal and feedkeys()", ed.Kind, got)
		}
		ed.Cmd(t, "call setline(1, ['first line', 'second line']) | redraw")
		ed.Keys(t, "dd")
		ed.WaitFor(t, "getline(1) ==# 'second line'", 10*time.Second)
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			s := ed.Screen(t)
			if strings.HasPrefix(s, "second line\n") && !strings.Contains(s, "first line") {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: the screen does not show the line after dd:\n%s", ed.Kind, s)
			}
		}
		if got := ed.Request(t, "hello", "greet", "screen"); got != "Hello, screen!" {
			t.Fatalf("%s: greet = %#v", ed.Kind, got)
		}
	})
}

// An editor's method that needs a screen says so without one.
func TestKeysNeedScreen(t *testing.T) {
	vigortest.Each(t, vigortest.Options{Repos: []string{hello}}, func(t *testing.T, ed *vigortest.Editor) {
		ft := &fakeT{TB: t}
		func() {
			defer func() { _ = recover() }()
			ed.Screen(ft)
		}()
		if !strings.Contains(ft.msg, "set vigortest.Options.Screen") {
			t.Fatalf("%s: Screen without a screen: %q", ed.Kind, ft.msg)
		}
	})
}

// fakeT records a Fatalf and stops the function with a panic.
type fakeT struct {
	testing.TB
	msg string
}

func (f *fakeT) Helper() {}
func (f *fakeT) Fatalf(format string, args ...any) {
	f.msg = fmt.Sprintf(format, args...)
	panic(f)
}
