package e2e

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/vigorvim/vigor/internal/editortest"
)

func stdcommandRepo() editortest.Options { return editortest.Options{RTP: rtp("stdcommand")} }

// creq is the expression that calls the stdcommand plugin's method with
// args (Vim script).
func creq(method, args string) string {
	return "vigor#request('stdcommand', '" + method + "', [" + args + "])"
}

// cmdLambda returns the lambda that the command name calls, from its
// listing.
func cmdLambda(t *testing.T, ed *editortest.Editor, name string) string {
	t.Helper()
	listing := ed.MustEval(t, "execute('command "+name+"')").(string)
	m := regexp.MustCompile(`\$lambda:[0-9]+\.[0-9]+`).FindString(listing)
	if m == "" {
		t.Fatalf("%s: :command %s lists no lambda:\n%s", ed.Kind, name, listing)
	}
	return m
}

// std/command defines user commands that call Go with their arguments
// (nargs, bang, range, count, register, mods, addr), completes them in
// Go, lists and removes them, releases the Go function of a command it
// replaces or removes, on both editors, directly and in a batch.
func TestStdCommand(t *testing.T) {
	each(t, stdcommandRepo(), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "stdcommand")
		args := func() map[string]any { return ed.MustEval(t, "g:stdcommand_args").(map[string]any) }

		ed.MustEval(t, creq("define", "'StdGreet', {'Nargs': '*', 'Bang': v:true, 'Range': '%'}, 0"))
		ed.MustExec(t, "call setline(1, ['a', 'b', 'c', 'd'])")
		ed.MustExec(t, "2,3StdGreet! one 'two three' four\\ five")
		a := args()
		mustEqual(t, ed, "the Args", []any{a["args"], a["fargs"], a["bang"], a["line1"], a["line2"], a["range"]},
			[]any{"one 'two three' four\\ five", []any{"one", "'two", "three'", "four five"}, true, int64(2), int64(3), int64(2)})
		ed.MustExec(t, "vertical StdGreet")
		a = args()
		mustEqual(t, ed, "the Args without arguments", []any{a["args"], a["fargs"], a["bang"], a["line1"], a["line2"], a["range"], a["mods"]},
			[]any{"", []any{}, false, int64(1), int64(4), int64(0), "vertical"})
		// Args.Parse: std/argument's options, flags and quoted strings.
		ed.MustExec(t, "StdGreet ++enc=utf-8 -v --name=x 'a b' c")
		mustEqual(t, ed, "the parsed Args", ed.MustEval(t, "g:stdcommand_parsed"), map[string]any{
			"opts": map[string]any{"enc": "utf-8"}, "flags": map[string]any{"v": []any{""}, "name": []any{"x"}}, "rest": []any{"a b", "c"}})
		// fn's error is the command's.
		if err := ed.Exec("StdGreet fail"); err == nil || !strings.Contains(err.Error(), "asked to fail") {
			t.Fatalf("%s: StdGreet fail: %v, want the Go error", ed.Kind, err)
		}

		// Replacing a command releases the Go function of the old one.
		old := cmdLambda(t, ed, "StdGreet")
		ed.MustEval(t, creq("define", "'StdGreet', {'Nargs': '?'}, 0"))
		mustThrow(t, ed, "vigor#request('stdcommand', '"+old+"', ['run', {}, '', '', 0])", "is not registered")
		ed.MustExec(t, "StdGreet again")
		mustEqual(t, ed, "the new command's Args", args()["args"], "again")

		ed.MustEval(t, creq("define", "'StdCount', {'Count': '7', 'Register': v:true, 'Nargs': '?', 'Bar': v:true}, 0"))
		ed.MustExec(t, "StdCount")
		mustEqual(t, ed, "the default count", args()["count"], int64(7))
		ed.MustExec(t, "3StdCount a | let g:after_bar = 1")
		a = args()
		mustEqual(t, ed, "a count and a register", []any{a["count"], a["reg"], a["args"]}, []any{int64(3), "a", ""})
		mustEqual(t, ed, "the command after the bar", ed.MustEval(t, "g:after_bar"), int64(1))
		ed.MustEval(t, creq("define", "'StdBufs', {'Range': '.', 'Addr': 'buffers'}, 0"))
		ed.MustExec(t, "%StdBufs")
		mustEqual(t, ed, "a range of buffers", args()["line1"], int64(1))

		// Completion by Go, by the editor's name and by a Vim function.
		ed.MustEval(t, creq("define", "'StdPick', {'Nargs': '1'}, 1"))
		mustEqual(t, ed, "Go's completion", ed.MustEval(t, "getcompletion('StdPick ', 'cmdline')"), []any{"alpha", "beta", "gamma"})
		mustEqual(t, ed, "Go's completion of b", ed.MustEval(t, "getcompletion('StdPick b', 'cmdline')"), []any{"beta"})
		mustEqual(t, ed, "Go's completion that fails", ed.MustEval(t, "getcompletion('StdPick x', 'cmdline')"), []any{})
		if m := ed.Messages(t); !strings.Contains(m, "completing :StdPick: no completion for x") {
			t.Fatalf("%s: messages after a completion that fails:\n%s", ed.Kind, m)
		}
		ed.MustEval(t, creq("define", "'StdFile', {'Nargs': '1', 'Complete': 'option'}, 0"))
		mustEqual(t, ed, "the editor's completion", ed.MustEval(t, "getcompletion('StdFile tabsto', 'cmdline')"), []any{"tabstop"})
		ed.MustExec(t, "function! StdCompleteFn(A, L, P) abort\nreturn ['one', 'two']\nendfunction")
		ed.MustEval(t, creq("define", "'StdFn', {'Nargs': '1', 'Complete': 'customlist,StdCompleteFn'}, 0"))
		mustEqual(t, ed, "a Vim function's completion", ed.MustEval(t, "getcompletion('StdFn ', 'cmdline')"), []any{"one", "two"})

		// A buffer-local command beside a global one of the same name.
		ed.MustEval(t, creq("define", "'StdLocal', {}, 0"))
		global := cmdLambda(t, ed, "StdLocal")
		ed.MustEval(t, creq("define", "'StdLocal', {'Buffer': v:true, 'Nargs': '?'}, 0"))
		ed.MustExec(t, "StdLocal here")
		mustEqual(t, ed, "the buffer's command", args()["args"], "here")
		ed.MustEval(t, creq("remove", "'StdLocal', v:true"))
		ed.MustExec(t, "StdLocal")
		mustEqual(t, ed, "the global command after the buffer's went", args()["args"], "")
		mustEqual(t, ed, "the global command's lambda", cmdLambda(t, ed, "StdLocal"), global)

		names := ed.MustEval(t, creq("list", "")).([]any)
		for _, n := range []string{"StdGreet", "StdCount", "StdPick", "StdFile"} {
			if !slices.Contains(names, any(n)) {
				t.Fatalf("%s: List = %v, without %s", ed.Kind, names, n)
			}
		}
		// Remove releases the lambda and the completion function.
		pick := cmdLambda(t, ed, "StdPick")
		fn := "VigorComplete_stdcommand_" + strings.ReplaceAll(strings.TrimPrefix(pick, "$lambda:"), ".", "_")
		mustEqual(t, ed, "the completion function", ed.MustEval(t, "exists('*"+fn+"')"), int64(1))
		ed.MustEval(t, creq("remove", "'StdPick', 0"))
		mustEqual(t, ed, "exists(':StdPick') after Remove", ed.MustEval(t, "exists(':StdPick')"), int64(0))
		mustEqual(t, ed, "the completion function after Remove", ed.MustEval(t, "exists('*"+fn+"')"), int64(0))
		mustThrow(t, ed, "vigor#request('stdcommand', '"+pick+"', ['complete', {}, '', '', 0])", "is not registered")
		ed.MustEval(t, creq("remove", "'StdPick', 0")) // not defined: no error

		got := ed.MustEval(t, creq("batch", "'StdBatch', 'StdFile'")).([]any)
		if !slices.Contains(got, any("StdBatch")) || slices.Contains(got, any("StdFile")) {
			t.Fatalf("%s: the batch's List = %v, want StdBatch and not StdFile", ed.Kind, got)
		}
		ed.MustExec(t, "StdBatch x y")
		mustEqual(t, ed, "the batch's command", args()["fargs"], []any{"x", "y"})
		mustEqual(t, ed, "the batch's command's completion", ed.MustEval(t, "getcompletion('StdBatch g', 'cmdline')"), []any{"gamma"})

		for _, bad := range []struct{ method, args, want string }{
			{"define", "'greet', {}, 0", `command.Define: "greet" is not a user command name`},
			{"define", "'Gr-eet', {}, 0", `command.Define: "Gr-eet" is not a user command name`},
			{"define", "'StdX', {'Nargs': '2'}, 0", `command.Define: StdX: Nargs "2" is not one of`},
			{"define", "'StdX', {'Range': '%', 'Count': '1'}, 0", "command.Define: StdX: a command has a Range or a Count, not both"},
			{"define", "'StdX', {'Range': 'all'}, 0", `command.Define: StdX: Range "all" is not`},
			{"define", "'StdX', {'Addr': 'pages'}, 0", `command.Define: StdX: Addr "pages" is not one of`},
			{"define", "'StdX', {'Nargs': '1', 'Complete': 'file,x'}, 0", `command.Define: StdX: Complete "file,x" is not a completion name`},
			{"define", "'StdX', {'Complete': 'file'}, 0", "command.Define: StdX: a command without arguments (Nargs 0) has no completion"},
			{"define", "'StdX', {'Nargs': '1', 'Complete': 'nosuch'}, 0", "command.Define: StdX: "},
			{"define", "'StdX', {'Nargs': '1', 'Complete': 'file'}, 1", "command.Define: StdX: give Complete or CompleteFunc, not both"},
			{"remove", "'x', 0", `command.Remove: "x" is not a user command name`},
		} {
			mustThrow(t, ed, creq(bad.method, bad.args), "stdcommand."+bad.method, bad.want)
		}
		mustEqual(t, ed, "exists(':StdX') after the errors", ed.MustEval(t, "exists(':StdX')"), int64(0))
	})
}
