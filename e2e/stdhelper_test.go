package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/vigorvim/vigor/internal/editortest"
)

func helpertestRepo() editortest.Options { return editortest.Options{RTP: rtp("helpertest")} }

// hreq is the expression that calls the helpertest plugin's method with
// args (Vim script).
func hreq(method, args string) string {
	return "vigor#request('helpertest', '" + method + "', [" + args + "])"
}

// std/helper's Echo and EchoErr show their text after the call (EchoErr
// in :messages, a line each of a text of several lines), Load sources a file of the plugin once and refuses a
// missing one, and all of them work in a batch, where Input is an error;
// on both editors. What the screen shows is TestStdHelperScreen's.
func TestStdHelper(t *testing.T) {
	each(t, helpertestRepo(), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "helpertest")
		ed.MustEval(t, hreq("echoerr", "'helper err one'"))
		ed.WaitFor(t, "execute('messages') =~# 'helper err one'", 5*time.Second)
		ed.MustEval(t, hreq("echo", "'helper echo one'"))
		// Several lines: EchoErr's are in :messages a line each.
		ed.MustEval(t, hreq("echoerr", `"ml err one\nml err two"`))
		ed.WaitFor(t, `execute('messages') =~# "\nml err one\nml err two"`, 5*time.Second)
		ed.MustEval(t, hreq("echo", `"ml echo one\nml echo two"`))

		ed.MustEval(t, hreq("load", "'load.vim'"))
		ed.MustEval(t, hreq("load", "'load.vim'"))
		ed.MustEval(t, hreq("load", "'../helpertest/load.vim'")) // the same file
		mustEqual(t, ed, "g:helpertest_loads after three Loads", ed.MustEval(t, "g:helpertest_loads"), int64(1))
		mustThrow(t, ed, hreq("load", "'nosuch.vim'"), "helpertest.load", "helper.Load: ", "nosuch.vim: no such file")
		mustThrow(t, ed, hreq("load", "'.'"), "helpertest.load", "helper.Load: ", "is a directory")
		mustThrow(t, ed, hreq("load", "'bad.vim'"), "helpertest.load", "helper.Load: ", "E117", "NoSuchFunction")
		// A Load that failed is not done: it runs again.
		mustThrow(t, ed, hreq("load", "'bad.vim'"), "helpertest.load", "E117")

		ed.MustExec(t, "unlet g:helpertest_loads")
		ed.MustEval(t, hreq("batch", "'in batch', 'load.vim', v:false, ''"))
		ed.WaitFor(t, "execute('messages') =~# 'err in batch'", 5*time.Second)
		// load.vim was sourced by this process already.
		mustEqual(t, ed, "exists('g:helpertest_loads') after a batch", ed.MustEval(t, "exists('g:helpertest_loads')"), int64(0))
		mustThrow(t, ed, hreq("batch", "'x', 'nosuch.vim', v:false, ''"), "helpertest.batch", "helper.Load: ", "no such file")
		mustThrow(t, ed, hreq("batch", "'x', 'load.vim', v:true, ''"), "helpertest.batch", "helper.Input: it waits for the user, so it cannot be in a batch")
		// A restarted plugin is a new process: it loads the file again.
		ed.MustExec(t, "call vigor#plugin#reload('helpertest')")
		waitLoaded(t, ed, "helpertest")
		ed.MustEval(t, hreq("load", "'load.vim'"))
		mustEqual(t, ed, "g:helpertest_loads after a reload", ed.MustEval(t, "g:helpertest_loads"), int64(1))
		if m := ed.Messages(t); strings.Contains(m, "helper echo one") || strings.Contains(m, "ml echo") {
			t.Errorf("%s: Echo's text is in :messages:\n%s", ed.Kind, m)
		}
	})
}
