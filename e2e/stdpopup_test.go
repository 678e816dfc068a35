package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/vigorvim/vigor/internal/editortest"
)

func stdpopupRepo() editortest.Options { return editortest.Options{RTP: rtp("stdpopup")} }

// preq is the expression that calls the stdpopup plugin's method with
// args (Vim script).
func preq(method, args string) string {
	return "vigor#request('stdpopup', '" + method + "', [" + args + "])"
}

// std/popup opens, changes, queries and closes a popup on both editors,
// directly and in a batch, and the editor's own view of the window
// (popup_getoptions() and popup_getpos() on Vim, nvim_win_get_config() on
// Neovim, through the fixture's stdpopup#config()) is the same on both.
func TestStdPopup(t *testing.T) {
	each(t, stdpopupRepo(), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "stdpopup")
		config := func(id any) map[string]any {
			t.Helper()
			return ed.MustEval(t, fmt.Sprintf("stdpopup#config(%d)", id)).(map[string]any)
		}
		// Border Rounded (3), a title, both highlights.
		id := ed.MustEval(t, preq("open", "{'Row': 2, 'Col': 5, 'Border': 3, 'Title': 'Hi', 'Lines': ['one', 'three'], 'Highlight': 'Search', 'BorderHighlight': 'Error'}"))
		mustEqual(t, ed, "the popup", config(id), map[string]any{
			"row": int64(2), "col": int64(5), "width": int64(5), "height": int64(2), "title": "Hi",
			"border": []any{"╭", "─", "╮", "│", "╯", "─", "╰", "│"}, "highlight": "Search",
			"borderhighlight": "Error", "lines": []any{"one", "three"}, "zindex": int64(50),
		})
		mustEqual(t, ed, "IsOpen", ed.MustEval(t, preq("isopen", fmt.Sprint(id))), true)
		buf := ed.MustEval(t, preq("buffer", fmt.Sprint(id)))
		mustEqual(t, ed, "Buffer", buf, ed.MustEval(t, fmt.Sprintf("winbufnr(%d)", id)))
		mustEqual(t, ed, "the buffer's lines", ed.MustEval(t, fmt.Sprintf("getbufline(%d, 1, '$')", buf)), []any{"one", "three"})

		// SetLines: the size follows the content.
		ed.MustEval(t, preq("setlines", fmt.Sprintf("%d, ['a longer line', 'b', 'c']", id)))
		c := config(id)
		mustEqual(t, ed, "lines after SetLines", c["lines"], []any{"a longer line", "b", "c"})
		mustEqual(t, ed, "size after SetLines", []any{c["width"], c["height"]}, []any{int64(13), int64(3)})
		// Move, to the editor's row 4, col 8.
		ed.MustEval(t, preq("move", fmt.Sprintf("%d, {'Row': 4, 'Col': 8}", id)))
		c = config(id)
		mustEqual(t, ed, "position after Move", []any{c["row"], c["col"]}, []any{int64(4), int64(8)})
		// Resize: fixed, then bounded.
		ed.MustEval(t, preq("resize", fmt.Sprintf("%d, {'Width': 20, 'Height': 5}", id)))
		c = config(id)
		mustEqual(t, ed, "size after Resize", []any{c["width"], c["height"]}, []any{int64(20), int64(5)})
		ed.MustEval(t, preq("resize", fmt.Sprintf("%d, {'MaxWidth': 6, 'MinHeight': 4}", id)))
		c = config(id)
		// "a longer line" wraps to 3 lines at width 6: 5 lines in all.
		mustEqual(t, ed, "size after Resize with bounds", []any{c["width"], c["height"]}, []any{int64(6), int64(5)})
		ed.MustEval(t, preq("resize", fmt.Sprintf("%d, {'MinHeight': 4}", id)))
		c = config(id)
		mustEqual(t, ed, "size after Resize with a minimum height", []any{c["width"], c["height"]}, []any{int64(13), int64(4)})
		// SetTitle.
		ed.MustEval(t, preq("settitle", fmt.Sprintf("%d, 'New title'", id)))
		mustEqual(t, ed, "title after SetTitle", config(id)["title"], "New title")
		ed.MustEval(t, preq("settitle", fmt.Sprintf("%d, ''", id)))
		mustEqual(t, ed, "title after SetTitle of \"\"", config(id)["title"], "")
		// Close, twice (the second does nothing).
		ed.MustEval(t, preq("close", fmt.Sprint(id)))
		mustEqual(t, ed, "IsOpen after Close", ed.MustEval(t, preq("isopen", fmt.Sprint(id))), false)
		ed.MustEval(t, preq("close", fmt.Sprint(id)))
		mustEqual(t, ed, "IsOpen of a window that is not a popup", ed.MustEval(t, preq("isopen", "win_getid()")), false)

		// No border and the default size: one empty line at the top-left.
		id = ed.MustEval(t, preq("open", "{}"))
		mustEqual(t, ed, "the zero Options", config(id), map[string]any{
			"row": int64(0), "col": int64(0), "width": int64(1), "height": int64(1), "title": "",
			"border": []any{}, "highlight": "", "borderhighlight": "", "lines": []any{""}, "zindex": int64(50),
		})
		ed.MustEval(t, preq("close", fmt.Sprint(id)))
		// Solid, on top of others.
		id = ed.MustEval(t, preq("open", "{'Border': 4, 'ZIndex': 200, 'Lines': ['x']}"))
		c = config(id)
		mustEqual(t, ed, "a Solid border and ZIndex", []any{c["border"], c["zindex"]}, []any{[]any{" ", " ", " ", " ", " ", " ", " ", " "}, int64(200)})
		ed.MustEval(t, preq("close", fmt.Sprint(id)))
		// Custom border characters, anchor SE relative to the editor:
		// the bottom-right corner at row 10, col 20.
		id = ed.MustEval(t, preq("open", "{'Row': 10, 'Col': 20, 'Anchor': 3, 'BorderChars': ['1', '2', '3', '4', '5', '6', '7', '8'], 'Lines': ['abc']}"))
		c = config(id)
		mustEqual(t, ed, "custom border", c["border"], []any{"1", "2", "3", "4", "5", "6", "7", "8"})
		if ed.Kind == "vim" {
			// Neovim without a screen does not lay out its floats:
			// TestStdPopupOnScreen checks the corner on both.
			mustEqual(t, ed, "the top-left of an SE popup", []any{c["row"], c["col"]}, []any{int64(10 - 2), int64(20 - 4)})
		}
		ed.MustEval(t, preq("close", fmt.Sprint(id)))
		// A line longer than the screen wraps at the screen's width (the
		// room right of the column, less the border), on both.
		long := strings.Repeat("0123456789", 12)
		id = ed.MustEval(t, preq("open", "{'Row': 1, 'Col': 10, 'Border': 1, 'Lines': ['"+long+"']}"))
		c = config(id)
		cols := ed.MustEval(t, "&columns").(int64)
		room := cols - 10 - 2 + 1 // Vim's room at the right edge: one more, moved left
		mustEqual(t, ed, "the size of a long line", []any{c["width"], c["height"]}, []any{room, (120 + room - 1) / room})
		// Moved left, it is wider.
		ed.MustEval(t, preq("move", fmt.Sprintf("%d, {'Row': 1, 'Col': 0}", id)))
		c = config(id)
		mustEqual(t, ed, "the size of a long line after Move", []any{c["width"], c["height"]}, []any{cols - 1, (120 + cols - 2) / (cols - 1)})
		ed.MustEval(t, preq("close", fmt.Sprint(id)))
		// Relative to the cursor: the line below it.
		id = ed.MustEval(t, preq("open", "{'Relative': 1, 'Row': 1, 'Col': 0, 'Lines': ['x']}"))
		if ed.Kind == "vim" {
			mustEqual(t, ed, "popup_getoptions().line", ed.MustEval(t, fmt.Sprintf("popup_getoptions(%d).line", id)), int64(2))
		} else {
			raw := ed.MustEval(t, fmt.Sprintf("nvim_win_get_config(%d)", id)).(map[string]any)
			mustEqual(t, ed, "nvim_win_get_config()", []any{raw["relative"], raw["row"]}, []any{"win", float64(1)})
		}
		ed.MustEval(t, preq("close", fmt.Sprint(id)))

		// A batch: open, then every other function.
		got := ed.MustEval(t, preq("batch", "{'Border': 2, 'Lines': ['x']}")).(map[string]any)
		bc := got["config"].(map[string]any)
		delete(got, "config")
		delete(got, "id")
		mustEqual(t, ed, "the batch", got, map[string]any{"open": true, "after": false, "buffer": got["buffer"]})
		if n, _ := got["buffer"].(int64); n <= 0 {
			t.Fatalf("%s: Buffer in a batch = %v", ed.Kind, got["buffer"])
		}
		mustEqual(t, ed, "the popup changed in a batch", bc, map[string]any{
			"row": int64(3), "col": int64(4), "width": int64(12), "height": int64(3), "title": "in batch",
			"border": []any{"╔", "═", "╗", "║", "╝", "═", "╚", "║"}, "highlight": "", "borderhighlight": "",
			"lines": []any{"batch one", "batch two"}, "zindex": int64(50),
		})

		// Bad input: an error naming the function, without a call; a
		// window that is not an open popup, from the editor.
		for _, bad := range []struct{ method, args, want, more string }{
			{"open", "{'Title': 'x'}", "popup.Open: a title needs a border", ""},
			{"open", "{'Width': -1}", "popup.Open: Width is -1: a size is not negative", ""},
			{"open", "{'MinWidth': 5, 'MaxWidth': 2}", "popup.Open: MinWidth 5 is more than MaxWidth 2", ""},
			{"open", "{'Row': -1}", "popup.Open: row -1, col 0: a position relative to the editor is not negative", ""},
			{"open", "{'Border': 9}", "popup.Open: 9 is not a Border", ""},
			{"open", "{'Anchor': 4}", "popup.Open: 4 is not an Anchor", ""},
			{"open", "{'Relative': 2}", "popup.Open: 2 is not a Relative", ""},
			{"open", "{'Border': 1, 'BorderChars': ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']}", "popup.Open: both Border and BorderChars are set", ""},
			{"open", "{'BorderChars': ['a']}", "popup.Open: BorderChars has 1 characters, not 8", ""},
			{"open", "{'BorderChars': ['ab', 'b', 'c', 'd', 'e', 'f', 'g', 'h']}", `popup.Open: BorderChars: "ab" is not one character`, ""},
			{"open", "{'Highlight': 'a b'}", `popup.Open: "a b" is not a highlight group name (Highlight)`, ""},
			{"open", "{'Border': 1, 'Title': \"a\\tb\"}", `popup.Open: the title "a\tb" has a control character`, ""},
			{"open", "{'Lines': ['a', \"b\\nc\"]}", "popup.Open: line 2 has a line break", ""},
			{"open", "{'ZIndex': -5}", "popup.Open: ZIndex is -5: it is not negative", ""},
			{"setlines", "1, [\"a\\n\"]", "popup.SetLines: line 1 has a line break", ""},
			{"move", "1, {'Anchor': -1}", "popup.Move: -1 is not an Anchor", ""},
			{"resize", "1, {'Height': -2}", "popup.Resize: Height is -2", ""},
			{"settitle", "1, \"\\n\"", "popup.SetTitle: the title \"\\n\" has a control character", ""},
			{"setlines", "win_getid(), ['x']", "popup.SetLines: ", "is not an open popup"},
			{"move", "win_getid(), {}", "popup.Move: ", "is not an open popup"},
			{"resize", "999999, {}", "popup.Resize: ", "window 999999 is not an open popup"},
			{"settitle", "999999, 'x'", "popup.SetTitle: ", "window 999999 is not an open popup"},
			{"buffer", "999999", "popup.Buffer: ", "window 999999 is not an open popup"},
		} {
			msg := mustThrow(t, ed, preq(bad.method, bad.args), "stdpopup."+bad.method, bad.want, bad.more)
			if strings.Contains(msg, "_internal") || strings.Contains(msg, "\n") {
				t.Fatalf("%s: %s threw %q: not one line without Vigor's internal functions", ed.Kind, bad.method, msg)
			}
		}
		mustThrow(t, ed, preq("batch", "{'Title': 'x'}"), "stdpopup.batch", "popup.Open: a title needs a border")
		// SetTitle of a popup without a border.
		id = ed.MustEval(t, preq("open", "{'Lines': ['x']}"))
		mustThrow(t, ed, preq("settitle", fmt.Sprintf("%d, 'x'", id)), "stdpopup.settitle", "popup.SetTitle: ", "a title needs a border")
		ed.MustEval(t, preq("close", fmt.Sprint(id)))
	})
}

