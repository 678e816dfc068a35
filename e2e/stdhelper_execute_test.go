package e2e

import (
	"strings"
	"testing"

	"github.com/vigorvim/vigor/internal/editortest"
)

// helper.Execute runs a script of several lines (blocks, line
// continuation, a function) with Go values as l: variables and returns
// what it printed, on both editors, directly and twice in a batch; an
// error in the script, and a variable that takes the script's name, are
// one line that names the function.
func TestStdHelperExecute(t *testing.T) {
	each(t, helpertestRepo(), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "helpertest")
		script := `if l:n > 1
  echo 'many' l:n
else
  echo 'one'
endif
for l:w in l:words
  echon ' ' .. l:w
endfor
let g:helpertest_sum = l:n
      \ + len(l:words)
      "\ a comment in a continuation
      \ + 1
function! HelpertestTwice(x) abort
  return a:x * 2
endfunction`
		vars := "{'n': 3, 'words': ['a', 'b']}"
		mustEqual(t, ed, "Execute's output", ed.MustEval(t, hreq("execute", vimText(script)+", "+vars)), "\nmany 3 a b")
		mustEqual(t, ed, "the variable it set", ed.MustEval(t, "g:helpertest_sum"), int64(6))
		mustEqual(t, ed, "the function it defined", ed.MustEval(t, "HelpertestTwice(4)"), int64(8))
		mustEqual(t, ed, "Execute without vars", ed.MustEval(t, hreq("execute", "\"echo 'x'\\necho 'y'\", v:null")), "\nx\ny")

		mustEqual(t, ed, "two Executes in a batch", ed.MustEval(t, hreq("executebatch", "\"echo l:v\", {'v': 'z'}")), []any{"\nz", "\nz"})
		mustEqual(t, ed, "the call between them", ed.MustEval(t, "g:helpertest_between"), int64(1))

		mustThrow(t, ed, hreq("execute", "\"echo 1\\necho l:nosuch\", {}"), "helpertest.execute", "helper.Execute: ", "E121", "nosuch")
		mustThrow(t, ed, hreq("execute", "'echo 1', {'vigor_script_': 1}"), "helpertest.execute",
			"helper.Execute: the variable l:vigor_script_ is the script's own")
	})
}

// vimText is a Vim expression of the String s, which may hold line
// breaks.
func vimText(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = "'" + strings.ReplaceAll(l, "'", "''") + "'"
	}
	return "join([" + strings.Join(lines, ", ") + "], \"\\n\")"
}
