package e2e

import (
	"strings"
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

// lreq is the expression that calls the stdvars plugin's method of the
// variables of a buffer, window or tab page (kind "buf", "win" or "tab"
// and its number, a Vim expression).
func lreq(method, kind, num, args string) string {
	return vreq(method, "'"+kind+"', "+num+", "+args)
}

// std/variables gets, sets and removes the variables of a given buffer,
// window and tab page (not the current one), on both editors, directly
// and in a batch, and refuses bad numbers and names and those that do
// not exist.
func TestStdVariablesOf(t *testing.T) {
	each(t, stdvarsRepo(), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "stdvars")
		// A second buffer, window and tab page, left for the first, so
		// that the ones the test names are not the current ones.
		ed.MustExec(t, "tabnew")
		ed.MustExec(t, "let g:vt_buf = bufnr('%') | let g:vt_win = win_getid() | let g:vt_tab = tabpagenr()")
		ed.MustExec(t, "tabfirst")
		for _, k := range []struct{ kind, num, read, missing, what string }{
			{"buf", "g:vt_buf", "getbufvar(g:vt_buf, 'vt_x', 'none')", "9999", "buffer"},
			{"win", "g:vt_win", "gettabwinvar(g:vt_tab, g:vt_win, 'vt_x', 'none')", "99999", "window"},
			{"tab", "g:vt_tab", "gettabvar(g:vt_tab, 'vt_x', 'none')", "99", "tab page"},
		} {
			fn := map[string]string{"buf": "Buf", "win": "Win", "tab": "Tab"}[k.kind]
			mustEqual(t, ed, k.kind+" Get of unset", ed.MustEval(t, lreq("lget", k.kind, k.num, "'vt_x', 'def'")), "def")
			ed.MustEval(t, lreq("lset", k.kind, k.num, "'vt_x', {'a': [1, 'é']}"))
			mustEqual(t, ed, k.read+" after Set", ed.MustEval(t, k.read), map[string]any{"a": []any{int64(1), "é"}})
			mustEqual(t, ed, k.kind+" Get", ed.MustEval(t, lreq("lget", k.kind, k.num, "'vt_x', 'def'")), map[string]any{"a": []any{int64(1), "é"}})
			mustEqual(t, ed, "the current one's after Set of another's", ed.MustEval(t, "exists('"+k.kind[:1]+":vt_x')"), int64(0))
			ed.MustEval(t, lreq("lremove", k.kind, k.num, "'vt_x'"))
			mustEqual(t, ed, k.read+" after Remove", ed.MustEval(t, k.read), "none")
			ed.MustEval(t, lreq("lremove", k.kind, k.num, "'vt_x'")) // unset: no error
			got := ed.MustEval(t, lreq("lbatch", k.kind, k.num, "'vt_x', 'in batch'"))
			mustEqual(t, ed, k.kind+" batch", got, map[string]any{"before": "in batch", "after": "unset"})

			for _, m := range []struct{ method, args string }{
				{"lget", "'vt_x', 1"}, {"lset", "'vt_x', 1"}, {"lremove", "'vt_x'"},
			} {
				op := map[string]string{"lget": "Get", "lset": "Set", "lremove": "Remove"}[m.method]
				name := "variables." + fn + op
				mustThrow(t, ed, lreq(m.method, k.kind, k.missing, m.args), "stdvars."+m.method, name+": ", "there is no "+k.what+" "+k.missing)
				mustThrow(t, ed, lreq(m.method, k.kind, "0", m.args), "stdvars."+m.method, name+": 0 is not a "+k.what+" number")
				bad := strings.Replace(m.args, "'vt_x'", "'a#b'", 1)
				mustThrow(t, ed, lreq(m.method, k.kind, k.num, bad), "stdvars."+m.method, name+`: "a#b" is not a variable name`)
			}
			mustThrow(t, ed, lreq("lbatch", k.kind, k.missing, "'vt_x', 1"), "stdvars.lbatch", "there is no "+k.what+" "+k.missing)
		}
		ed.MustEval(t, lreq("lset", "buf", "g:vt_buf", "'vt_n', 5"))
		mustEqual(t, ed, "BufGet typed int", ed.MustEval(t, vreq("lgetint", "g:vt_buf, 'vt_n', 0")), int64(5))
		ed.MustEval(t, lreq("lset", "buf", "g:vt_buf", "'vt_n', 'five'"))
		mustThrow(t, ed, vreq("lgetint", "g:vt_buf, 'vt_n', 0"), "stdvars.lgetint", "variables.BufGet: b:vt_n of buffer ", "expected a Number, got a String")
		mustThrow(t, ed, lreq("lremove", "buf", "g:vt_buf", "'changedtick'"), "stdvars.lremove", "variables.BufRemove: ", "E795")
	})
}