// The editor's side of OnClose: the expression that popup.vim's open()
// is given runs once, with l:id, whether Close or the user closes the
// popup (popup_close() on Vim, nvim_win_close() on Neovim).
func TestStdPopupCloseExpr(t *testing.T) {
	each(t, stdpopupRepo(), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "stdpopup")
		ed.MustEval(t, "execute('let g:stdpopup_closed = []')")
		open := "vigor#_internal#popup#open(['x'], has('nvim') ? {'relative': 'editor', 'row': 0, 'col': 0, 'anchor': 'NW', 'style': 'minimal', 'focusable': v:false, 'border': 'none'} : {}, " +
			"has('nvim') ? {'width': 0, 'height': 0, 'minwidth': 0, 'maxwidth': 0, 'minheight': 0, 'maxheight': 0} : {}, '', 'add(g:stdpopup_closed, l:id)')"
		a := ed.MustEval(t, open)
		ed.MustEval(t, preq("close", fmt.Sprint(a)))
		b := ed.MustEval(t, open)
		ed.MustEval(t, fmt.Sprintf("execute(has('nvim') ? 'call nvim_win_close(%d, 1)' : 'call popup_close(%d)')", b, b))
		ed.MustEval(t, preq("close", fmt.Sprint(b))) // closed already: nothing runs
		mustEqual(t, ed, "the ids closed", ed.MustEval(t, "g:stdpopup_closed"), []any{a, b})
	})
}

