package e2e

import (
	"testing"

	"github.com/vigorvim/vigor/internal/editortest"
)

// The acceptance line: the example plugin answers in both editors.
func TestHelloGreet(t *testing.T) {
	each(t, editortest.Options{RTP: []string{hello()}}, func(t *testing.T, ed *editortest.Editor) {
		// No wait: a request to a plugin that is still building or starting
		// waits for it.
		got := ed.MustEval(t, `vigor#request('hello', 'greet', ['CI'])`)
		mustEqual(t, ed, "greet", got, "Hello, CI!")
		mustEqual(t, ed, "events", eventsFor(t, ed, "hello"),
			[]string{"VigorReady", "VigorPluginPre", "VigorPluginPost"})
		mustEqual(t, ed, "status", ed.MustEval(t, `vigor#plugin#status('hello')`), "loaded")
		mustEqual(t, ed, "is_loaded", ed.MustEval(t, `vigor#plugin#is_loaded('hello')`), int64(1))
	})
}
