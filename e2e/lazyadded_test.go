package e2e

import (
	"testing"

	"github.com/vigorvim/vigor/internal/editortest"
)

// A lazy plugin in a repository put on 'runtimepath' after startup, with
// no plugin/ file (so nothing discovers it before the request), starts on
// its first request and answers it.
func TestRequestStartsAddedLazyPlugin(t *testing.T) {
	each(t, editortest.Options{RTP: []string{hello()}}, func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "hello")
		mustEqual(t, ed, "lazyp before", ed.MustEval(t, "vigor#plugin#status('lazyp')"), "")
		ed.MustExec(t, "set runtimepath+="+rtp("lazy")[0])
		mustEqual(t, ed, "the request", ed.MustEval(t, `string(vigor#request('lazyp', 'log', []))`), "[]")
		mustEqual(t, ed, "lazyp after", ed.MustEval(t, "vigor#plugin#status('lazyp')"), "loaded")
	})
}
