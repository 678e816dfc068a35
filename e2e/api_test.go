package e2e

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/vigorvim/vigor/internal/editortest"
)

// The SDK's editor API: Call, CallAs, Cmd, Eval, Batch, Redraw, Notify,
// Meta and the message helpers.
func TestEditorAPI(t *testing.T) {
	each(t, main1(), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "vtest")
		mustEqual(t, ed, "Call", ed.MustEval(t, `vigor#request('vtest', 'call', ['abs', [-3]])`), int64(3))
		mustEqual(t, ed, "Call, no args", ed.MustEval(t, `vigor#request('vtest', 'call', ['localtime', []]) > 0`), int64(1))
		mustEqual(t, ed, "CallAs", ed.MustEval(t, `vigor#request('vtest', 'call_int', ['strlen', ['abcd']])`), int64(4))
		mustThrow(t, ed, `vigor#request('vtest', 'call_int', ['toupper', ['x']])`, `vtest.call_int: toupper(): the result: expected a Number, got a String ("X")`)
		mustThrow(t, ed, `vigor#request('vtest', 'call', ['NoSuchFunction', []])`, "vtest.call: NoSuchFunction(): ", "E117: Unknown function: NoSuchFunction")
		ed.MustExec(t, `function! Thrower() abort
throw 'my own error'
endfunction`)
		msg := mustThrow(t, ed, `vigor#request('vtest', 'call', ['Thrower', []])`, "vtest.call: Thrower(): my own error")
		if strings.Contains(msg, "line") {
			t.Fatalf("%s: the error carries a throwpoint: %q", ed.Kind, msg)
		}
		// Cmd and Eval see vars as l: variables.
		ed.MustEval(t, `vigor#request('vtest', 'cmd', ['let g:x = l:a + l:b', {'a': 1, 'b': 2}])`)
		mustEqual(t, ed, "Cmd", ed.MustEval(t, `g:x`), int64(3))
		ed.MustEval(t, `vigor#request('vtest', 'cmd', ['let g:y = 7', {}])`)
		mustEqual(t, ed, "Cmd without vars", ed.MustEval(t, `g:y`), int64(7))
		mustThrow(t, ed, `vigor#request('vtest', 'cmd', ['notacommand', {}])`, "vtest.cmd:", "E492")
		mustEqual(t, ed, "Eval", ed.MustEval(t, `vigor#request('vtest', 'eval', ['l:n * 2', {'n': 21}])`), int64(42))
		mustEqual(t, ed, "Eval list", ed.MustEval(t, `vigor#request('vtest', 'eval', ['[1, "a"]', {}])`), []any{int64(1), "a"})
		// Redraw works (and does nothing visible in a headless editor).
		mustEqual(t, ed, "Redraw", ed.MustEval(t, `vigor#request('vtest', 'redraw', [v:false])`), nil)
		mustEqual(t, ed, "Redraw!", ed.MustEval(t, `vigor#request('vtest', 'redraw', [v:true])`), nil)
		// Notify does not wait; its errors reach the user.
		ed.MustEval(t, `vigor#request('vtest', 'notify', ['setline', [1, 'notified']])`)
		ed.WaitFor(t, `getline(1) ==# 'notified'`, 10*time.Second)
		ed.MustEval(t, `vigor#request('vtest', 'notify', ['NoSuchFunction', [1]])`)
		ed.WaitFor(t, `execute('messages') =~# '\[vtest\] NoSuchFunction(): .*E117'`, 10*time.Second)
		// Meta.
		var meta map[string]any
		if err := ed.EvalInto(`vigor#request('vtest', 'meta', [])`, &meta); err != nil {
			t.Fatal(err)
		}
		mustEqual(t, ed, "Meta.Host", meta["Host"], ed.Kind)
		mustEqual(t, ed, "Meta.Platform", meta["Platform"], "linux")
		mustEqual(t, ed, "Meta.Mode", meta["Mode"], "test")
		wantVersion := ed.MustEval(t, map[string]string{
			"vim":  `printf('%d.%d.%d', v:version / 100, v:version % 100, v:versionlong % 10000)`,
			"nvim": `luaeval('vim.version().major .. "." .. vim.version().minor .. "." .. vim.version().patch')`}[ed.Kind])
		mustEqual(t, ed, "Meta.Version", meta["Version"], wantVersion)
		mustEqual(t, ed, "Name", ed.MustEval(t, `vigor#request('vtest', 'name', [])`), "vtest")
		// Infof and Warnf reach :messages.
		ed.MustEval(t, `vigor#request('vtest', 'info', ['hello there'])`)
		ed.MustEval(t, `vigor#request('vtest', 'warn', ['watch out'])`)
		ed.WaitFor(t, `execute('messages') =~# '\[vtest\] hello there' && execute('messages') =~# '\[vtest\] watch out'`, 10*time.Second)
	})
}

