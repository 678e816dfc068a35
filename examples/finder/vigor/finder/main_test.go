package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/vigorvim/vigor/vigortest"
)

// wait bounds each wait for the screen.
const wait = 10 * time.Second

// TestFind types :Find and a query on a real screen in Vim and in Neovim,
// reads the matches in the popup, and checks where <CR> puts the cursor
// that <Esc> closes the popup and moves nothing, and what no match shows.
func TestFind(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.txt")
	for name, text := range map[string]string{
		a: "alpha\nbeta\ngamma delta\n",
		b: "one\nthe delta line\nthree\n",
	} {
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	vigortest.Each(t, vigortest.Options{Screen: true}, func(t *testing.T, ed *vigortest.Editor) {
		// a.txt is listed; Vim unloads it when b.txt takes the window
		// ('nohidden'), Neovim hides it: both are searched.
		ed.Cmd(t, "edit "+a)
		ed.Cmd(t, "edit "+b)

		// The first :Find starts the plugin (lazy.json), then runs.
		ed.Keys(t, ":Find<CR>")
		ed.WaitLoaded(t, "finder")
		ed.WaitScreen(t, "Find:", wait)
		ed.Keys(t, "delta")
		s := ed.WaitScreen(t, "> a.txt:3: gamma delta", wait)
		if !strings.Contains(s, "  b.txt:2: the delta line") {
			t.Fatalf("%s: the popup does not show b.txt's match:\n%s", ed.Kind, s)
		}
		ed.Keys(t, " l")
		s = ed.WaitScreen(t, "> b.txt:2: the delta line", wait)
		if strings.Contains(s, "a.txt:3") {
			t.Fatalf("%s: the popup still shows a.txt's line for %q:\n%s", ed.Kind, "delta l", s)
		}
		ed.Keys(t, "<CR>")
		waitGone(t, ed, "> b.txt:2")
		if got, want := cursor(t, ed), []any{"b.txt", int64(2), int64(5)}; !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: after <CR> the cursor is at %v, want %v", ed.Kind, got, want)
		}

		// A query given to :Find; the match is in a buffer that no
		// window shows.
		ed.Keys(t, ":Find gamma<CR>")
		ed.WaitScreen(t, "> a.txt:3: gamma delta", wait)
		ed.Keys(t, "<CR>")
		waitGone(t, ed, "> a.txt:3")
		if got, want := cursor(t, ed), []any{"a.txt", int64(3), int64(1)}; !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: after <CR> the cursor is at %v, want %v", ed.Kind, got, want)
		}

		// <Esc> closes the popup, removes the autocmd and moves nothing.
		ed.Keys(t, ":Find three<CR>")
		ed.WaitScreen(t, "> b.txt:3: three", wait)
		ed.Keys(t, "<Esc>")
		waitGone(t, ed, "> b.txt:3")
		if got, want := cursor(t, ed), []any{"a.txt", int64(3), int64(1)}; !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: after <Esc> the cursor is at %v, want %v", ed.Kind, got, want)
		}
		if n := ed.Eval(t, "exists('#finder#CmdlineChanged')"); n != int64(0) {
			t.Fatalf("%s: the filter's autocmd is still defined after <Esc>", ed.Kind)
		}

		// No match: the popup says so, and <CR> says so and moves nothing.
		ed.Keys(t, ":Find zzz<CR>")
		ed.WaitScreen(t, "(no match)", wait)
		ed.Keys(t, "<CR>")
		ed.WaitScreen(t, `finder: no line holds "zzz"`, wait)
		if got, want := cursor(t, ed), []any{"a.txt", int64(3), int64(1)}; !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: after <CR> with no match the cursor is at %v, want %v", ed.Kind, got, want)
		}
	})
}

// cursor returns the current buffer's file name, line and column.
func cursor(t *testing.T, ed *vigortest.Editor) []any {
	t.Helper()
	v, _ := ed.Eval(t, "[expand('%:t'), line('.'), col('.')]").([]any)
	return v
}

// waitGone waits until the screen no longer shows text.
func waitGone(t *testing.T, ed *vigortest.Editor, text string) {
	t.Helper()
	deadline := time.Now().Add(wait)
	for {
		s := ed.Screen(t)
		if !strings.Contains(s, text) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: the screen still shows %q after %s:\n%s", ed.Kind, text, wait, s)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
