package e2e

import (
	"testing"

	"github.com/vigorvim/vigor/internal/editortest"
)

// A call to the editor whose ctx ends before the editor answers returns at
// once with the ctx's error, though the editor is still busy with it, also
// when the plugin reads its own replies (Linux). The editor's late answer
// is dropped, and the plugin's next call gets its own.
func TestCallStopsWhenCtxEnds(t *testing.T) {
	each(t, editortest.Options{RTP: rtp("ctxcall")}, func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "ctxcall")
		ed.MustExec(t, "function! Busy() abort\nlet l:start = reltime()\n"+
			"while reltimefloat(reltime(l:start)) < 2.0\nendwhile\nreturn 'busy done'\nendfunction")
		ed.MustExec(t, "function! Quick() abort\nreturn 'quick'\nendfunction")

		got := ed.MustEval(t, `vigor#request('ctxcall', 'call_within', ['Busy', 200])`).(map[string]any)
		mustEqual(t, ed, "error of the call past its deadline", got["error"], "context deadline exceeded")
		if ms := got["ms"].(int64); ms > 1000 {
			t.Errorf("%s: the call with a deadline of 200 ms returned after %d ms, when the editor answered", ed.Kind, ms)
		}
		got = ed.MustEval(t, `vigor#request('ctxcall', 'call_within', ['Quick', 10000])`).(map[string]any)
		mustEqual(t, ed, "the next call", []any{got["result"], got["error"]}, []any{"quick", ""})
	})
}
