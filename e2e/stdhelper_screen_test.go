package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/vigorvim/vigor/internal/editortest"
)

// On a real screen, in both editors: helper.Echo from a goroutine (no
// call waits for it) shows its text on the last line and EchoErr puts
// its text on the screen, all of a text of several lines; Input completes with Go (type, Tab, Enter),
// starts from its default, and tells <Esc> from an empty answer; Keys
// types Normal mode keys and waits for them, directly and in a batch.
func TestStdHelperScreen(t *testing.T) {
	for _, kind := range editortest.Kinds {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			tm := startTerm(t, kind, rtp("helpertest")...)
			tm.waitLoaded("helpertest")

			// The text is built in the command, so that the command line
			// as typed does not hold it: the wait is for the Echo, whose
			// redraw would otherwise come 300 ms later, in a later step.
			tm.keys(":call vigor#notify('helpertest', 'later', ['from a ' . 'goroutine', 300])", "Enter")
			s := tm.waitScreen("from a goroutine", 10*time.Second)
			if !strings.Contains(lastLine(s), "from a goroutine") {
				t.Fatalf("%s: Echo's text is not the last line:\n%s", kind, s)
			}
			tm.keys(":call vigor#request('helpertest', 'echoerr', ['an error ' . 'line'])", "Enter")
			tm.waitScreen("an error line", 10*time.Second)

			// Several lines: all are shown, with the editor's hit-enter
			// prompt, as by an :echo of several lines; EchoErr's are in
			// :messages a line each, Echo's are not.
			tm.keys(`:call vigor#request('helpertest', 'echoerr', ["ml one\nml two"])`, "Enter")
			s = tm.waitScreen("Press ENTER", 10*time.Second)
			if !strings.Contains(s, "ml one\nml two\nPress ENTER") {
				t.Fatalf("%s: EchoErr of two lines does not show both:\n%s", kind, s)
			}
			tm.keys("Enter")
			tm.keys(`:call vigor#notify('helpertest', 'later', ["gl one\ngl two", 0])`, "Enter")
			s = tm.waitScreen("gl one\ngl two", 10*time.Second) // a line break, not the "\\n" of the command line
			if !strings.Contains(s, "gl one\ngl two\nPress ENTER") {
				t.Fatalf("%s: Echo of two lines does not show both:\n%s", kind, s)
			}
			tm.keys("Enter")
			tm.keys(`:ec 'ml: '.count(execute('mes'),"\nml one\nml two").count(execute('mes'),'gl one')`, "Enter")
			tm.waitScreen("ml: 10", 10*time.Second)

			// Keys typed before the prompt shows go into the answer; with
			// SaveTypeahead, Input waits for keys typed after it.
			tm.keys(":echo vigor#request('helpertest', 'ask', ['Ahead: ', '', '', ''])", "Enter", "ahead", "Enter")
			tm.waitScreen("answer: [ahead]", 10*time.Second)
			tm.keys(":echo vigor#request('helpertest', 'ask', ['Saved: ', '', '', 'save'])", "Enter")
			tm.waitScreen("\nSaved:", 10*time.Second) // the prompt, not the command line
			tm.keys("typed", "Enter")
			tm.waitScreen("answer: [typed]", 10*time.Second)

			// Go completion: "al", Tab gives alpha.
			tm.keys(":echo vigor#request('helpertest', 'ask', ['Pick: ', '', '', 'expr'])", "Enter")
			tm.waitScreen("\nPick:", 10*time.Second) // the prompt, not the command line
			tm.keys("al", "Tab")
			tm.waitScreen("Pick: alpha", 10*time.Second)
			tm.keys("Enter")
			tm.waitScreen("answer: [alpha]", 10*time.Second)

			// CompleteFunc: the same with a Go func, as a lambda that is
			// gone once Input has returned.
			tm.keys(":echo vigor#request('helpertest', 'ask', ['Func: ', '', '', 'func'])", "Enter")
			tm.waitScreen("\nFunc:", 10*time.Second) // the prompt, not the command line
			tm.keys("ga", "Tab")
			tm.waitScreen("Func: gamma", 10*time.Second)
			tm.keys("Enter")
			tm.waitScreen("answer: [gamma]", 10*time.Second)
			tm.keys(":try|cal vigor#request('helpertest',g:helpertest_lambda,[])|cat /not reg/|ec 'go' . 'ne'|endt", "Enter")
			tm.waitScreen("gone", 10*time.Second)

			// A CompleteFunc's error offers nothing, is shown as one line
			// once input() has ended and is in :messages, and the answer
			// is what was typed.
			tm.keys(":let g:answer = vigor#request('helpertest', 'ask', ['Fail: ', '', '', 'fail'])", "Enter")
			tm.waitScreen("\nFail:", 10*time.Second) // the prompt, not the command line
			tm.keys("be", "Tab", "Enter")
			s = tm.waitScreen("no words today", 10*time.Second)
			if n := strings.Count(s, "no words today"); n != 1 || !strings.Contains(s, "[vigor] helpertest.$lambda:") ||
				!strings.Contains(s, ": helper.Input: CompleteFunc: no words today") || strings.Contains(s, "Error detected") || strings.Contains(s, "Press ENTER") {
				t.Fatalf("%s: a CompleteFunc's error is not one readable line:\n%s", kind, s)
			}
			tm.keys(":echo g:answer . ' n=' . count(execute('messages'), 'no words today')", "Enter")
			tm.waitScreen("answer: [be] n=1", 10*time.Second)

			// The default, taken with Enter.
			tm.keys(":echo vigor#request('helpertest', 'ask', ['Name: ', 'dflt', '', ''])", "Enter")
			tm.waitScreen("Name: dflt", 10*time.Second)
			tm.keys("Enter")
			tm.waitScreen("answer: [dflt]", 10*time.Second)

			// An empty answer is not a cancel.
			tm.keys(":echo vigor#request('helpertest', 'ask', ['Empty: ', 'x', '', ''])", "Enter")
			tm.waitScreen("Empty: x", 10*time.Second)
			tm.keys("BSpace", "Enter")
			tm.waitScreen("answer: []", 10*time.Second)

			// <Esc> cancels, and the mapping it had for that is gone after.
			tm.keys(":echo vigor#request('helpertest', 'ask', ['Esc: ', 'y', 'file', ''])", "Enter")
			tm.waitScreen("Esc: y", 10*time.Second)
			tm.keys("Escape")
			tm.waitScreen("cancelled", 10*time.Second)
			tm.keys(":echo 'maps: ' . string(maparg('<Esc>', 'c'))", "Enter")
			tm.waitScreen("maps: ''", 10*time.Second)

			// Keys: typed and done when the call returns.
			tm.keys(":call vigor#request('helpertest', 'keys', [\"ihello\\<Esc>\", v:false]) | let g:line = getline(1)", "Enter")
			tm.keys(":echo 'line: ' . g:line", "Enter")
			tm.waitScreen("line: hello", 10*time.Second)
			tm.keys(":call vigor#request('helpertest', 'batch', ['b', 'load.vim', v:false, \"A there\\<Esc>\"]) | let g:line = getline(1)", "Enter")
			tm.keys(":echo 'line: ' . g:line", "Enter")
			tm.waitScreen("line: hello there", 10*time.Second)
		})
	}
}
