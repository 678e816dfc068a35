package e2e

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/vigorvim/vigor/internal/editortest"
)

func stdoptRepo() editortest.Options { return editortest.Options{RTP: rtp("stdopt")} }

// vimLiteral writes v (a bool, an int or a string) as a Vim expression.
func vimLiteral(v any) string {
	switch v := v.(type) {
	case bool:
		if v {
			return "v:true"
		}
		return "v:false"
	case int:
		return strconv.Itoa(v)
	case string:
		return editortest.VimString(v)
	}
	panic(fmt.Sprintf("vimLiteral: %T", v))
}

// optRequest is the request that calls method of the fixture's option name
// with args: handler is "opt" (its result) or "calls" (its error and how
// many calls reached the editor).
func optRequest(handler, name, method string, args ...any) string {
	parts := []string{vimLiteral(name), vimLiteral(method)}
	for _, a := range args {
		parts = append(parts, vimLiteral(a))
	}
	return fmt.Sprintf("vigor#request('stdopt', '%s', [%s])", handler, strings.Join(parts, ", "))
}

// optCall calls method of the option name with args through the fixture
// and returns its result.
func optCall(t *testing.T, ed *editortest.Editor, name, method string, args ...any) any {
	t.Helper()
	return ed.MustEval(t, optRequest("opt", name, method, args...))
}