// Batch gives the same results, and the same partial results and failing
// index, on both editors.
func TestBatch(t *testing.T) {
	each(t, main1(), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "vtest")
		got := ed.MustEval(t, `vigor#request('vtest', 'batch', [[['abs', -1], ['toupper', 'a'], ['range', 3], ['localtime']]])`)
		m := got.(map[string]any)
		res := m["results"].([]any)
		mustEqual(t, ed, "results", res[:3], []any{int64(1), "A", []any{int64(0), int64(1), int64(2)}})
		mustEqual(t, ed, "index", m["index"], int64(-1))
		got = ed.MustEval(t, `vigor#request('vtest', 'batch', [[['abs', -1], ['NoSuchFunction', 1], ['abs', -2]]])`)
		m = got.(map[string]any)
		mustEqual(t, ed, "partial results", m["results"], []any{int64(1)})
		mustEqual(t, ed, "BatchError.Results", m["partial"], []any{int64(1)})
		mustEqual(t, ed, "failing index", m["index"], int64(1))
		if e := m["error"].(string); !strings.HasPrefix(e, "batch call 1: NoSuchFunction(): ") || !strings.Contains(e, "E117") {
			t.Fatalf("%s: batch error %q", ed.Kind, e)
		}
		// Global user functions, errors they raise, and errors they
		// silence themselves.
		ed.MustExec(t, `function! Twice(x) abort
return a:x * 2
endfunction`)
		ed.MustExec(t, `function! Quiet() abort
silent! notacommand
return 'quiet'
endfunction`)
		ed.MustExec(t, `function! Boom() abort
throw 'boom from Boom'
endfunction`)
		got = ed.MustEval(t, `vigor#request('vtest', 'batch', [[['Twice', 4], ['Quiet'], ['Boom'], ['Twice', 5]]])`)
		m = got.(map[string]any)
		mustEqual(t, ed, "user functions", m["results"], []any{int64(8), "quiet"})
		mustEqual(t, ed, "user error index", m["index"], int64(2))
		mustEqual(t, ed, "user error", m["error"], "batch call 2: Boom(): boom from Boom")
		mustEqual(t, ed, "Call of a user function", ed.MustEval(t, `vigor#request('vtest', 'call', ['Twice', [21]])`), int64(42))
		mustEqual(t, ed, "Call of a function that silences an error", ed.MustEval(t, `vigor#request('vtest', 'call', ['Quiet', []])`), "quiet")
		// Value types in batch results are those of Call (an integral Float
		// stays a Float).
		got = ed.MustEval(t, `vigor#request('vtest', 'batch', [[['str2float', '1.0'], ['str2nr', '7']]])`)
		mustEqual(t, ed, "types", got.(map[string]any)["results"], []any{1.0, int64(7)})
		// An empty batch.
		got = ed.MustEval(t, `vigor#request('vtest', 'batch', [[]])`)
		mustEqual(t, ed, "empty", got.(map[string]any)["results"], []any{})
		// 1000 calls in one batch.
		mustEqual(t, ed, "1000 calls", ed.MustEval(t, `len(vigor#request('vtest', 'batch', [map(range(1000), {i -> ['abs', -i]})]).results)`), int64(1000))
	})
}

