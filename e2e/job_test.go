package e2e

import (
	"strings"
	"testing"

	"github.com/vigorvim/vigor/internal/editortest"
)

// The last line a process writes to stderr reaches its failure message
// even without a newline.
func TestStderrLastLineWithoutNewline(t *testing.T) {
	each(t, editortest.Options{RTP: rtp("jobs")}, func(t *testing.T, ed *editortest.Editor) {
		waitState(t, ed, "tailerr", "failed")
		want := "[vigor] tailerr: the process exited with status 6 (the last line, without a newline)"
		if m := ed.Messages(t); !strings.Contains(m, want) {
			t.Fatalf("%s: messages %q, want %q", ed.Kind, m, want)
		}
	})
}
