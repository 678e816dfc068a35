package e2e

import (
	"strings"
	"testing"

	"github.com/vigorvim/vigor/internal/editortest"
)

func stdmappingRepo() editortest.Options { return editortest.Options{RTP: rtp("stdmapping")} }

// mreq is the expression that calls the stdmapping plugin's method with
// args (Vim script).
func mreq(method, args string) string {
	return "vigor#request('stdmapping', '" + method + "', [" + args + "])"
}

// std/mapping maps, reads, lists and unmaps in every mode with the usual
// flags, escapes what :map would take apart, and maps into Go through a
// lambda, on both editors, directly and in a batch.
func TestStdMapping(t *testing.T) {
	each(t, stdmappingRepo(), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "stdmapping")
		for _, mode := range []string{"", "n", "v", "x", "s", "o", "i", "c", "t", "l", "!"} {
			q := "'" + mode + "'"
			ed.MustEval(t, mreq("map", q+", '<F7>', 'a|b', {'Silent': 1, 'Nowait': 1}"))
			readMode := mode
			if mode == "!" {
				readMode = "i"
			}
			m := ed.MustEval(t, "maparg('<F7>', '"+readMode+"', 0, 1)").(map[string]any)
			mustEqual(t, ed, "the rhs in mode "+q, m["rhs"], "a<Bar>b")
			mustEqual(t, ed, "noremap in mode "+q, m["noremap"], int64(1))
			mustEqual(t, ed, "silent in mode "+q, m["silent"], int64(1))
			got := ed.MustEval(t, mreq("read", q+", '<F7>'")).(map[string]any)
			mustEqual(t, ed, "Read's rhs in mode "+q, got["rhs"], "a<Bar>b")
			mustEqual(t, ed, "Read's flags in mode "+q, []any{got["noremap"], got["silent"], got["nowait"], got["expr"], got["buffer"]},
				[]any{true, true, true, false, false})
			wantMode := map[string]string{"v": "v", "!": "!"}[mode]
			if wantMode == "" {
				wantMode = mode
			}
			mustEqual(t, ed, "Read's mode for "+q, got["mode"], wantMode)
			listed := ed.MustEval(t, mreq("list", q)).([]any)
			found := false
			for _, x := range listed {
				found = found || x.(map[string]any)["lhs"] == "<F7>"
			}
			if !found {
				t.Fatalf("%s: List(%s) = %v, without <F7>", ed.Kind, q, listed)
			}
			ed.MustEval(t, mreq("unmap", q+", '<F7>', {}"))
			mustEqual(t, ed, "maparg after Unmap in mode "+q, ed.MustEval(t, "maparg('<F7>', '"+readMode+"')"), "")
			ed.MustEval(t, mreq("unmap", q+", '<F7>', {}")) // not mapped: no error
			mustEqual(t, ed, "Read of an unmapped lhs", ed.MustEval(t, mreq("read", q+", '<F7>'")).(map[string]any)["lhs"], "")
		}

		// Spaces, bars, remap, expr, buffer-local.
		ed.MustEval(t, mreq("map", "'n', 'g x', ' y|z', {'Remap': 1, 'Expr': 1, 'Buffer': 1}"))
		m := ed.MustEval(t, "maparg('g<Space>x', 'n', 0, 1)").(map[string]any)
		mustEqual(t, ed, "an escaped mapping", []any{m["rhs"], m["noremap"], m["expr"], m["buffer"]}, []any{"<Space>y<Bar>z", int64(0), int64(1), int64(1)})
		ed.MustEval(t, mreq("unmap", "'n', 'g x', {'Buffer': 1}"))
		mustEqual(t, ed, "maparg after a buffer Unmap", ed.MustEval(t, "maparg('g<Space>x', 'n')"), "")
		// <unique> lets the editor's error through, with the function's name.
		ed.MustEval(t, mreq("map", "'n', '<F8>', 'x', {}"))
		mustThrow(t, ed, mreq("map", "'n', '<F8>', 'y', {'Unique': 1}"), "mapping.Map: <F8>: ", "E227")

		// Into Go, through a lambda.
		ed.MustEval(t, mreq("golambda", "'<F9>'"))
		rhs := ed.MustEval(t, "maparg('<F9>', 'n')").(string)
		call, ok := strings.CutPrefix(rhs, "<Cmd>call ")
		call, ok2 := strings.CutSuffix(call, "<CR>")
		if !ok || !ok2 {
			t.Fatalf("%s: the Go mapping's rhs is %q", ed.Kind, rhs)
		}
		ed.MustEval(t, call)
		mustEqual(t, ed, "g:stdmapping_hit after the Go mapping", ed.MustEval(t, "g:stdmapping_hit"), int64(42))

		// A batch: Map, Read, List, Unmap, Read in one round trip.
		got := ed.MustEval(t, mreq("batch", "'<F10>', ':echo 1<CR>'")).(map[string]any)
		before := got["before"].(map[string]any)
		mustEqual(t, ed, "the batch", []any{before["rhs"], before["silent"], got["listed"], got["after"]}, []any{":echo 1<CR>", true, true, ""})

		// Bad input: an error naming the function, without a call.
		for _, bad := range []struct{ method, args, want string }{
			{"map", "'q', 'a', 'b', {}", `mapping.Map: "q" is not a mode`},
			{"map", "'n', '', 'b', {}", "mapping.Map: the left-hand side is empty"},
			{"map", "'n', 'a', '', {}", `mapping.Map: the right-hand side is empty (use "<Nop>"`},
			{"unmap", "'nn', 'a', {}", `mapping.Unmap: "nn" is not a mode`},
			{"read", "'n', ''", "mapping.Read: the left-hand side is empty"},
			{"list", "'z'", `mapping.List: "z" is not a mode`},
		} {
			mustThrow(t, ed, mreq(bad.method, bad.args), "stdmapping."+bad.method, bad.want)
		}
	})
}