func TestHealth(t *testing.T) {
	each(t, editortest.Options{RTP: append(rtp("badsetup"), hello())}, func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "hello")
		waitState(t, ed, "badsetup", "failed")
		var report [][]any
		if err := ed.EvalInto(`vigor#health#report()`, &report); err != nil {
			t.Fatal(err)
		}
		text := ""
		for _, r := range report {
			text += fmt.Sprintf("%v: %v\n", r[0], r[1])
			if len(r) > 2 {
				text += fmt.Sprintf("advice: %v\n", r[2])
			}
		}
		// A call, so that the round trips have something to show.
		mustEqual(t, ed, "greet", ed.MustEval(t, `vigor#request('hello', 'greet', ['health'])`), "Hello, health!")
		for _, want := range []string{"ok: Go toolchain: ", "ok: vigor command: ", "info: cache: ", " MB)", "ok: hello: loaded; ",
			"; 0 restarts; pid ", "; RSS ", "error: badsetup: failed; ", "cannot find the config file",
			"advice: [fix the cause (the log has the details), then :Vigor reload badsetup]"} {
			if !strings.Contains(text, want) {
				t.Errorf("%s: the health report lacks %q:\n%s", ed.Kind, want, text)
			}
		}
		ed.MustExec(t, `call vigor#health#show()`)
		if ed.Kind == "nvim" {
			ed.MustExec(t, `checkhealth vigor`)
			buf := ed.MustEval(t, `join(getline(1, '$'), "\n")`).(string)
			if !strings.Contains(buf, "hello: loaded") || !strings.Contains(buf, "cannot find the config file") ||
				!strings.Contains(buf, "ADVICE:") || !strings.Contains(buf, "then :Vigor reload badsetup") {
				t.Fatalf("checkhealth vigor shows:\n%s", buf)
			}
		}
	})
}

