package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vigorvim/vigor/internal/editortest"
)

// The stubs of a lazy plugin's mappings are defined under Vim's default
// 'cpoptions', whatever the user's: with cpo-=B (a backslash escapes the
// next key in :map) the lhs \f is \f, not f, and x\ is x\; with cpo+=<
// (no <> notation in :map) <C-\> is CTRL-\. The user's f stays as it
// was, and the first use starts each plugin and runs its real mapping,
// replayed with the exact keys.
func TestLazyMappingCpoptions(t *testing.T) {
	stubs := `:let g:c = &cpo | set cpo&vim | let g:r = [maparg('f', 'n'), maparg('\f', 'n') =~# 'lazykf', maparg('x\', 'n') =~# 'lazykx', maparg('<C-\>', 'n') =~# 'lazykc'] | let &cpo = g:c | echo 'stubs: ' . string(g:r)`
	for _, cpo := range []string{"set cpo-=B", "set cpo+=<"} {
		for _, kind := range editortest.Kinds {
			t.Run(cpo[len("set "):]+"/"+kind, func(t *testing.T) {
				t.Parallel()
				tm := startTermCmds(t, kind, editortest.SharedCache(t), []string{cpo, "let g:lazykeys = []"}, rtp("lazykeys")...)
				tm.keys(":echo 'states: ' . join(map(['lazykf', 'lazykx', 'lazykc'], 'vigor#plugin#status(v:val)'))", "Enter")
				tm.waitScreen("states: lazy lazy lazy", 30*time.Second)
				tm.keys(":redraw!", "Enter", stubs, "Enter")
				tm.waitScreen("stubs: ['', 1, 1, 1]", 10*time.Second)
				for _, k := range []struct{ keys, name, want string }{
					{`\f`, "lazykf", "keys: ['f']"},
					{`x\`, "lazykx", "keys: ['f', 'x']"},
					{`C-\`, "lazykc", "keys: ['f', 'x', 'c']"},
				} {
					tm.keys(":redraw!", "Enter")
					tm.keys(k.keys)
					tm.waitLoaded(k.name)
					tm.keys(":redraw!", "Enter", ":echo 'keys: ' . string(g:lazykeys)", "Enter")
					tm.waitScreen(k.want, 10*time.Second)
				}
			})
		}
	}
}

// A lazy declaration that the editor refuses (an autocommand for a buffer
// that does not exist) fails its plugin without being taken for a start:
// once its lazy.json is removed and the plugin loads as any other, the
// health report does not say that its setup lacks what the file declared.
func TestRefusedLazyNotStarted(t *testing.T) {
	repo := t.TempDir()
	src, err := os.ReadFile(filepath.Join(hello(), "vigor", "hello", "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	mod, err := os.ReadFile(filepath.Join(hello(), "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, "go.mod"), []byte(strings.Replace(string(mod), "example.com/hello", "example.com/lrej", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, k := range editortest.Kinds {
		dir := filepath.Join(repo, "vigor", "lrej"+k)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "main.go"), src, 0o644); err != nil {
			t.Fatal(err)
		}
		json := `{"commands": [{"name": "Lrej` + k + `"}], "events": [{"event": "BufEnter", "pattern": "<buffer=99999>"}]}`
		if err := os.WriteFile(filepath.Join(dir, "lazy.json"), []byte(json), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	each(t, editortest.Options{RTP: []string{repo}}, func(t *testing.T, ed *editortest.Editor) {
		name := "lrej" + ed.Kind
		ed.WaitFor(t, "vigor#plugin#discovered()", 30*time.Second)
		mustEqual(t, ed, name+"'s state", ed.MustEval(t, "vigor#plugin#status('"+name+"')"), "failed")
		mustEqual(t, ed, "its stub command", ed.MustEval(t, "exists(':Lrej"+ed.Kind+"')"), int64(0))
		if err := os.Remove(filepath.Join(repo, "vigor", name, "lazy.json")); err != nil {
			t.Fatal(err)
		}
		ed.MustExec(t, "call vigor#plugin#reload('"+name+"')")
		waitLoaded(t, ed, name)
		if r := ed.MustEval(t, "string(vigor#health#report())").(string); strings.Contains(r, "lazy.json declares") {
			t.Fatalf("%s: the health report speaks of a lazy.json that is gone: %s", ed.Kind, r)
		}
	})
}
