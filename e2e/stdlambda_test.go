package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/vigorvim/vigor/internal/editortest"
)

// std/lambda: a Go closure called from a <Cmd> mapping, an autocmd and a
// timer, by its notify and request forms, on both editors; a call after
// Unregister fails with one line naming the plugin and the lambda.
func TestStdLambda(t *testing.T) {
	each(t, editortest.Options{RTP: rtp("stdlambda")}, func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "stdlambda")
		var ls map[string]string
		if err := ed.EvalInto("vigor#request('stdlambda', 'setup', [])", &ls); err != nil {
			t.Fatalf("%s: setup: %v", ed.Kind, err)
		}
		for _, k := range []string{"map", "au", "double"} {
			if !strings.HasPrefix(ls[k], "$lambda:") {
				t.Fatalf("%s: the %s lambda's method is %q", ed.Kind, k, ls[k])
			}
		}

		// The timer's funcref calls the request form.
		ed.WaitFor(t, "exists('g:stdlambda_timer')", 20*time.Second)
		mustEqual(t, ed, "g:stdlambda_timer", ed.MustEval(t, "g:stdlambda_timer"), int64(42))

		// The mapping: its right-hand side is <Cmd> and the notify form.
		// Vim's test editor runs in Ex mode, where keys do not reach
		// mappings, so the test runs the mapping's command.
		rhs := ed.MustEval(t, "maparg('<F2>', 'n')").(string)
		if !strings.HasPrefix(rhs, "<Cmd>call vigor#notify('stdlambda', '"+ls["map"]+"', [])") {
			t.Fatalf("%s: the mapping is %q", ed.Kind, rhs)
		}
		ed.MustExec(t, "execute matchstr(maparg('<F2>', 'n'), '^<Cmd>\\zs.*\\ze<CR>$')")
		ed.WaitFor(t, "get(g:, 'stdlambda_map', 0) == 1", 20*time.Second)

		// The autocmd passes <amatch>.
		ed.MustExec(t, "doautocmd User StdLambda")
		ed.WaitFor(t, "get(g:, 'stdlambda_au', '') ==# 'StdLambda'", 20*time.Second)
		ed.MustEval(t, ls["notify"])
		ed.WaitFor(t, "get(g:, 'stdlambda_au', '') ==# 'direct'", 20*time.Second)

		// The request form returns the closure's result.
		ed.MustExec(t, "function! StdLambdaDouble(...) abort\nreturn "+ls["request"]+"\nendfunction")
		mustEqual(t, ed, "the request form", ed.MustEval(t, "StdLambdaDouble(5)"), int64(10))

		// After Unregister, a call is one clear line.
		ed.MustEval(t, "vigor#request('stdlambda', 'unregister', ['"+ls["double"]+"'])")
		msg := mustThrow(t, ed, "StdLambdaDouble(5)", "[vigor] stdlambda."+ls["double"]+": ", "lambda "+ls["double"]+" is not registered")
		if strings.Contains(msg, "\n") {
			t.Errorf("%s: the error has more than one line: %q", ed.Kind, msg)
		}
		ed.MustEval(t, "vigor#request('stdlambda', 'unregister', ['"+ls["au"]+"'])")
		mustThrow(t, ed, "vigor#request('stdlambda', '"+ls["au"]+"', ['x'])", "stdlambda."+ls["au"], "is not registered")
	})
}