// How calls reach Vim: in Ex mode (these tests) the channel callback, and
// with g:vigor#vim_calls = 'command' Vim's "call" command through the
// legacy wrapper, which a Vim with a screen uses. Both give the same
// results and errors, for plain calls, batches and calls large enough to
// go in chunks. (Neovim ignores the option.)
func TestVimCallPaths(t *testing.T) {
	for _, calls := range []string{"auto", "callback", "command"} {
		t.Run(calls, func(t *testing.T) {
			opts := main1()
			opts.Cmds = append(opts.Cmds, "let g:vigor#vim_calls = '"+calls+"'")
			each(t, opts, func(t *testing.T, ed *editortest.Editor) {
				waitLoaded(t, ed, "vtest")
				if ed.Kind == "vim" {
					want := map[string]string{"auto": "callback", "callback": "callback", "command": "command"}[calls]
					mustEqual(t, ed, "the way calls reach Vim", ed.MustEval(t, `vigor#_internal#conf#vim_calls()`), want)
				}
				mustEqual(t, ed, "Call", ed.MustEval(t, `vigor#request('vtest', 'call', ['abs', [-3]])`), int64(3))
				mustThrow(t, ed, `vigor#request('vtest', 'call', ['NoSuchFunction', []])`, "vtest.call: NoSuchFunction(): ", "E117: Unknown function: NoSuchFunction")
				ed.MustExec(t, "function! Thrower() abort\nthrow 'my own error'\nendfunction")
				mustThrow(t, ed, `vigor#request('vtest', 'call', ['Thrower', []])`, "vtest.call: Thrower(): my own error")
				ed.MustExec(t, "function! Quiet() abort\nsilent! notacommand\nreturn 'quiet'\nendfunction")
				mustEqual(t, ed, "a function that silences an error", ed.MustEval(t, `vigor#request('vtest', 'call', ['Quiet', []])`), "quiet")
				got := ed.MustEval(t, `vigor#request('vtest', 'batch', [[['abs', -1], ['Quiet'], ['NoSuchFunction', 1], ['abs', -2]]])`).(map[string]any)
				mustEqual(t, ed, "partial results", got["results"], []any{int64(1), "quiet"})
				mustEqual(t, ed, "failing index", got["index"], int64(2))
				mustEqual(t, ed, "a chunked call", ed.MustEval(t, `vigor#request('vtest', 'call', ['strlen', [repeat('x', 1500000)]])`), int64(1500000))
				mustEqual(t, ed, "a call back into the plugin", ed.MustEval(t, `vigor#request('vtest', 'call', ['vigor#request', ['vtest', 'call', ['abs', [-5]]]])`), int64(5))
				// Builtins that read Vim script from a String read legacy
				// script, as they do in Neovim (the channel callback and the
				// batch helper are def functions, where they would read
				// Vim9 script).
				mustEqual(t, ed, "eval()", ed.MustEval(t, `vigor#request('vtest', 'call', ['eval', ['"a" . "b"']])`), "ab")
				ed.MustEval(t, `vigor#request('vtest', 'call', ['execute', ['let g:vtest_legacy = 7']])`)
				mustEqual(t, ed, "execute()", ed.MustEval(t, `g:vtest_legacy`), int64(7))
				got = ed.MustEval(t, `vigor#request('vtest', 'batch', [[['eval', '"c" . "d"'], ['execute', 'let g:vtest_legacy = 8'], ['map', [1, 2], 'v:val . "x"']]])`).(map[string]any)
				mustEqual(t, ed, "eval(), execute() and map() in a batch", got["results"], []any{"cd", "", []any{"1x", "2x"}})
				mustEqual(t, ed, "execute() in a batch", ed.MustEval(t, `g:vtest_legacy`), int64(8))
				// An error raised by a builtin reads as Neovim's does, not
				// with the Ex command of the runtime's wrapper ("Vim(return):").
				for expr, want := range map[string]string{
					`vigor#request('vtest', 'call', ['setqflist', [[], 'x']])`: "[vigor] vtest.call: setqflist(): Vim:E927: Invalid action: 'x'",
					`vigor#request('vtest', 'call', ['eval', ['nosuchvar']])`:  "[vigor] vtest.call: eval(): Vim:E121: Undefined variable: nosuchvar",
					`vigor#request('vtest', 'call', ['NoSuchFunction', []])`:   "[vigor] vtest.call: NoSuchFunction(): Vim:E117: Unknown function: NoSuchFunction",
				} {
					mustThrowExactly(t, ed, expr, want)
				}
				got = ed.MustEval(t, `vigor#request('vtest', 'batch', [[['abs', -1], ['setqflist', [], 'x']]])`).(map[string]any)
				mustEqual(t, ed, "a builtin's error in a batch", got["error"], "batch call 1: setqflist(): Vim:E927: Invalid action: 'x'")
				// One raised in a function's own :return keeps it, on both.
				ed.MustExec(t, "function! RetBad() abort\nreturn nosuchvar\nendfunction")
				mustThrowExactly(t, ed, `vigor#request('vtest', 'call', ['RetBad', []])`,
					"[vigor] vtest.call: RetBad(): Vim(return):E121: Undefined variable: nosuchvar")
			})
		})
	}
}

