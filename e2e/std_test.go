package e2e

import (
	"testing"

	"github.com/vigorvim/vigor/internal/editortest"
)

func stdfn() editortest.Options { return editortest.Options{RTP: rtp("stdfn")} }

// stdSample is what the stdfn plugin's sample of std/fn wrappers returns
// on both editors: one result of each type, optional arguments omitted
// and given, a variadic function with and without its further arguments.
var stdSample = map[string]any{
	"number":     int64(3),                  // strchars('éx')
	"number_opt": int64(2),                  // strchars('éx', v:true): skipcc given
	"float":      1.5,                       // str2float('1.5')
	"float2":     2.5,                       // abs(-2.5)
	"string":     "one two",                 // getline(1)
	"list":       []any{"a", "b", "c"},      // split('a b  c')
	"list_opt":   []any{"one two", "three"}, // getline(1, '$'): end given
	"dict_words": int64(3),                  // wordcount().words
	"bool":       true,                      // has('eval')
	"bool_false": false,                     // bufexists(99999)
	"blob":       "ab\n",                    // readblob(file)
	"blob_opt":   "b\n",                     // readblob(file, 1): offset given
	"any":        []any{int64(1), "a"},      // eval("[1, 'a']")
	"variadic":   "a-1",                     // printf('%s-%d', 'a', 1)
	"no_varargs": "x",                       // printf('x')
	"checked":    "\nhi",                    // execute(cmd, 'silent'), which only Vim's compiler shows
}

// Generated wrappers of builtin functions give typed results on both
// editors, called directly and in a batch (through Into).
func TestStdFunctions(t *testing.T) {
	each(t, stdfn(), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "stdfn")
		for _, how := range []string{"direct", "batch"} {
			dir := t.TempDir()
			got := ed.MustEval(t, "vigor#request('stdfn', '"+how+"', ["+editortest.VimString(dir)+"])")
			mustEqual(t, ed, how, got, stdSample)
			mustEqual(t, ed, how+": the cursor (winrestview)", ed.MustEval(t, "line('.')"), int64(2))
			ed.MustExec(t, "call cursor(1, 1)")
		}
	})
}

// A wrapper's call that fails in a batch gives the BatchError, with the
// results before it, on both editors.
func TestStdBatchError(t *testing.T) {
	each(t, stdfn(), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "stdfn")
		got := ed.MustEval(t, "vigor#request('stdfn', 'failing', [])")
		mustEqual(t, ed, "failing", got, map[string]any{
			"index": int64(1), "fn": "eval", "results": []any{int64(3)}, "n": int64(3), "after": int64(0)})
	})
}

// A wrapper of a function that the editor does not have fails, naming the
// function and the editor, without a call; in a batch it fails the same
// way and the batch sends nothing, even when the record func ignores the
// error.
func TestStdAvailability(t *testing.T) {
	each(t, stdfn(), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "stdfn")
		got := ed.MustEval(t, "vigor#request('stdfn', 'avail', [])")
		want := map[string]any{
			"vim":     `[1,"a"]`,
			"nvim":    "nvimfn.Strutf16len: strutf16len() is a Neovim function; Vim does not have it",
			"api":     "nvimapi.GetCurrentBuf: nvim_get_current_buf() is a Neovim API function; Vim does not have it",
			"batch":   "nvimapi.GetCurrentBuf: nvim_get_current_buf() is a Neovim API function; Vim does not have it",
			"ignored": "nvimapi.GetCurrentBuf: nvim_get_current_buf() is a Neovim API function; Vim does not have it",
		}
		if ed.Kind == "nvim" {
			want = map[string]any{
				"vim":     "vimfn.JsEncode: js_encode() is a Vim function; Neovim does not have it",
				"nvim":    int64(3),
				"api":     ed.MustEval(t, "bufnr()"),
				"batch":   "vimfn.JsEncode: js_encode() is a Vim function; Neovim does not have it",
				"ignored": "vimfn.JsEncode: js_encode() is a Vim function; Neovim does not have it",
			}
		}
		mustEqual(t, ed, "avail", got, want)
		mustEqual(t, ed, "g:sent after the failed batch", ed.MustEval(t, "get(g:, 'sent', 0)"), int64(0))
	})
}

// nvimapi wrappers on Neovim, directly and in a batch; on Vim they fail
// before any call.
func TestStdNvimAPI(t *testing.T) {
	each(t, stdfn(), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "stdfn")
		if ed.Kind == "vim" {
			mustThrow(t, ed, "vigor#request('stdfn', 'api', [])",
				"nvimapi.BufSetLines: nvim_buf_set_lines() is a Neovim API function; Vim does not have it")
			return
		}
		got := ed.MustEval(t, "vigor#request('stdfn', 'api', [])")
		mustEqual(t, ed, "api", got, map[string]any{
			"lines": []any{"y", "z"}, "count": int64(3), "mode": "n", "batch": []any{"w", "y", "z"}})
	})
}

// The wrappers whose types the generator's fixes correct hold their
// results on both editors, directly and in a batch (through Into): a
// Number that is a code or a status is an int (char2nr(), append(),
// filewritable() 2 for a directory, chansend()'s bytes), a result that a
// flag makes a List is one (and readfile()'s "B" a Blob), line numbers
// take "$", Dict parameters take a map, abs() of an integer keeps every
// digit, getenv() of an unset variable is nil, and a nil slice is an
// empty List (setline() sets nothing, setqflist() and sign_unplacelist()
// take it).
func TestStdTypes(t *testing.T) {
	each(t, stdfn(), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "stdfn")
		for _, how := range []string{"direct", "batch"} {
			dir := t.TempDir()
			got := ed.MustEval(t, "vigor#request('stdfn', 'types', ['"+how+"', "+editortest.VimString(dir)+"])")
			want := map[string]any{
				"char2nr": int64(233), "append_failed": int64(1), "appended": int64(0),
				"filewritable": int64(2), "glob": dir + "/blob", "globpath": []any{dir + "/blob"},
				"lines": []any{"three", "four", "five"}, "last": "five",
				"abs": int64(9007199254740993), "abs_float": 2.5,
				"match": int64(71), "matchpos": int64(72), "charsearch": "t",
				"setline": int64(0), "setqflist": int64(0), "qflist": []any{},
				"unplaced": []any{}, "chansend": int64(0),
				"unset": nil, "home": ed.MustEval(t, "$HOME"), "readfile_blob": int64(3),
			}
			if ed.Kind == "nvim" {
				want["chansend"] = int64(3)
			}
			mustEqual(t, ed, how, got, want)
			mustEqual(t, ed, how+": line 1 (setline of a nil slice)", ed.MustEval(t, "getline(1)"), "one two")
		}
	})
}
