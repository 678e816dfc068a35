package e2e

import (
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

// std/command defines user commands that call Go with their arguments
// (nargs, bang, range, count, register), completes them in Go, lists and
// removes them, on both editors, directly and in a batch.
func TestStdCommand(t *testing.T) {
	each(t, stdcommandRepo(), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "stdcommand")
		args := func() map[string]any { return ed.MustEval(t, "g:stdcommand_args").(map[string]any) }

		ed.MustEval(t, creq("define", "'StdGreet', {'Nargs': '*', 'Bang': 1, 'Range': '%', 'Register': 0}, 0"))
		ed.MustExec(t, "call setline(1, ['a', 'b', 'c', 'd'])")
		ed.MustExec(t, "2,3StdGreet! one 'two three' four\\ five")
		a := args()
		mustEqual(t, ed, "the Args", []any{a["args"], a["fargs"], a["bang"], a["line1"], a["line2"], a["range"]},
			[]any{"one 'two three' four\\ five", []any{"one", "'two", "three'", "four five"}, true, int64(2), int64(3), int64(2)})
		ed.MustExec(t, "StdGreet")
		a = args()
		mustEqual(t, ed, "the Args without arguments", []any{a["args"], a["fargs"], a["bang"], a["line1"], a["line2"]},
			[]any{"", []any{}, false, int64(1), int64(4)})
		// fn's error is the command's.
		if err := ed.Exec("StdGreet fail"); err == nil || !strings.Contains(err.Error(), "asked to fail") {
			t.Fatalf("%s: StdGreet fail: %v, want the Go error", ed.Kind, err)
		}

		ed.MustEval(t, creq("define", "'StdCount', {'Count': '7', 'Register': 1, 'Nargs': '?'}, 0"))
		ed.MustExec(t, "StdCount a")
		mustEqual(t, ed, "the default count", args()["count"], int64(7))
		ed.MustExec(t, "StdCount 3")
		ed.MustExec(t, "3StdCount")
		mustEqual(t, ed, "a count", args()["count"], int64(3))

		// Completion by Go, and by the editor's name.
		ed.MustEval(t, creq("define", "'StdPick', {'Nargs': 1}, 1"))
		mustEqual(t, ed, "Go's completion", ed.MustEval(t, "getcompletion('StdPick ', 'cmdline')"), []any{"alpha", "beta", "gamma"})
		mustEqual(t, ed, "Go's completion of b", ed.MustEval(t, "getcompletion('StdPick b', 'cmdline')"), []any{"beta"})
		ed.MustEval(t, creq("define", "'StdFile', {'Nargs': 1, 'Complete': 'option'}, 0"))
		mustEqual(t, ed, "the editor's completion", ed.MustEval(t, "getcompletion('StdFile tabsto', 'cmdline')"), []any{"tabstop"})

		names := ed.MustEval(t, creq("list", "")).([]any)
		for _, n := range []string{"StdGreet", "StdCount", "StdPick", "StdFile"} {
			if !slices.Contains(names, any(n)) {
				t.Fatalf("%s: List = %v, without %s", ed.Kind, names, n)
			}
		}
		ed.MustEval(t, creq("remove", "'StdGreet', 0"))
		mustEqual(t, ed, "exists(':StdGreet') after Remove", ed.MustEval(t, "exists(':StdGreet')"), int64(0))
		ed.MustEval(t, creq("remove", "'StdGreet', 0")) // not defined: no error

		got := ed.MustEval(t, creq("batch", "'StdBatch'")).([]any)
		if !slices.Contains(got, any("StdBatch")) {
			t.Fatalf("%s: the batch's List = %v, without StdBatch", ed.Kind, got)
		}
		ed.MustExec(t, "StdBatch x y")
		mustEqual(t, ed, "the batch's command", args()["fargs"], []any{"x", "y"})

		for _, bad := range []struct{ method, args, want string }{
			{"define", "'greet', {}, 0", `command.Define: "greet" is not a user command name`},
			{"define", "'Gr-eet', {}, 0", `command.Define: "Gr-eet" is not a user command name`},
			{"define", "'StdX', {'Nargs': '2'}, 0", `command.Define: Nargs "2" is not one of`},
			{"define", "'StdX', {'Range': '%', 'Count': '1'}, 0", "command.Define: a command has a Range or a Count, not both"},
			{"define", "'StdX', {'Complete': 'file,x'}, 0", `command.Define: Complete "file,x" is not a completion name`},
			{"define", "'StdX', {'Complete': 'nosuch'}, 0", "command.Define: StdX: "},
			{"remove", "'x', 0", `command.Remove: "x" is not a user command name`},
		} {
			mustThrow(t, ed, creq(bad.method, bad.args), "stdcommand."+bad.method, bad.want)
		}
	})
}