// std/variables gets, sets and removes a key of a Dict variable of g:,
// b:, w: and t:, on both editors, directly and in a batch.
func TestStdVariablesDict(t *testing.T) {
	each(t, stdvarsRepo(), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "stdvars")
		for _, sc := range []struct{ scope, vim string }{
			{"g", "g:"}, {"b", "b:"}, {"w", "w:"}, {"t", "t:"},
		} {
			vimName := sc.vim + "vt_d"
			args := "'" + sc.scope + "', 'vt_d', "
			mustEqual(t, ed, "DictGet of unset "+vimName, ed.MustEval(t, vreq("dget", args+"'k', 'def'")), "def")
			ed.MustEval(t, vreq("dset", args+"'k', 1"))
			mustEqual(t, ed, vimName+" after DictSet of unset", ed.MustEval(t, vimName), map[string]any{"k": int64(1)})
			ed.MustEval(t, vreq("dset", args+"'a b|c', [2]")) // any key
			mustEqual(t, ed, vimName+" after DictSet", ed.MustEval(t, vimName), map[string]any{"k": int64(1), "a b|c": []any{int64(2)}})
			mustEqual(t, ed, "DictGet", ed.MustEval(t, vreq("dgetint", args+"'k', 0")), int64(1))
			mustEqual(t, ed, "DictGet of a missing key", ed.MustEval(t, vreq("dget", args+"'nokey', 'def'")), "def")
			ed.MustEval(t, vreq("dremove", args+"'k'"))
			ed.MustEval(t, vreq("dremove", args+"'k'")) // missing key: no error
			mustEqual(t, ed, vimName+" after DictRemove", ed.MustEval(t, vimName), map[string]any{"a b|c": []any{int64(2)}})
			got := ed.MustEval(t, vreq("dbatch", args+"'k', 'in batch'"))
			mustEqual(t, ed, "the batch on "+vimName, got, map[string]any{"before": "in batch", "after": "unset"})
			mustThrow(t, ed, vreq("dgetint", args+"'a b|c', 0"), "stdvars.dgetint", `variables.DictGet: `+vimName+`["a b|c"]: `, "expected a Number, got a List")
			ed.MustExec(t, "unlet "+vimName)
			ed.MustEval(t, vreq("dremove", args+"'k'")) // unset: no error

			// A variable that is not a Dict: the editor's error.
			ed.MustExec(t, "let "+vimName+" = 'text'")
			mustThrow(t, ed, vreq("dset", args+"'k', 1"), "stdvars.dset", "variables.DictSet: ")
			mustThrow(t, ed, vreq("dremove", args+"'k'"), "stdvars.dremove", "variables.DictRemove: ", "Dictionary required")
			ed.MustExec(t, "unlet "+vimName)
		}
		for _, bad := range []struct{ method, scope, name, want string }{
			{"dget", "v", "event", `variables.DictGet: a Dict variable is a g:, b:, w: or t: variable, not v:`},
			{"dset", "env", "HOME", `variables.DictSet: a Dict variable is a g:, b:, w: or t: variable, not $`},
			{"dremove", "reg", "a", `variables.DictRemove: a Dict variable is a g:, b:, w: or t: variable, not @`},
			{"dset", "g", "x y", `variables.DictSet: "x y" is not a variable name`},
			{"dget", "b", "a#b", `variables.DictGet: "a#b" is not a variable name`},
		} {
			args := "'" + bad.scope + "', " + editortest.VimString(bad.name) + ", 'k'"
			if bad.method != "dremove" {
				args += ", 1"
			}
			mustThrow(t, ed, vreq(bad.method, args), "stdvars."+bad.method, bad.want)
		}
	})
}
