package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vigorvim/vigor/internal/editortest"
)

// A message shown after a progress line stays on the screen: the end of a
// call that showed the waiting line clears that line only while it is the
// last thing shown, not the plugin's own message that came after it.
func TestMessageAfterProgressStays(t *testing.T) {
	for _, kind := range editortest.Kinds {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			tm := startTerm(t, kind, rtp("hard")...)
			tm.waitLoaded("vhard")
			done := filepath.Join(t.TempDir(), "done")
			tm.keys(":redraw!", "Enter",
				fmt.Sprintf(":call vigor#request('vhard', 'saylate', ['formatted 300 lines', 1500]) | call writefile(['done'], '%s')", done), "Enter")
			deadline := time.Now().Add(20 * time.Second)
			for {
				if _, err := os.Stat(done); err == nil {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("%s: the call did not end within 20 s; the screen shows:\n%s", kind, tm.screen())
				}
				time.Sleep(20 * time.Millisecond)
			}
			time.Sleep(300 * time.Millisecond)
			s := tm.screen()
			if strings.Contains(s, "Press ENTER") {
				t.Fatalf("%s: a hit-enter prompt:\n%s", kind, s)
			}
			if !strings.Contains(lastLine(s), "[vhard] formatted 300 lines") {
				t.Fatalf("%s: the plugin's message is not on the screen after the call; it shows:\n%s", kind, s)
			}
		})
	}
}

// A popup of std/popup looks the same on both editors: its border, its
// title and its lines at the same cells, for a top-left and a
// bottom-right anchor, and at the right edge of the screen.
func TestStdPopupOnScreen(t *testing.T) {
	want := []string{
		// Rows 2 to 5, columns 5 to 16: at row 2, col 5, anchor NW.
		"╭Matches───╮",
		"│first line│",
		"│second    │",
		"╰──────────╯",
		// Rows 8 to 11, columns 91 to 99: at row 8, col 92, too wide for
		// the screen's 100 columns: narrowed, wrapped and moved one left.
		"┌───────┐",
		"│0123456│",
		"│789    │",
		"└───────┘",
		// Rows 13 to 16, columns 7 to 99: at col 8, a line of 100
		// wraps at the room to the right edge, and the popup moves one
		// left.
		"╔" + strings.Repeat("═", 91) + "╗",
		"║" + strings.Repeat("abcdefghij", 9) + "a║",
		"║bcdefghij" + strings.Repeat(" ", 82) + "║",
		"╚" + strings.Repeat("═", 91) + "╝",
		// Rows 18 to 20, columns 47 to 60: at row 20, col 60, anchor SE.
		"┌────────────┐",
		"│bottom right│",
		"└────────────┘",
	}
	for _, kind := range editortest.Kinds {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			tm := startTerm(t, kind, rtp("stdpopup")...)
			tm.waitLoaded("stdpopup")
			tm.keys(":redraw!", "Enter", ":call stdpopup#show()", "Enter")
			s := tm.waitScreen("popups open", 20*time.Second)
			rows := strings.Split(s, "\n")
			cells := func(row, col, n int) string {
				if row >= len(rows) {
					return ""
				}
				r := []rune(rows[row])
				if col+n > len(r) {
					return ""
				}
				return string(r[col : col+n])
			}
			var got []string
			for i := range 4 {
				got = append(got, cells(2+i, 5, 12))
			}
			for i := range 4 {
				got = append(got, cells(8+i, 91, 9))
			}
			for i := range 4 {
				got = append(got, cells(13+i, 7, 93))
			}
			for i := range 3 {
				got = append(got, cells(18+i, 47, 14))
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Fatalf("%s: the popups show\n%s\nwant\n%s\nThe screen:\n%s", kind, strings.Join(got, "\n"), strings.Join(want, "\n"), s)
			}
		})
	}
}

// A popup that a notification opens (no request waits, so the editor
// does not redraw after it) shows at once on both editors, and so do its
// changes and its closing.
func TestStdPopupAsyncOnScreen(t *testing.T) {
	for _, kind := range editortest.Kinds {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			tm := startTerm(t, kind, rtp("stdpopup")...)
			tm.waitLoaded("stdpopup")
			tm.keys(":enew", "Enter", ":redraw!", "Enter",
				":call vigor#notify('stdpopup', 'open', [{'Row': 3, 'Col': 3, 'Border': 1, 'Lines': ['async']}])", "Enter")
			tm.waitScreen("│async│", 10*time.Second)
			tm.keys(":call vigor#notify('stdpopup', 'setlast', [['changed']])", "Enter")
			tm.waitScreen("│changed│", 10*time.Second)
			tm.keys(":call vigor#notify('stdpopup', 'movelast', [{'Row': 10, 'Col': 30}])", "Enter")
			s := tm.waitScreen("~"+strings.Repeat(" ", 29)+"│changed│", 10*time.Second)
			tm.keys(":call vigor#notify('stdpopup', 'closelast', [])", "Enter")
			for end := time.Now().Add(10 * time.Second); strings.Contains(s, "│changed│"); s = tm.screen() {
				if time.Now().After(end) {
					t.Fatalf("%s: the popup is still on the screen after closelast:\n%s", kind, s)
				}
				time.Sleep(50 * time.Millisecond)
			}
		})
	}
}
