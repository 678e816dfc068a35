package main

import (
	"fmt"
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
		// The popup can leave the screen (a redraw) before the plugin has
		// cleaned up after input() returned: wait for the autocmd to go.
		ed.WaitFor(t, "!exists('#finder#CmdlineChanged')", wait)

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

// TestFindSelect moves the selection with the keys that :Find maps while
// it asks for the query, on a real screen in Vim and in Neovim: <C-n>
// twice and <CR> jump to the third match, the selection wraps around at
// both ends and the popup scrolls to keep it shown, and after :Find the
// user's own mappings of those keys (a global one, a buffer's) are back
// and no other is left, after <CR> (also to another buffer) and after
// <Esc>.
func TestFindSelect(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.txt")
	var text strings.Builder
	for i := 1; i <= 12; i++ {
		fmt.Fprintf(&text, "item %d\n", i)
	}
	b := filepath.Join(dir, "b.txt")
	for name, text := range map[string]string{a: text.String(), b: "other line\nanother\n"} {
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	vigortest.Each(t, vigortest.Options{Screen: true}, func(t *testing.T, ed *vigortest.Editor) {
		ed.Cmd(t, "edit "+b)
		ed.Cmd(t, "edit "+a)
		ed.Cmd(t, "cnoremap <C-n> user-n")
		ed.Cmd(t, "cnoremap <buffer> <C-p> user-p")

		ed.Keys(t, ":Find<CR>")
		ed.WaitLoaded(t, "finder")
		waitInput(t, ed)
		ed.Keys(t, "item")
		ed.WaitScreen(t, "Find 1/12", wait)
		ed.Keys(t, "<C-n><C-n>")
		ed.WaitScreen(t, "Find 3/12", wait) // the title changes after the lines
		s := ed.WaitScreen(t, "> a.txt:3: item 3", wait)
		for _, want := range []string{"  a.txt:1: item 1", "  a.txt:2: item 2", "Find: item"} {
			if !strings.Contains(s, want) {
				t.Fatalf("%s: after <C-n><C-n> the screen does not show %q:\n%s", ed.Kind, want, s)
			}
		}
		ed.Keys(t, "<CR>")
		waitGone(t, ed, "> a.txt:3")
		if got, want := cursor(t, ed), []any{"a.txt", int64(3), int64(1)}; !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: after <C-n><C-n><CR> the cursor is at %v, want %v", ed.Kind, got, want)
		}
		checkMaps(t, ed, "<CR>")

		// Up from the first wraps to the last, which the popup scrolls
		// to; down from the last wraps to the first.
		ed.Keys(t, ":Find item<CR>")
		waitInput(t, ed)
		ed.WaitScreen(t, "> a.txt:1: item 1", wait)
		ed.Keys(t, "<C-p>")
		s = ed.WaitScreen(t, "> a.txt:12: item 12", wait)
		if strings.Contains(s, "a.txt:1: item 1 ") || strings.Contains(s, "a.txt:2: item 2") || !strings.Contains(s, "  a.txt:3: item 3") {
			t.Fatalf("%s: with the last match selected the popup does not show matches 3 to 12:\n%s", ed.Kind, s)
		}
		ed.Keys(t, "<Down>")
		s = ed.WaitScreen(t, "> a.txt:1: item 1", wait)
		if strings.Contains(s, "a.txt:12") {
			t.Fatalf("%s: with the first match selected the popup still shows the last:\n%s", ed.Kind, s)
		}
		ed.Keys(t, "<Tab>", "<Tab>")
		ed.WaitScreen(t, "> a.txt:3: item 3", wait)
		ed.Keys(t, "<Up>")
		ed.WaitScreen(t, "> a.txt:2: item 2", wait)
		ed.Keys(t, "BTab") // <S-Tab>, by its tmux name
		ed.WaitScreen(t, "> a.txt:1: item 1", wait)
		// A new query selects its first match.
		ed.Keys(t, "<C-n>", " 1")
		ed.WaitScreen(t, "Find 1/4", wait)
		ed.WaitScreen(t, "> a.txt:1: item 1", wait)
		ed.Keys(t, "<Esc>")
		waitGone(t, ed, "> a.txt:1")
		if got, want := cursor(t, ed), []any{"a.txt", int64(3), int64(1)}; !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: after <Esc> the cursor is at %v, want %v", ed.Kind, got, want)
		}
		// The autocmd goes in the same batch as the mappings come back.
		ed.WaitFor(t, "!exists('#finder#CmdlineChanged')", wait)
		checkMaps(t, ed, "<Esc>")

		// A jump to another buffer: a.txt's own <C-p> is back in a.txt,
		// and b.txt has none.
		ed.Keys(t, ":Find other<CR>")
		waitInput(t, ed)
		ed.WaitScreen(t, "> b.txt:1: other line", wait)
		ed.Keys(t, "<C-n>")
		ed.WaitScreen(t, "> b.txt:2: another", wait)
		ed.Keys(t, "<CR>")
		waitGone(t, ed, "> b.txt:2")
		if got, want := cursor(t, ed), []any{"b.txt", int64(2), int64(3)}; !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: after <C-n><CR> the cursor is at %v, want %v", ed.Kind, got, want)
		}
		if got := ed.Eval(t, "maparg('<C-p>', 'c')"); got != "" {
			t.Fatalf("%s: b.txt has a command-line mapping of <C-p> after :Find: %q", ed.Kind, got)
		}
		ed.Cmd(t, "buffer "+a)
		checkMaps(t, ed, "a jump to another buffer")
	})
}

