package e2e

import (
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
