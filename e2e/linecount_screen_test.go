package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/vigorvim/vigor/internal/editortest"
)

// A plugin written from the docs alone (e2e/testdata/rtp/linecount)
// mixes std/autocmd, std/mapping, std/command, std/lambda, std/variables
// and std/helper as real plugins do, defined in one batch at setup: in a
// real screen on both editors, a write records line counts in b: and g:
// variables through a Go closure, a mapping into Go counts presses, and a
// user command parses its flags, completes in Go and echoes.
func TestLineCountPlugin(t *testing.T) {
	for _, kind := range editortest.Kinds {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			tm := startTerm(t, kind, rtp("linecount")...)
			tm.waitLoaded("linecount")
			dir := t.TempDir()

			tm.keys(":edit "+dir+"/a.txt", "Enter", ":call setline(1, ['1', '2', '3'])", "Enter", ":write", "Enter")
			tm.keys(":edit "+dir+"/bb.txt", "Enter", ":call setline(1, ['x'])", "Enter", ":write", "Enter")
			tm.keys(":LineCount", "Enter")
			tm.waitScreen("lines: a.txt=3 bb.txt=1", 10*time.Second)
			tm.keys(":echo 'b:' . b:linecount", "Enter")
			tm.waitScreen("b:1", 10*time.Second)

			// The command completes in Go, and takes an argument.
			tm.keys(":LineCount b", "Tab")
			tm.waitScreen(":LineCount bb.txt", 10*time.Second)
			tm.keys("Enter")
			tm.waitScreen("lines: bb.txt=1", 10*time.Second)

			// The mapping calls Go, twice, by notifications: look until
			// both have run.
			tm.keys("\\lc\\lc")
			for deadline := time.Now().Add(10 * time.Second); ; {
				tm.keys(":echo 'pressed:' . get(g:, 'linecount_pressed', 0)", "Enter")
				if strings.Contains(tm.waitScreen("pressed:", 10*time.Second), "pressed:2") {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("%s: g:linecount_pressed is not 2 after two presses:\n%s", kind, tm.screen())
				}
				time.Sleep(20 * time.Millisecond)
			}

			tm.keys(":LineCount --reset", "Enter", ":echo 'counts:' . string(g:linecounts)", "Enter")
			tm.waitScreen("counts:{}", 10*time.Second)
		})
	}
}