// :Vigor status, log, reload, rebuild and health, with completion of the
// subcommands and of plugin names.
func TestVigorCommand(t *testing.T) {
	each(t, editortest.Options{RTP: append(rtp("badsetup"), hello())}, func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "hello")
		waitState(t, ed, "badsetup", "failed")
		mustEqual(t, ed, "subcommands", ed.MustEval(t, `getcompletion('Vigor ', 'cmdline')`),
			[]any{"health", "log", "rebuild", "reload", "status"})
		mustEqual(t, ed, "names", ed.MustEval(t, `getcompletion('Vigor reload h', 'cmdline')`), []any{"hello"})
		status := ed.MustEval(t, `execute('Vigor status')`).(string)
		for _, want := range []string{"\nbadsetup: failed; ", "last error: failed to load: ", "\nhello: loaded; ", "loaded in ", " ms; 0 restarts"} {
			if !strings.Contains(status, want) {
				t.Fatalf("%s: :Vigor status lacks %q:\n%s", ed.Kind, want, status)
			}
		}
		if h := ed.MustEval(t, `execute('Vigor health')`).(string); !strings.Contains(h, "- OK: hello: loaded; ") || !strings.Contains(h, "; RSS ") ||
			!strings.Contains(h, "  - ADVICE: fix the cause (the log has the details), then :Vigor reload badsetup") {
			t.Fatalf("%s: :Vigor health shows:\n%s", ed.Kind, h)
		}
		ed.MustExec(t, "Vigor log hello")
		mustEqual(t, ed, "log buffer", ed.MustEval(t, "expand('%:p')"), ed.MustEval(t, "vigor#_internal#plugin#get('hello').log"))
		ed.MustExec(t, "close")
		pid := ed.MustEval(t, "vigor#_internal#plugin#get('hello').info.pid")
		ed.MustExec(t, "Vigor reload hello")
		ed.WaitFor(t, "vigor#plugin#status('hello') ==# 'loaded' && vigor#_internal#plugin#get('hello').info.pid != "+fmt.Sprint(pid), 60*time.Second)
		// (cached, unless the other editor's rebuild, which shares the cache,
		// came first)
		if b := ed.MustEval(t, "vigor#_internal#plugin#get('hello').build"); b != "cached" && b != "built" {
			t.Fatalf("%s: after :Vigor reload the build is %q", ed.Kind, b)
		}
		ed.MustExec(t, "Vigor rebuild hello")
		ed.WaitFor(t, "vigor#plugin#status('hello') ==# 'loaded' && vigor#_internal#plugin#get('hello').build ==# 'built'", 120*time.Second)
		mustEqual(t, ed, "greet after rebuild", ed.MustEval(t, `vigor#request('hello', 'greet', ['again'])`), "Hello, again!")
		ed.MustExec(t, "Vigor reload helo")
		ed.MustExec(t, "Vigor frobnicate")
		msgs := ed.Messages(t)
		for _, want := range []string{"[vigor] :Vigor reload: there is no plugin helo; did you mean hello?",
			"[vigor] :Vigor frobnicate: unknown; use :Vigor health, log, rebuild, reload, status"} {
			if !strings.Contains(msgs, want) {
				t.Fatalf("%s: messages lack %q:\n%s", ed.Kind, want, msgs)
			}
		}
	})
}

// g:vigor#trace writes every RPC message of the plugins it names to their
// logs, with the time; others log none.
func TestTrace(t *testing.T) {
	opts := editortest.Options{RTP: append([]string{hello()}, rtp("second")...), Cache: t.TempDir(),
		Cmds: []string{`let g:vigor#trace = ['hello']`}}
	each(t, opts, func(t *testing.T, ed *editortest.Editor) {
		ed.WaitFor(t, "vigor#plugin#status('hello') ==# 'loaded' && vigor#plugin#status('vtest2') ==# 'loaded'", 120*time.Second)
		mustEqual(t, ed, "greet", ed.MustEval(t, `vigor#request('hello', 'greet', ['traced'])`), "Hello, traced!")
		mustEqual(t, ed, "upper", ed.MustEval(t, `vigor#request('vtest2', 'upper', ['quiet'])`), "QUIET")
		logOf := func(name string) string {
			b, err := os.ReadFile(ed.MustEval(t, "g:vigor#cache_dir . '/log/"+name+".log'").(string))
			if err != nil {
				t.Fatal(err)
			}
			return string(b)
		}
		ed.WaitFor(t, `match(join(readfile(g:vigor#cache_dir . '/log/hello.log'), "\n"), 'Hello, traced!') >= 0`, 10*time.Second)
		log := logOf("hello")
		for _, want := range []string{`(?m)^time=\S+ level=DEBUG msg=rpc .*dir=recv kind=request .*method=greet value=\[traced\]$`,
			`(?m)^time=\S+ level=DEBUG msg=rpc .*dir=send kind=response .*value="\[Hello, traced! <nil>\]"$`} {
			if !regexp.MustCompile(want).MatchString(log) {
				t.Fatalf("%s: hello's log has no line like %s:\n%s", ed.Kind, want, log)
			}
		}
		if strings.Contains(logOf("vtest2"), "msg=rpc") {
			t.Fatalf("%s: vtest2 is not traced, but its log has RPC messages", ed.Kind)
		}
	})
}
