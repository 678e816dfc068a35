package e2e

import (
	"testing"

	"github.com/vigorvim/vigor/internal/editortest"
)

func stdparseRepo() editortest.Options { return editortest.Options{RTP: rtp("stdparse")} }

// A user command's <q-args> reach Go and std/argument parses them as
// the user typed them; argument.FArgs splits them as the editor's own
// <f-args> does, on both editors.
func TestStdParseArguments(t *testing.T) {
	each(t, stdparseRepo(), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "stdparse")
		ed.MustExec(t, `StdParse ++enc=sjis ++bin -f --name="a b" -n10 hello\ world 'x y' C:\dir -- -z`)
		got := ed.MustEval(t, "g:stdparse")
		mustEqual(t, ed, "StdParse", got, map[string]any{
			"qargs":       `++enc=sjis ++bin -f --name="a b" -n10 hello\ world 'x y' C:\dir -- -z`,
			"fargs":       []any{"++enc=sjis", "++bin", "-f", `--name="a`, `b"`, "-n10", "hello world", "'x", "y'", `C:\dir`, "--", "-z"},
			"fargs_equal": true,
			"opts":        map[string]any{"enc": "sjis", "bin": ""},
			"flags":       map[string]any{"f": []any{""}, "name": []any{"a b"}, "n": []any{"10"}},
			"rest":        []any{"hello world", "x y", `C:\dir`},
			"literal":     []any{"-z"},
			"format":      `++bin ++enc=sjis -f -n10 --name="a b" "hello world" "x y" "C:\\dir" -- -z`,
		})

		// :help <f-args>'s table, blanks, tabs and a backslash at the end.
		for _, line := range []string{`ab`, `a\b`, `a\ b`, `a\  b`, `a\\b`, `a\\ b`, `a\\\b`, `a\\\ b`,
			`a\\\\b`, `a\\\\ b`, "a\tb\\\tc  d  ", `a\`, `"x y" 'z'`, `é\ ü`, ``} {
			ed.MustExec(t, "execute 'StdParse' "+editortest.VimString(line))
			got := ed.MustEval(t, "g:stdparse").(map[string]any)
			if got["fargs_equal"] != true {
				t.Errorf("%s: StdParse %s: argument.FArgs gives %#v, <f-args> something else", ed.Kind, line, got["fargs"])
			}
		}

		ed.MustExec(t, `StdParse --other "unclosed`)
		mustEqual(t, ed, "an unclosed quote", ed.MustEval(t, "g:stdparse.error"),
			`argument.Parse: the " at byte 8 is not closed`)
		ed.MustExec(t, `StdParse --other -f`)
		mustEqual(t, ed, "an unknown flag", ed.MustEval(t, "g:stdparse.error"),
			`argument.ValidateFlags: unknown flag --other (known: -f, --name, -n)`)
	})
}

// A buffer name that std/bufname formats opens with :edit, loads through
// a BufReadCmd that parses it, stays the same when the current directory
// changes (the editors take it for a URL), and parses back from bufname()
// into the same parts.
func TestStdParseBufname(t *testing.T) {
	each(t, stdparseRepo(), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "stdparse")
		ed.MustExec(t, "cd "+t.TempDir())
		expr := `/tmp/my repo;v1#x/日本 100% C:\a "q"|?*`
		name := ed.MustEval(t, "vigor#request('stdparse', 'format', ["+editortest.VimString(expr)+
			", {'rev': ['HEAD~1', 'a&b=c d'], 'x': ['']}, 'main.go'])").(string)
		mustEqual(t, ed, "the name", name,
			`stdparse:///tmp/my repo%3Bv1%23x/日本 100%25 C:\a %22q%22%7C%3F%2A;rev=HEAD~1&rev=a%26b%3Dc d&x=#main.go`)
		ed.MustExec(t, "execute 'edit' fnameescape("+editortest.VimString(name)+")")
		mustEqual(t, ed, "bufname()", ed.MustEval(t, "bufname()"), name)
		mustEqual(t, ed, "the lines BufReadCmd set", ed.MustEval(t, "getline(1, '$')"),
			[]any{"stdparse", expr, "rev=HEAD~1&rev=a%26b%3Dc+d&x=", "main.go"})
		ed.MustExec(t, "cd "+t.TempDir())
		want := map[string]any{"name": name, "scheme": "stdparse", "expr": expr,
			"params": map[string]any{"rev": []any{"HEAD~1", "a&b=c d"}, "x": []any{""}}, "fragment": "main.go"}
		mustEqual(t, ed, "the name parsed", ed.MustEval(t, "vigor#request('stdparse', 'current', [])"), want)
		mustEqual(t, ed, "bufnr()", ed.MustEval(t, "bufnr("+editortest.VimString(name)+")"), ed.MustEval(t, "bufnr()"))

		// What Format refuses for a scheme is what the editors take for a
		// file name, which a change of directory changes.
		for _, n := range []string{"my_s://x", "x1://x"} {
			ed.MustExec(t, "execute 'edit' fnameescape("+editortest.VimString(n)+") | cd "+t.TempDir())
			if got := ed.MustEval(t, "bufname()"); got == n {
				t.Errorf("%s: bufname() of %s after :cd is %v, want a path", ed.Kind, n, got)
			}
		}

		ed.MustExec(t, "enew | file /tmp/plain")
		mustThrow(t, ed, "vigor#request('stdparse', 'current', [])",
			"stdparse.current", `bufname.Parse: "/tmp/plain" does not start with {scheme}://`)
	})
}