// Every scope of an option (global, local to buffer, local to window,
// global-local to buffer and to window), each type (Boolean, Number,
// String), through get, set and reset, on both editors.
func TestStdOptScopes(t *testing.T) {
	each(t, stdoptRepo(), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "stdopt")
		check := func(what, expr string) {
			t.Helper()
			if v := ed.MustEval(t, expr); v != int64(1) && v != true {
				t.Fatalf("%s: %s: %s is %#v", ed.Kind, what, expr, v)
			}
		}
		is := func(what string, got, want any) {
			t.Helper()
			mustEqual(t, ed, what, got, want)
		}

		// Global.
		sj := ed.MustEval(t, `&sj`)
		optCall(t, ed, "opt.Scrolljump", "Set", 5)
		check("Global[int].Set", `&sj == 5`)
		is("Global[int].Get", optCall(t, ed, "opt.Scrolljump", "Get"), int64(5))
		optCall(t, ed, "opt.Scrolljump", "Reset")
		is("Global[int].Reset", ed.MustEval(t, `&sj`), sj)
		optCall(t, ed, "opt.Ignorecase", "Set", true)
		check("Global[bool].Set", `&ic == 1`)
		is("Global[bool].Get", optCall(t, ed, "opt.Ignorecase", "Get"), true)
		optCall(t, ed, "opt.Ignorecase", "Reset")
		is("Global[bool].Reset", optCall(t, ed, "opt.Ignorecase", "Get"), false)
		optCall(t, ed, "opt.Selection", "Set", "exclusive")
		check("Global[string].Set", `&sel ==# 'exclusive'`)
		is("Global[string].Get", optCall(t, ed, "opt.Selection", "Get"), "exclusive")
		optCall(t, ed, "opt.Selection", "Reset")
		check("Global[string].Reset", `&sel ==# 'inclusive'`)

		// Local to buffer, in the current buffer and in another one.
		ed.MustExec(t, `let g:b2 = bufadd('stdopt-other') | call bufload(g:b2)`)
		b2 := int(ed.MustEval(t, `g:b2`).(int64))
		optCall(t, ed, "opt.Tabstop", "Set", 4)
		check("BufferLocal.Set sets both", `&l:ts == 4 && &g:ts == 4`)
		optCall(t, ed, "opt.Tabstop", "SetLocal", 3)
		check("BufferLocal.SetLocal", `&l:ts == 3 && &g:ts == 4`)
		is("BufferLocal.Get", optCall(t, ed, "opt.Tabstop", "Get"), int64(3))
		is("BufferLocal.GetLocal", optCall(t, ed, "opt.Tabstop", "GetLocal"), int64(3))
		is("BufferLocal.GetGlobal", optCall(t, ed, "opt.Tabstop", "GetGlobal"), int64(4))
		optCall(t, ed, "opt.Tabstop", "SetGlobal", 6)
		check("BufferLocal.SetGlobal", `&l:ts == 3 && &g:ts == 6`)
		optCall(t, ed, "opt.Tabstop", "SetBuffer", b2, 2)
		check("BufferLocal.SetBuffer", `getbufvar(g:b2, '&ts') == 2 && &l:ts == 3`)
		is("BufferLocal.GetBuffer", optCall(t, ed, "opt.Tabstop", "GetBuffer", b2), int64(2))
		optCall(t, ed, "opt.Tabstop", "ResetLocal")
		check("BufferLocal.ResetLocal", `&l:ts == 8 && &g:ts == 6`)
		optCall(t, ed, "opt.Tabstop", "ResetGlobal")
		check("BufferLocal.ResetGlobal", `&g:ts == 8`)
		optCall(t, ed, "opt.Tabstop", "Set", 5)
		optCall(t, ed, "opt.Tabstop", "Reset")
		check("BufferLocal.Reset", `&l:ts == 8 && &g:ts == 8`)
		optCall(t, ed, "opt.Expandtab", "SetLocal", true)
		check("BufferLocal[bool].SetLocal", `&l:et == 1 && &g:et == 0`)
		is("BufferLocal[bool].Get", optCall(t, ed, "opt.Expandtab", "Get"), true)
		is("BufferLocal[bool].GetBuffer", optCall(t, ed, "opt.Expandtab", "GetBuffer", b2), false)
		optCall(t, ed, "opt.Commentstring", "Set", "// %s")
		check("BufferLocal[string].Set", `&cms ==# '// %s'`)
		is("BufferLocal[string].Get", optCall(t, ed, "opt.Commentstring", "Get"), "// %s")
		optCall(t, ed, "opt.Commentstring", "SetBuffer", b2, "# %s")
		is("BufferLocal[string].GetBuffer", optCall(t, ed, "opt.Commentstring", "GetBuffer", b2), "# %s")

		// Local to window, in the current window and in another one.
		ed.MustExec(t, `let g:w1 = win_getid() | split | let g:w2 = win_getid() | call win_gotoid(g:w1)`)
		w2 := int(ed.MustEval(t, `g:w2`).(int64))
		optCall(t, ed, "opt.Numberwidth", "SetLocal", 6)
		check("WindowLocal.SetLocal", `&l:nuw == 6 && &g:nuw == 4`)
		optCall(t, ed, "opt.Numberwidth", "SetWindow", w2, 7)
		check("WindowLocal.SetWindow", `getwinvar(g:w2, '&nuw') == 7 && &l:nuw == 6`)
		is("WindowLocal.GetWindow", optCall(t, ed, "opt.Numberwidth", "GetWindow", w2), int64(7))
		is("WindowLocal.GetGlobal", optCall(t, ed, "opt.Numberwidth", "GetGlobal"), int64(4))
		optCall(t, ed, "opt.Numberwidth", "SetGlobal", 5)
		check("WindowLocal.SetGlobal", `&g:nuw == 5 && &l:nuw == 6`)
		optCall(t, ed, "opt.Numberwidth", "Reset")
		check("WindowLocal.Reset", `&l:nuw == 4 && &g:nuw == 4 && getwinvar(g:w2, '&nuw') == 7`)
		optCall(t, ed, "opt.Wrap", "SetWindow", w2, false)
		check("WindowLocal[bool].SetWindow", `getwinvar(g:w2, '&wrap') == 0 && &wrap == 1`)
		is("WindowLocal[bool].GetWindow", optCall(t, ed, "opt.Wrap", "GetWindow", w2), false)
		is("WindowLocal[bool].Get", optCall(t, ed, "opt.Wrap", "Get"), true)
		optCall(t, ed, "opt.Colorcolumn", "SetLocal", "80")
		is("WindowLocal[string].Get", optCall(t, ed, "opt.Colorcolumn", "Get"), "80")
		optCall(t, ed, "opt.Colorcolumn", "ResetLocal")
		is("WindowLocal[string].ResetLocal", optCall(t, ed, "opt.Colorcolumn", "GetLocal"), "")
		// 'foldcolumn' is a Number in Vim and a String in Neovim.
		optCall(t, ed, "opt.Foldcolumn", "Set", "2")
		check("'foldcolumn' Set", `&fdc == 2`)
		is("'foldcolumn' Get", optCall(t, ed, "opt.Foldcolumn", "Get"), "2")
		optCall(t, ed, "opt.Foldcolumn", "SetWindow", w2, "1")
		is("'foldcolumn' GetWindow", optCall(t, ed, "opt.Foldcolumn", "GetWindow", w2), "1")

		// Global-local to window.
		is("GlobalOrWindow.HasLocal, none", optCall(t, ed, "opt.Scrolloff", "HasLocal"), false)
		optCall(t, ed, "opt.Scrolloff", "SetGlobal", 2)
		optCall(t, ed, "opt.Scrolloff", "SetLocal", 3)
		is("GlobalOrWindow.HasLocal", optCall(t, ed, "opt.Scrolloff", "HasLocal"), true)
		is("GlobalOrWindow.Get, local", optCall(t, ed, "opt.Scrolloff", "Get"), int64(3))
		is("GlobalOrWindow.GetGlobal", optCall(t, ed, "opt.Scrolloff", "GetGlobal"), int64(2))
		is("GlobalOrWindow.GetWindow, global", optCall(t, ed, "opt.Scrolloff", "GetWindow", w2), int64(2))
		optCall(t, ed, "opt.Scrolloff", "UnsetLocal")
		check("GlobalOrWindow.UnsetLocal", `&l:so == -1 && &so == 2`)
		is("GlobalOrWindow.HasLocal, unset", optCall(t, ed, "opt.Scrolloff", "HasLocal"), false)
		is("GlobalOrWindow.Get, global", optCall(t, ed, "opt.Scrolloff", "Get"), int64(2))
		optCall(t, ed, "opt.Scrolloff", "SetWindow", w2, 7)
		is("GlobalOrWindow.SetWindow", optCall(t, ed, "opt.Scrolloff", "GetWindow", w2), int64(7))
		check("GlobalOrWindow.SetWindow, not here", `&so == 2`)
		// Set and Reset leave no local value in either editor (Vim 9.0's
		// :set copies a Number into the local value).
		optCall(t, ed, "opt.Scrolloff", "SetLocal", 3)
		optCall(t, ed, "opt.Scrolloff", "Set", 5)
		check("GlobalOrWindow.Set", `&l:so == -1 && &g:so == 5 && &so == 5`)
		optCall(t, ed, "opt.Scrolloff", "SetLocal", 3)
		optCall(t, ed, "opt.Scrolloff", "Reset")
		check("GlobalOrWindow.Reset", `&l:so == -1 && &g:so == 0`)
		optCall(t, ed, "opt.Statusline", "SetWindow", w2, "%f")
		is("GlobalOrWindow[string].GetWindow", optCall(t, ed, "opt.Statusline", "GetWindow", w2), "%f")

		// Global-local to buffer: Number ('undolevels' marks "no local
		// value" with -123456), Boolean and String.
		optCall(t, ed, "opt.Undolevels", "SetLocal", 5)
		is("GlobalOrBuffer.HasLocal", optCall(t, ed, "opt.Undolevels", "HasLocal"), true)
		is("GlobalOrBuffer.Get", optCall(t, ed, "opt.Undolevels", "Get"), int64(5))
		optCall(t, ed, "opt.Undolevels", "UnsetLocal")
		check("GlobalOrBuffer.UnsetLocal", `&l:ul == -123456`)
		is("GlobalOrBuffer.HasLocal, unset", optCall(t, ed, "opt.Undolevels", "HasLocal"), false)
		optCall(t, ed, "opt.Autoread", "SetGlobal", false)
		optCall(t, ed, "opt.Autoread", "SetLocal", true)
		is("GlobalOrBuffer[bool].HasLocal", optCall(t, ed, "opt.Autoread", "HasLocal"), true)
		is("GlobalOrBuffer[bool].Get", optCall(t, ed, "opt.Autoread", "Get"), true)
		is("GlobalOrBuffer[bool].GetGlobal", optCall(t, ed, "opt.Autoread", "GetGlobal"), false)
		optCall(t, ed, "opt.Autoread", "UnsetLocal")
		check("GlobalOrBuffer[bool].UnsetLocal", `&l:ar == -1 && &ar == 0`)
		is("GlobalOrBuffer[bool].Get, global", optCall(t, ed, "opt.Autoread", "Get"), false)
		optCall(t, ed, "opt.Autoread", "SetLocal", true)
		optCall(t, ed, "opt.Autoread", "Set", true)
		check("GlobalOrBuffer[bool].Set", `&l:ar == -1 && &g:ar == 1`)
		optCall(t, ed, "opt.Undolevels", "SetLocal", 5)
		optCall(t, ed, "opt.Undolevels", "Reset")
		check("GlobalOrBuffer.Reset", `&l:ul == -123456 && &g:ul == 1000`)
		optCall(t, ed, "opt.Autoread", "SetGlobal", false)
		optCall(t, ed, "opt.Autoread", "SetBuffer", b2, true)
		is("GlobalOrBuffer[bool].GetBuffer", optCall(t, ed, "opt.Autoread", "GetBuffer", b2), true)
		optCall(t, ed, "opt.Tags", "SetLocal", "./stdopt-tags")
		is("GlobalOrBuffer[string].Get", optCall(t, ed, "opt.Tags", "Get"), "./stdopt-tags")
		optCall(t, ed, "opt.Tags", "UnsetLocal")
		check("GlobalOrBuffer[string].UnsetLocal", `&l:tags ==# '' && &tags ==# &g:tags`)
		is("GlobalOrBuffer[string].HasLocal", optCall(t, ed, "opt.Tags", "HasLocal"), false)

		// A value the option refuses: the editor's error, with the option
		// and the method.
		mustThrow(t, ed, optRequest("opt", "opt.Tabstop", "Set", -1), "[vigor] stdopt.opt: opt.Tabstop.Set: ", "E487")
	})
}

