package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/vigorvim/vigor/internal/editortest"
)

// On a real screen, in both editors: helper.Echo from a goroutine (no
// call waits for it) shows its text on the last line and EchoErr puts
// its text on the screen; Input completes with Go (type, Tab, Enter),
// starts from its default, and tells <Esc> from an empty answer; Keys
// types Normal mode keys and waits for them, directly and in a batch.
func TestStdHelperScreen(t *testing.T) {
	for _, kind := range editortest.Kinds {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			tm := startTerm(t, kind, rtp("helpertest")...)
			tm.waitLoaded("helpertest")

			tm.keys(":call vigor#notify('helpertest', 'later', ['from a goroutine', 300])", "Enter")
			s := tm.waitScreen("from a goroutine", 10*time.Second)
			if !strings.Contains(lastLine(s), "from a goroutine") {
				t.Fatalf("%s: Echo's text is not the last line:\n%s", kind, s)
			}
			tm.keys(":call vigor#request('helpertest', 'echoerr', ['an error line'])", "Enter")
			tm.waitScreen("an error line", 10*time.Second)

			// Go completion: "al", Tab gives alpha.
			tm.keys(":echo vigor#request('helpertest', 'ask', ['Pick: ', '', '', v:true])", "Enter")
			tm.waitScreen("Pick:", 10*time.Second)
			tm.keys("al", "Tab")
			tm.waitScreen("Pick: alpha", 10*time.Second)
			tm.keys("Enter")
			tm.waitScreen("answer: [alpha]", 10*time.Second)

			// The default, taken with Enter.
			tm.keys(":echo vigor#request('helpertest', 'ask', ['Name: ', 'dflt', '', v:false])", "Enter")
			tm.waitScreen("Name: dflt", 10*time.Second)
			tm.keys("Enter")
			tm.waitScreen("answer: [dflt]", 10*time.Second)

			// An empty answer is not a cancel.
			tm.keys(":echo vigor#request('helpertest', 'ask', ['Empty: ', 'x', '', v:false])", "Enter")
			tm.waitScreen("Empty: x", 10*time.Second)
			tm.keys("BSpace", "Enter")
			tm.waitScreen("answer: []", 10*time.Second)

			// <Esc> cancels, and the mapping it had for that is gone after.
			tm.keys(":echo vigor#request('helpertest', 'ask', ['Esc: ', 'y', 'file', v:false])", "Enter")
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
