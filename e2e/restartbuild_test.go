package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigorvim/vigor/internal/editortest"
)

// A plugin that crashes after its program was removed from the cache (an
// editor with a newer build of it prunes the older ones) is built again
// and restarted, instead of failing to start its old program. Each editor
// has a cache of its own: the test removes a program from it.
func TestRestartAfterProgramRemoved(t *testing.T) {
	opts := main1()
	each(t, opts, func(t *testing.T, ed *editortest.Editor) {
		o := opts
		o.Cache = t.TempDir()
		ed.Close()
		ed = editortest.Start(t, ed.Kind, o)
		waitLoadedWithin(t, ed, "vtest", coldBuild)
		bin := ed.MustEval(t, "vigor#_internal#plugin#get('vtest').bin").(string)
		if !strings.HasPrefix(bin, o.Cache) {
			t.Fatalf("%s: vtest runs %s, not a program of its cache %s", ed.Kind, bin, o.Cache)
		}
		if err := os.RemoveAll(filepath.Dir(bin)); err != nil {
			t.Fatal(err)
		}
		pid := ed.MustEval(t, `vigor#request('vtest', 'pid', [])`)
		mustEqual(t, ed, "crash", ed.MustEval(t, `vigor#request('vtest', 'crash', [])`), "crashing")
		waitEvents(t, ed, "vtest", 4)
		waitLoadedWithin(t, ed, "vtest", coldBuild)
		if pid2 := ed.MustEval(t, `vigor#request('vtest', 'pid', [])`); pid2 == pid {
			t.Fatalf("%s: not restarted", ed.Kind)
		}
		mustEqual(t, ed, "greet", ed.MustEval(t, `vigor#request('vtest', 'greet', ['again'])`), "Hello, again!")
		if m := ed.Messages(t); strings.Contains(m, "cannot start") {
			t.Fatalf("%s: messages: %s", ed.Kind, m)
		}
	})
}