// An option that only the other editor has fails at once, naming the
// option and the editor, without a call to the editor; in its own editor it
// works, one call per method.
func TestStdOptAvailability(t *testing.T) {
	each(t, stdoptRepo(), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "stdopt")
		want := map[string]any{"error": "", "calls": int64(1)}
		mustEqual(t, ed, "a common option", ed.MustEval(t, optRequest("calls", "opt.Tabstop", "Get")), want)
		if ed.Kind == "vim" {
			mustEqual(t, ed, "nvimopt in Vim", ed.MustEval(t, optRequest("calls", "nvimopt.Winbar", "Set", "x")),
				map[string]any{"error": "nvimopt.Winbar.Set: 'winbar' is a Neovim option; Vim does not have it", "calls": int64(0)})
			mustEqual(t, ed, "vimopt in Vim", ed.MustEval(t, optRequest("calls", "vimopt.Compatible", "Get")), want)
			mustEqual(t, ed, "vimopt.Compatible", optCall(t, ed, "vimopt.Compatible", "Get"), false)
		} else {
			mustEqual(t, ed, "vimopt in Neovim", ed.MustEval(t, optRequest("calls", "vimopt.Compatible", "Get")),
				map[string]any{"error": "vimopt.Compatible.Get: 'compatible' is a Vim option; Neovim does not have it", "calls": int64(0)})
			mustEqual(t, ed, "nvimopt in Neovim", ed.MustEval(t, optRequest("calls", "nvimopt.Winbar", "Set", "%f")), want)
			mustEqual(t, ed, "nvimopt.Winbar", optCall(t, ed, "nvimopt.Winbar", "Get"), "%f")
		}
		mustThrow(t, ed, optRequest("opt", map[string]string{"vim": "nvimopt.Winbar", "nvim": "vimopt.Compatible"}[ed.Kind], "Reset"),
			"[vigor] stdopt.opt: ", ".Reset: '", " option; ", " does not have it")
	})
}