// OnClose runs the plugin's Go function once when the popup closes, by
// Close, by the editor's own close (popup_close() on Vim,
// nvim_win_close() on Neovim) or in a batch, on both editors.
func TestStdPopupOnClose(t *testing.T) {
	each(t, stdpopupRepo(), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "stdpopup")
		closed := func(want ...any) {
			t.Helper()
			ed.WaitFor(t, fmt.Sprintf("len(%s) >= %d", preq("closed", ""), len(want)), 10*time.Second)
			mustEqual(t, ed, "the popups closed", ed.MustEval(t, preq("closed", "")), want)
		}
		a := ed.MustEval(t, preq("open", "{'Lines': ['a'], 'OnClose': 1}"))
		ed.MustEval(t, preq("close", fmt.Sprint(a)))
		closed(a)
		b := ed.MustEval(t, preq("open", "{'Lines': ['b'], 'OnClose': 1}"))
		ed.MustEval(t, fmt.Sprintf("execute(has('nvim') ? 'call nvim_win_close(%d, 1)' : 'call popup_close(%d)')", b, b))
		closed(a, b)
		got := ed.MustEval(t, preq("batch", "{'Border': 1, 'Lines': ['c'], 'OnClose': 1}")).(map[string]any)
		closed(a, b, got["id"])
		// A popup without OnClose: nothing runs.
		d := ed.MustEval(t, preq("open", "{'Lines': ['d']}"))
		ed.MustEval(t, preq("close", fmt.Sprint(d)))
		time.Sleep(200 * time.Millisecond)
		mustEqual(t, ed, "the popups closed", ed.MustEval(t, preq("closed", "")), []any{a, b, got["id"]})
	})
}
