package e2e

import (
	"testing"

	"github.com/vigorvim/vigor/internal/editortest"
)

func stdvarsRepo() editortest.Options { return editortest.Options{RTP: rtp("stdvars")} }

// vreq is the expression that calls the stdvars plugin's method with args
// (Vim script).
func vreq(method, args string) string {
	return "vigor#request('stdvars', '" + method + "', [" + args + "])"
}

// std/variables gets (typed, with a default when unset), sets and
// removes g:, b:, w:, t: and environment variables and registers, reads
// and sets v: variables, on both editors, directly and in a batch.
func TestStdVariables(t *testing.T) {
	each(t, stdvarsRepo(), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "stdvars")
		for _, sc := range []struct{ scope, vim string }{
			{"g", "g:"}, {"b", "b:"}, {"w", "w:"}, {"t", "t:"}, {"env", "$"},
		} {
			name := "stdvars_x"
			if sc.scope == "g" {
				name = "stdvars#x"
			}
			vimName := sc.vim + name
			args := "'" + sc.scope + "', '" + name + "'"
			mustEqual(t, ed, "Get of unset "+vimName, ed.MustEval(t, vreq("get", args+", 'def'")), "def")
			mustEqual(t, ed, "Get int of unset "+vimName, ed.MustEval(t, vreq("getint", args+", 7")), int64(7))
			ed.MustEval(t, vreq("set", args+", 42"))
			want := any(int64(42))
			if sc.scope == "env" {
				want = "42" // an environment variable is a String
			}
			mustEqual(t, ed, vimName+" after Set", ed.MustEval(t, vimName), want)
			mustEqual(t, ed, "Get of "+vimName, ed.MustEval(t, vreq("get", args+", 'def'")), want)
			if sc.scope != "env" {
				mustEqual(t, ed, "Get int of "+vimName, ed.MustEval(t, vreq("getint", args+", 7")), int64(42))
				ed.MustEval(t, vreq("set", args+", {'a': [1, 'é']}"))
				mustEqual(t, ed, vimName+" after Set of a Dict", ed.MustEval(t, vimName), map[string]any{"a": []any{int64(1), "é"}})
				mustThrow(t, ed, vreq("getint", args+", 7"), "stdvars.getint", "variables.Get: "+vimName+": ", "expected a Number, got a Dict")
			} else {
				ed.MustEval(t, vreq("set", args+", ''"))
				// Both editors unset an environment variable set to "".
				mustEqual(t, ed, "Get of an empty "+vimName, ed.MustEval(t, vreq("get", args+", 'def'")), "def")
			}
			ed.MustEval(t, vreq("remove", args))
			mustEqual(t, ed, "exists("+vimName+") after Remove", ed.MustEval(t, "exists('"+vimName+"')"), int64(0))
			ed.MustEval(t, vreq("remove", args)) // unset: no error
			mustEqual(t, ed, "Get after Remove of "+vimName, ed.MustEval(t, vreq("get", args+", 'def'")), "def")

			got := ed.MustEval(t, vreq("batch", args+", 'in batch'"))
			mustEqual(t, ed, "the batch on "+vimName, got, map[string]any{"before": "in batch", "after": "unset", "version": true})
		}

		// Registers: empty is unset; Set takes lines; Remove empties.
		ed.MustEval(t, vreq("remove", "'reg', 'a'"))
		mustEqual(t, ed, "Get of an empty @a", ed.MustEval(t, vreq("get", "'reg', 'a', 'def'")), "def")
		ed.MustEval(t, vreq("set", "'reg', 'a', 'text'"))
		mustEqual(t, ed, "@a", ed.MustEval(t, "@a"), "text")
		mustEqual(t, ed, "Get of @a", ed.MustEval(t, vreq("get", "'reg', 'a', 'def'")), "text")
		ed.MustEval(t, vreq("set", "'reg', 'a', ['l1', 'l2']"))
		mustEqual(t, ed, "getreg('a', 1, 1)", ed.MustEval(t, "getreg('a', 1, 1)"), []any{"l1", "l2"})
		mustEqual(t, ed, "Get of linewise @a", ed.MustEval(t, vreq("get", "'reg', 'a', 'def'")), "l1\nl2\n")
		ed.MustEval(t, vreq("remove", "'reg', 'a'"))
		mustEqual(t, ed, "@a after Remove", ed.MustEval(t, "@a"), "")
		got := ed.MustEval(t, vreq("batch", "'reg', 'b', 'in batch'"))
		mustEqual(t, ed, "the batch on @b", got, map[string]any{"before": "in batch", "after": "unset", "version": true})

		// v: variables: Get, Set of a writable one, the editor's error
		// for a read-only one, and no Remove.
		if v := ed.MustEval(t, vreq("getint", "'v', 'version', 0")); v != ed.MustEval(t, "v:version") {
			t.Errorf("%s: Get of v:version = %v", ed.Kind, v)
		}
		mustEqual(t, ed, "Get of an unknown v: variable", ed.MustEval(t, vreq("get", "'v', 'nosuch', 'def'")), "def")
		ed.MustEval(t, vreq("set", "'v', 'errmsg', 'from Go'"))
		mustEqual(t, ed, "v:errmsg", ed.MustEval(t, "v:errmsg"), "from Go")
		mustThrow(t, ed, vreq("set", "'v', 'version', 1"), "stdvars.set", "variables.Set: ", "E46", "v:version")
		mustThrow(t, ed, vreq("set", "'b', 'changedtick', 1"), "stdvars.set", "variables.Set: ", "E46", "b:changedtick")
		mustThrow(t, ed, vreq("remove", "'v', 'errmsg'"), "stdvars.remove", "variables.Remove: v:errmsg: v: variables cannot be removed")

		// Bad names, for every function and scope, without a call.
		for _, bad := range []struct{ method, scope, name, want string }{
			{"set", "g", "1x", `variables.Set: "1x" is not a variable name`},
			{"get", "b", "a b", `variables.Get: "a b" is not a variable name`},
			{"remove", "w", "x|y", `variables.Remove: "x|y" is not a variable name`},
			{"set", "t", "", `variables.Set: "" is not a variable name`},
			{"set", "b", "a#b", `variables.Set: "a#b" is not a variable name`},
			{"get", "v", "g:x", `variables.Get: "g:x" is not a variable name`},
			{"set", "env", "A#B", `variables.Set: "A#B" is not an environment variable name`},
			{"remove", "env", "X=1", `variables.Remove: "X=1" is not an environment variable name`},
			{"get", "reg", "ab", `variables.Get: "ab" is not a register name`},
			{"set", "reg", "~", `variables.Set: "~" is not a register name`},
		} {
			args := "'" + bad.scope + "', " + editortest.VimString(bad.name)
			if bad.method != "remove" {
				args += ", 1"
			}
			mustThrow(t, ed, vreq(bad.method, args), "stdvars."+bad.method, bad.want)
		}
		mustThrow(t, ed, vreq("batch", "'g', '1x', 1"), "stdvars.batch", `variables.Set: "1x" is not a variable name`)
	})
}