// optSteps writes steps for the fixture's batch handler: each is a name, a
// method and its arguments.
func optSteps(steps ...[]any) string {
	var out []string
	for _, s := range steps {
		var parts []string
		for _, a := range s {
			parts = append(parts, vimLiteral(a))
		}
		out = append(out, "["+strings.Join(parts, ", ")+"]")
	}
	return "vigor#request('stdopt', 'batch', [[" + strings.Join(out, ", ") + "]])"
}

// The same methods inside a batch: they are recorded and run in one round
// trip, return the zero value inside the batch, and give their typed
// results through b.Into; a value the option refuses fails the batch at
// that call, and an option of the other editor fails before anything is
// sent.
func TestStdOptBatch(t *testing.T) {
	each(t, stdoptRepo(), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "stdopt")
		ed.MustExec(t, `let g:w1 = win_getid() | split | let g:w2 = win_getid() | call win_gotoid(g:w1)`)
		ed.MustExec(t, `let g:b2 = bufadd('stdopt-batch') | call bufload(g:b2)`)
		w2 := int(ed.MustEval(t, `g:w2`).(int64))
		b2 := int(ed.MustEval(t, `g:b2`).(int64))
		got := ed.MustEval(t, optSteps(
			[]any{"opt.Tabstop", "SetLocal", 3},
			[]any{"opt.Tabstop", "Get"},
			[]any{"opt.Tabstop", "GetGlobal"},
			[]any{"opt.Expandtab", "SetLocal", true},
			[]any{"opt.Expandtab", "Get"},
			[]any{"opt.Selection", "Set", "exclusive"},
			[]any{"opt.Selection", "Get"},
			[]any{"opt.Numberwidth", "SetWindow", w2, 7},
			[]any{"opt.Numberwidth", "GetWindow", w2},
			[]any{"opt.Commentstring", "SetBuffer", b2, "# %s"},
			[]any{"opt.Commentstring", "GetBuffer", b2},
			[]any{"opt.Scrolloff", "SetLocal", 4},
			[]any{"opt.Scrolloff", "HasLocal"},
			[]any{"opt.Scrolloff", "UnsetLocal"},
			[]any{"opt.Scrolloff", "HasLocal"},
			[]any{"opt.Selection", "Reset"},
		)).(map[string]any)
		mustEqual(t, ed, "error", got["error"], "")
		mustEqual(t, ed, "inside the batch", got["inside"], []any{nil, int64(0), int64(0), nil, false, nil, "", nil, int64(0), nil, "", nil, false, nil, false, nil})
		mustEqual(t, ed, "results", got["results"], []any{nil, int64(3), int64(8), nil, true, nil, "exclusive", nil, int64(7), nil, "# %s", nil, true, nil, false, nil})
		mustEqual(t, ed, "after the batch", ed.MustEval(t, `[&l:ts, &l:et, &sel, getwinvar(g:w2, '&nuw'), &l:so]`),
			[]any{int64(3), int64(1), "inclusive", int64(7), int64(-1)})

		// The second call fails: the first ran, the third did not. (Not
		// 'tabstop': Vim sets it to 8 when it refuses a value.)
		got = ed.MustEval(t, optSteps(
			[]any{"opt.Selection", "Set", "exclusive"},
			[]any{"opt.Selection", "Set", "bogus"},
			[]any{"opt.Selection", "Set", "old"},
		)).(map[string]any)
		if e := got["error"].(string); !strings.HasPrefix(e, "batch call 1: ") || !strings.Contains(e, "E474") {
			t.Fatalf("%s: batch error %q", ed.Kind, e)
		}
		mustEqual(t, ed, "failing index", got["index"], int64(1))
		mustEqual(t, ed, "partial results", got["partial"], []any{nil})
		mustEqual(t, ed, "after the failed batch", ed.MustEval(t, `&sel`), "exclusive")
		ed.MustExec(t, `set ts=4`)

		// An option of the other editor: nothing is sent.
		other := map[string]string{"vim": "nvimopt.Winbar", "nvim": "vimopt.Compatible"}[ed.Kind]
		got = ed.MustEval(t, optSteps([]any{"opt.Tabstop", "Set", 6}, []any{other, "Get"})).(map[string]any)
		if e := got["error"].(string); !strings.HasPrefix(e, other+".Get: '") || !strings.HasSuffix(e, " does not have it") {
			t.Fatalf("%s: batch error %q", ed.Kind, e)
		}
		mustEqual(t, ed, "after the refused batch", ed.MustEval(t, `&ts`), int64(4))
	})
}