// checkMaps checks that the command-line mappings of the keys that :Find
// maps are the user's again (TestFindSelect's) after :Find ended by key.
func checkMaps(t *testing.T, ed *vigortest.Editor, key string) {
	t.Helper()
	got := ed.Eval(t, "map(['<C-n>', '<C-p>', '<Down>', '<Up>', '<Tab>', '<S-Tab>'],"+
		" 'maparg(v:val, \"c\", 0, 1)->get(\"rhs\", \"\") .. (maparg(v:val, \"c\", 0, 1)->get(\"buffer\", 0) ? \" (buffer)\" : \"\")')")
	want := []any{"user-n", "user-p (buffer)", "", "", "", ""}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s: after :Find and %s the command-line mappings of <C-n>, <C-p>, <Down>, <Up>, <Tab>, <S-Tab> are %q, want %q", ed.Kind, key, got, want)
	}
}

// waitInput waits until :Find's input() has the keys: the keys typed
// before wait until it returns (it saves them with inputsave()).
func waitInput(t *testing.T, ed *vigortest.Editor) {
	t.Helper()
	ed.WaitFor(t, "getcmdtype() ==# '@'", wait)
}

// cursor returns the current buffer's file name, line and column.
func cursor(t *testing.T, ed *vigortest.Editor) []any {
	t.Helper()
	v, _ := ed.Eval(t, "[expand('%:t'), line('.'), col('.')]").([]any)
	return v
}

// noPopup is true when no popup (Vim) or floating window (Neovim) is open.
const noPopup = `has('nvim') ? empty(filter(nvim_list_wins(), {_, w -> nvim_win_get_config(w).relative !=# ''})) : empty(popup_list())`

// waitGone waits until the screen no longer shows text, and :Find has
// closed its popup.
func waitGone(t *testing.T, ed *vigortest.Editor, text string) {
	t.Helper()
	deadline := time.Now().Add(wait)
	for {
		s := ed.Screen(t)
		if !strings.Contains(s, text) {
			// The text can leave the screen (a redraw) before :Find has
			// ended; it closes the popup last, after its clean-up and its
			// jump.
			ed.WaitFor(t, noPopup, wait)
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: the screen still shows %q after %s:\n%s", ed.Kind, text, wait, s)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
