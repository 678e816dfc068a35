package e2e

import (
	"strings"
	"testing"

	"github.com/vigorvim/vigor/internal/editortest"
)

// Cmd runs one Ex command: a string with a line break is an error, and
// nothing runs. Exec runs lines as :source runs a script.
func TestCmdAndExec(t *testing.T) {
	each(t, editortest.Options{RTP: rtp("h2")}, func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "h2exec")
		mustThrow(t, ed, `vigor#request('h2exec', 'cmd', ["let g:h2_c1 = 1\nlet g:h2_c2 = 2"])`,
			"[vigor] h2exec.cmd: Cmd runs one Ex command, and this one has 2 lines: use Exec to run several lines")
		mustEqual(t, ed, "after a Cmd of two lines", ed.MustEval(t, `[exists('g:h2_c1'), exists('g:h2_c2')]`), []any{int64(0), int64(0)})
		// One line with a bar is still one command line.
		ed.MustEval(t, `vigor#request('h2exec', 'cmd', ['let g:h2_c1 = 1 | let g:h2_c2 = 2'])`)
		mustEqual(t, ed, "Cmd with a bar", ed.MustEval(t, `[g:h2_c1, g:h2_c2]`), []any{int64(1), int64(2)})

		// :autocmd! and an :autocmd take their own line only; line
		// continuation joins lines; :if and :function blocks work.
		script := []string{
			`augroup h2exec`,
			`  autocmd!`,
			`  autocmd User H2Exec let g:h2_fired += 1`,
			`augroup END`,
			`let g:h2_list = [1,`,
			`      \ 2]`,
			`if 1`,
			`  let g:h2_if = 'then'`,
			`endif`,
			`function! s:Twice(x) abort`,
			`  return a:x * 2`,
			`endfunction`,
			`let g:h2_twice = s:Twice(21)`,
			`let s:n = get(s:, 'n', 0) + 1`,
			`let g:h2_n = s:n`,
		}
		for run := 1; run <= 2; run++ {
			ed.MustExec(t, `let g:h2_fired = 0`)
			ed.MustEval(t, `vigor#request('h2exec', 'exec', `+vimList(script)+`)`)
			ed.MustExec(t, `doautocmd <nomodeline> User H2Exec`)
			mustEqual(t, ed, "script", ed.MustEval(t, `[g:h2_fired, g:h2_list, g:h2_if, g:h2_twice, g:h2_n]`),
				[]any{int64(1), []any{int64(1), int64(2)}, "then", int64(42), int64(1)})
		}
		// One argument may hold several lines.
		ed.MustEval(t, `vigor#request('h2exec', 'exec', ["let g:h2_a = 1\nlet g:h2_b = g:h2_a + 1", 'let g:h2_c = 3'])`)
		mustEqual(t, ed, "lines in one argument", ed.MustEval(t, `[g:h2_a, g:h2_b, g:h2_c]`), []any{int64(1), int64(2), int64(3)})

		// The first error ends the script and names its line.
		ed.MustExec(t, `unlet! g:h2_e1 g:h2_e3`)
		mustThrow(t, ed, `vigor#request('h2exec', 'exec', ['let g:h2_e1 = 1', 'echo h2_nosuch', 'let g:h2_e3 = 3'])`,
			"[vigor] h2exec.exec: line 2: Vim(echo):E121: Undefined variable: h2_nosuch")
		mustEqual(t, ed, "after the error", ed.MustEval(t, `[exists('g:h2_e1'), exists('g:h2_e3')]`), []any{int64(1), int64(0)})
		var parts map[string]string
		check := func(what string, lines []string, fn, msg string) {
			t.Helper()
			if err := ed.EvalInto(`vigor#request('h2exec', 'exec_error', `+vimList(lines)+`)`, &parts); err != nil {
				t.Fatal(err)
			}
			if parts["fn"] != fn || !strings.HasPrefix(parts["msg"], msg) {
				t.Fatalf("%s: %s: EditorError %v, want Fn %q and a message that starts with %q", ed.Kind, what, parts, fn, msg)
			}
		}
		check("a :throw", []string{`let x = 1`, `" a comment`, `throw 'my own'`}, "", "line 3: my own")
		// Continued lines count as the lines they are on.
		check("after a continuation", []string{`let g:h2_l = [`, `\ 1]`, `call h2_nosuch()`}, "", "line 3: Vim(call):E117: Unknown function: h2_nosuch")
		// A continued command fails on its first line.
		check("in a continued command", []string{`let g:h2_x = 1`, `let g:h2_x = [`, `      \ h2_nosuch]`}, "", "line 2: Vim(let):E121: Undefined variable: h2_nosuch")
		// In a function the script defines, the line of its call.
		check("in a function", []string{`function! s:Bad() abort`, `  echo h2_nosuch`, `endfunction`, `call s:Bad()`},
			"", "line 4: Vim(echo):E121: Undefined variable: h2_nosuch")

		// An Exec may run another while it runs (here through the
		// plugin again).
		ed.MustEval(t, `vigor#request('h2exec', 'exec', ['let s:outer = 1', 'call vigor#request("h2exec", "exec", ["let s:inner = 2", "let g:h2_inner = [exists(\"s:outer\"), s:inner]"])', 'let g:h2_outer = [s:outer, exists("s:inner")]'])`)
		mustEqual(t, ed, "nested Exec", ed.MustEval(t, `[g:h2_outer, g:h2_inner]`), []any{[]any{int64(1), int64(0)}, []any{int64(0), int64(2)}})
	})
}

// vimList writes strs as a Vim script List of Strings.
func vimList(strs []string) string {
	parts := make([]string, len(strs))
	for i, s := range strs {
		parts[i] = editortest.VimString(s)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
