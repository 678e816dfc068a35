package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vigorvim/vigor/internal/editortest"
)

// The plugin of these tests, vvals, has a method per case: what its
// parameters take, what its results and its calls into the editor may
// carry, and how their errors read.
func valuesOpts() editortest.Options { return editortest.Options{RTP: rtp("values", "second")} }

// mustThrowExactly evaluates expr and checks that it throws exactly want.
func mustThrowExactly(t *testing.T, ed *editortest.Editor, expr, want string) {
	t.Helper()
	v, err := ed.Eval(expr)
	if err == nil {
		t.Fatalf("%s: %s returned %#v, want the error %q", ed.Kind, expr, v, want)
	}
	if err.Error() != want {
		t.Fatalf("%s: %s threw\n\t%q\nwant\n\t%q", ed.Kind, expr, err.Error(), want)
	}
}

// A List is not a struct: on Neovim the decoder filled the struct's fields
// by position and the handler ran. A struct parameter takes a Dict, on
// both editors.
func TestStructParamTakesDict(t *testing.T) {
	each(t, valuesOpts(), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "vvals")
		mustThrowExactly(t, ed, `vigor#request('vvals', 'point', [[1, 2]])`,
			"[vigor] vvals.point: argument 1: expected a Dict, got a List of 2 items")
		mustThrowExactly(t, ed, `vigor#request('vvals', 'shape', [{'name': 'a', 'points': [[1, 2]]}])`,
			`[vigor] vvals.shape: argument 1: field "points": index 0: expected a Dict, got a List of 2 items`)
		mustEqual(t, ed, "a Dict", ed.MustEval(t, `vigor#request('vvals', 'point', [{'x': 1, 'y': 2}])`),
			map[string]any{"x": int64(1), "y": int64(2)})
	})
}

// v:null for a parameter that cannot be nil was a silent zero; it is an
// error. A pointer, a slice, a map and any take it, as nil.
func TestNullForScalarParams(t *testing.T) {
	each(t, valuesOpts(), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "vvals")
		for method, want := range map[string]string{
			"int": "a Number", "str": "a String", "float": "a Float", "bool": "a Boolean", "point": "a Dict",
		} {
			mustThrowExactly(t, ed, `vigor#request('vvals', '`+method+`', [v:null])`,
				"[vigor] vvals."+method+": argument 1: expected "+want+", got v:null")
		}
		for _, method := range []string{"ptr", "slice", "map", "anynil"} {
			mustEqual(t, ed, method, ed.MustEval(t, `vigor#request('vvals', '`+method+`', [v:null])`), true)
		}
		// Inside a Dict, v:null leaves the field at its zero value, as a
		// missing key does.
		mustEqual(t, ed, "a v:null field", ed.MustEval(t, `vigor#request('vvals', 'point', [{'x': v:null, 'y': 2}])`),
			map[string]any{"x": int64(0), "y": int64(2)})
	})
}

// The errors of values that do not fit, and of the editor, read the same
// on both editors: the method, the argument and the place in it, in Vim's
// words, with the value; never a decoder's text or the runtime's private
// functions.
func TestValueErrorTexts(t *testing.T) {
	each(t, valuesOpts(), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "vvals")
		for expr, want := range map[string]string{
			`vigor#request('vvals', 'point', [{'x': 1.5, 'y': 2}])`:                              `[vigor] vvals.point: argument 1: field "x": expected a Number, got a Float (1.5)`,
			`vigor#request('vvals', 'point', [{'x': 'a'}])`:                                      `[vigor] vvals.point: argument 1: field "x": expected a Number, got a String ("a")`,
			`vigor#request('vvals', 'shape', [{'name': 'a', 'points': [{'x': 1}, {'x': 'b'}]}])`: `[vigor] vvals.shape: argument 1: field "points": index 1: field "x": expected a Number, got a String ("b")`,
			`vigor#request('vvals', 'int', [1.5])`:                                               "[vigor] vvals.int: argument 1: expected a Number, got a Float (1.5)",
			`vigor#request('vvals', 'int2', ['a', 2.0])`:                                         "[vigor] vvals.int2: argument 2: expected a Number, got a Float (2.0)",
			`vigor#request('vvals', 'u8', [300])`:                                                "[vigor] vvals.u8: argument 1: expected a Number from 0 to 255, got a Number (300)",
			`vigor#request('vvals', 'u8', [-1])`:                                                 "[vigor] vvals.u8: argument 1: expected a Number from 0 to 255, got a Number (-1)",
			`vigor#request('vvals', 'ints', [[1, 'a']])`:                                         `[vigor] vvals.ints: argument 1: index 1: expected a Number, got a String ("a")`,
			`vigor#request('vvals', 'ints', [{'a': 1}])`:                                         "[vigor] vvals.ints: argument 1: expected a List, got a Dict",
			`vigor#request('vvals', 'none', [1])`:                                                "[vigor] vvals.none: takes no arguments, got 1",
			`vigor#request('vvals', 'int2', [])`:                                                 "[vigor] vvals.int2: takes 2 arguments (a String, a Number), got 0",
			`vigor#request('vvals', 'call_int', ['toupper', ['x']])`:                             `[vigor] vvals.call_int: toupper(): the result: expected a Number, got a String ("X")`,
			`vigor#request('vvals', 'call_int', ['eval', ['1.5']])`:                              "[vigor] vvals.call_int: eval(): the result: expected a Number, got a Float (1.5)",
			`vigor#request('vvals', 'call_point', ['toupper', ['x']])`:                           `[vigor] vvals.call_point: toupper(): the result: expected a Dict, got a String ("X")`,
			`vigor#request('vvals', 'cmd', ['notacommand'])`:                                     "[vigor] vvals.cmd: Vim:E492: Not an editor command: notacommand",
			`vigor#request('vvals', 'eval', ['nosuchvar'])`:                                      "[vigor] vvals.eval: Vim(return):E121: Undefined variable: nosuchvar",
			`vigor#request('vvals', 'call', ['NoSuchFunction', []])`:                             "[vigor] vvals.call: NoSuchFunction(): Vim:E117: Unknown function: NoSuchFunction",
		} {
			mustThrowExactly(t, ed, expr, want)
		}
		// EditorError.Msg is the editor's message alone.
		mustEqual(t, ed, "Cmd's EditorError", ed.MustEval(t, `vigor#request('vvals', 'editor_error', ['cmd', 'notacommand'])`),
			"Vim:E492: Not an editor command: notacommand")
	})
}

// Neovim puts the call stack in front of an error's message. When the
// chain started in a sourced script it has spaces in it ("script
// /path/x.vim[3]..function Do[2]"), and the message kept it, with the
// runtime's private functions. It is stripped in every case.
func TestEditorErrorsFromScripts(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "my script.vim")
	err := os.WriteFile(script, []byte(`
function! Inner() abort
  throw 'my own error'
endfunction
function! Do() abort
  call Inner()
endfunction
function! Bad() abort
  call nosuchfunction()
endfunction
let g:results = []
for s:what in [['call', 'Do'], ['call', 'Bad'], ['cmd', 'call Do()'], ['cmd', 'throw "x, line 3: y"'], ['eval', 'Do()'], ['batch', 'Do']]
  call add(g:results, vigor#request('vvals', 'editor_error', s:what))
endfor
function! Check(call) abort
  try
    call vigor#request('vvals', a:call[0], a:call[1])
    call add(g:results, 'no error')
  catch
    call add(g:results, v:exception)
  endtry
endfunction
for s:call in [['call', ['Do', []]], ['cmd', ['call Do()']], ['eval', ['Do()']], ['batch', ['Do', []]], ['dispatch', ['vvals', 'call', ['Do', []]]]]
  call Check(s:call)
endfor
call Check(['dispatch', ['vvals', 'dispatch', ['vvals', 'cmd', ['call Do()']]]])
call Check(['dispatch', ['vvals', 'int', ['x']]])
`), 0o644)
	if err != nil {
		t.Fatal(err)
	}
	want := []any{
		"my own error",
		"Vim(call):E117: Unknown function: nosuchfunction",
		"my own error",
		"x, line 3: y",
		"my own error",
		"my own error",
		"[vigor] vvals.call: Do(): my own error",
		"[vigor] vvals.cmd: my own error",
		"[vigor] vvals.eval: my own error",
		"[vigor] vvals.batch: batch call 1: Do(): my own error",
		"[vigor] vvals.dispatch: vvals.call: Do(): my own error",
		"[vigor] vvals.dispatch: vvals.dispatch: vvals.cmd: my own error",
		"[vigor] vvals.dispatch: vvals.int: argument 1: expected a Number, got a String (\"x\")",
	}
	source := "source " + strings.ReplaceAll(script, " ", `\ `)
	each(t, valuesOpts(), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "vvals")
		// From a function (the harness's): "function VigorTestExec[2]..script
		// /path[3]..function Check[2]..".
		ed.MustExec(t, source)
		mustEqual(t, ed, "messages from a function", ed.MustEval(t, "g:results"), want)
		// From the top: ":source" typed or -S, "/path[3]..function
		// Check[2]..". Vim has no stack in its messages; Neovim's
		// nvim_command runs the script at the top.
		if ed.Kind == "nvim" {
			sess, _ := ed.Session()
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			if _, err := sess.Call(ctx, "nvim_command", []any{source}); err != nil {
				t.Fatalf("%s: %s: %v", ed.Kind, source, err)
			}
		} else {
			ed.MustExec(t, source)
		}
		mustEqual(t, ed, "messages from the top", ed.MustEval(t, "g:results"), want)
	})
}

// A Funcref has no form on either channel: Neovim's API sent it as v:null
// without a word. Eval's result is checked in the editor, so that it is an
// error on both; Call's is on Vim only (Neovim's API turns it into v:null
// before anything sees it).
func TestFuncrefResult(t *testing.T) {
	each(t, valuesOpts(), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "vvals")
		mustThrowExactly(t, ed, `vigor#request('vvals', 'eval', ["function('tr')"])`,
			"[vigor] vvals.eval: the result is a Funcref, which cannot be sent to a plugin")
		mustThrowExactly(t, ed, `vigor#request('vvals', 'eval', ["{-> 1}"])`,
			"[vigor] vvals.eval: the result is a Funcref, which cannot be sent to a plugin")
		if ed.Kind == "vim" {
			mustThrowExactly(t, ed, `vigor#request('vvals', 'call', ['function', ['tr']])`,
				"[vigor] vvals.call: function(): the result is a Funcref, which cannot be sent to a plugin")
			mustThrowExactly(t, ed, `vigor#request('vvals', 'eval', ["[function('tr')]"])`,
				"[vigor] vvals.eval: the result holds a Funcref, a Job or a Channel, which cannot be sent to a plugin")
		} else {
			mustEqual(t, ed, "Call on Neovim", ed.MustEval(t, `vigor#request('vvals', 'call', ['function', ['tr']])`), nil)
		}
	})
}

// Vim's JSON reader takes a message with invalid UTF-8 for an incomplete
// one and drops it: a reply with "caf\xe9" froze Vim for a week. Each
// invalid byte reaches Vim as U+FFFD, in replies, calls, notifications
// and chunked messages; Neovim keeps the bytes. Each check waits for a
// callback, so that it fails, rather than hangs, if the message is lost.
func TestInvalidUTF8(t *testing.T) {
	each(t, valuesOpts(), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "vvals")
		ed.MustExec(t, `function! Got(key, v) abort
  let g:got[a:key] = a:v
endfunction
let g:got = {}`)
		const n = 700000 // chunked: over 512 KiB
		for key, call := range map[string]string{
			"reply":    `'latin1', []`,
			"list":     `'latin1_list', []`,
			"call":     `'call_latin1', []`,
			"chunked":  `'latin1_big', [` + strconv.Itoa(n) + `]`,
			"notified": `'notify_latin1', []`,
		} {
			ed.MustExec(t, `call vigor#request_async('vvals', `+call+`, function('Got', ['`+key+`']), function('Got', ['`+key+`-failed']))`)
		}
		ed.WaitFor(t, `len(g:got) == 5`, 20*time.Second)
		want := map[string]map[string]string{
			"vim": {"reply": `"caf\uFFFD"`, "list": `['ok', "caf\uFFFD \uFFFD"]`, "call": `6`, "chunked": strconv.Itoa(n + 2), "notified": `"caf\uFFFD"`},
			// Neovim takes the bytes as they are.
			"nvim": {"reply": `"caf\xe9"`, "list": `['ok', "caf\xe9 \xff"]`, "call": `4`, "chunked": strconv.Itoa(n), "notified": `"caf\xe9"`},
		}[ed.Kind]
		mustEqual(t, ed, "reply", ed.MustEval(t, `g:got.reply ==# `+want["reply"]), int64(1))
		mustEqual(t, ed, "list", ed.MustEval(t, `g:got.list ==# `+want["list"]), int64(1))
		mustEqual(t, ed, "call", ed.MustEval(t, `g:got.call`), mustInt(t, want["call"]))
		mustEqual(t, ed, "chunked", ed.MustEval(t, `strlen(g:got.chunked)`), mustInt(t, want["chunked"]))
		mustEqual(t, ed, "notified", ed.MustEval(t, `getline(1) ==# `+want["notified"]), int64(1))
		// And vigor#request, which waits.
		mustEqual(t, ed, "request", ed.MustEval(t, `vigor#request('vvals', 'latin1', []) ==# `+want["reply"]), int64(1))
		// From the editor: Vim sends invalid bytes as U+FFFD, Neovim as they are.
		mustEqual(t, ed, "to Go", ed.MustEval(t, `vigor#request('vvals', 'str', ["caf\xe9"]) ==# `+want["reply"]), int64(1))
	})
}

func mustInt(t *testing.T, s string) int64 {
	t.Helper()
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// Values nested deeper than the editor reads. Neovim reads a message with
// values at most 32 levels deep (its msgpack parser's limit): given a
// deeper result it closed the channel, and the plugin restarted. Vim
// reads far deeper, but crashes past about 58000 levels; Vigor sends it
// 50000, and reads 10000 levels on both editors, as encoding/json does. A value beyond
// the limit fails the call with an error that names it, and the plugin
// goes on.
func TestValuesTooDeep(t *testing.T) {
	each(t, valuesOpts(), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "vvals")
		pid := ed.MustEval(t, `vigor#request('vvals', 'pid', [])`)
		ed.MustExec(t, "function! Deep(n) abort\n let l = 'leaf'\n for i in range(a:n)\n let l = [l]\n endfor\n return l\nendfunction")
		ed.MustExec(t, "function! Depth(v) abort\n let d = 0\n let v = a:v\n while type(v) == v:t_list && len(v) > 0\n let d += 1\n let v = v[0]\n endwhile\n return d\nendfunction")
		// Results: on Neovim 28 levels around a String (32 less the
		// answer's notification, its arguments and their list, and the
		// String's bytes), 29 around a Number.
		mustEqual(t, ed, "result 28 deep", ed.MustEval(t, `Depth(vigor#request('vvals', 'nested', [28, 'leaf']))`), int64(28))
		mustEqual(t, ed, "result 29 deep around a Number", ed.MustEval(t, `Depth(vigor#request('vvals', 'nested', [29, 1]))`), int64(29))
		mustEqual(t, ed, "result 29 deep around an empty Dict", ed.MustEval(t, `Depth(vigor#request('vvals', 'nested', [29, {}]))`), int64(29))
		if ed.Kind == "nvim" {
			const tooDeep = "Lists and Dicts nested more than 28 deep, more than Neovim reads (one more if the innermost hold no Strings)"
			mustThrowExactly(t, ed, `vigor#request('vvals', 'nested', [29, 'leaf'])`,
				"[vigor] vvals.nested: the result cannot be sent to the editor: "+tooDeep)
			mustThrowExactly(t, ed, `vigor#request('vvals', 'nested', [30, 1])`,
				"[vigor] vvals.nested: the result cannot be sent to the editor: "+tooDeep)
			mustThrowExactly(t, ed, `vigor#request('vvals', 'nested', [28, {'a': 1}])`,
				"[vigor] vvals.nested: the result cannot be sent to the editor: "+tooDeep)
			// Through request_async the result lies as deep (in a
			// notification's arguments): the failure callback says so.
			ed.MustExec(t, `let g:done = '' | call vigor#request_async('vvals', 'nested', [29, 1], {v -> execute('let g:done = "ok"')}, {e -> execute('let g:done = e.message')})`)
			ed.WaitFor(t, `g:done !=# ''`, 10*time.Second)
			mustEqual(t, ed, "request_async 29 deep", ed.MustEval(t, `g:done`), "ok")
			ed.MustExec(t, `let g:failed = '' | call vigor#request_async('vvals', 'nested', [30, 1], {-> 0}, {e -> execute('let g:failed = e.message')})`)
			ed.WaitFor(t, `g:failed !=# ''`, 10*time.Second)
			mustEqual(t, ed, "request_async", ed.MustEval(t, `g:failed`),
				"the result cannot be sent to the editor: "+tooDeep)
		} else {
			// Vim: 50000 levels, with room below where Vim's own
			// recursion over a value it received overflows its stack.
			mustEqual(t, ed, "result 50000 deep", ed.MustEval(t, `Depth(vigor#request('vvals', 'nested', [50000, 'leaf']))`), int64(50000))
			mustThrowExactly(t, ed, `vigor#request('vvals', 'nested', [50001, 'leaf'])`,
				"[vigor] vvals.nested: the result cannot be sent to the editor: Lists and Dicts nested more than 50000 deep, more than Vim reads")
		}
		// Arguments of a call: 28 levels on Neovim.
		mustEqual(t, ed, "call 28 deep", ed.MustEval(t, `vigor#request('vvals', 'call_nested', ['Depth', 28])`), int64(28))
		if ed.Kind == "nvim" {
			mustThrowExactly(t, ed, `vigor#request('vvals', 'call_nested', ['Depth', 29])`,
				"[vigor] vvals.call_nested: Depth(): argument 1: Lists and Dicts nested more than 28 deep, more than Neovim reads (one more if the innermost hold no Strings)")
		} else {
			mustEqual(t, ed, "call 50000 deep", ed.MustEval(t, `vigor#request('vvals', 'call_nested', ['Depth', 50000])`), int64(50000))
			mustThrowExactly(t, ed, `vigor#request('vvals', 'call_nested', ['Depth', 50001])`,
				"[vigor] vvals.call_nested: Depth(): argument 1: Lists and Dicts nested more than 50000 deep, more than Vim reads")
		}
		// Values from the editor: 10000 levels on both.
		mustEqual(t, ed, "argument 10000 deep", ed.MustEval(t, `vigor#request('vvals', 'depth', [Deep(10000)])`), int64(10000))
		mustThrowExactly(t, ed, `vigor#request('vvals', 'depth', [Deep(10001)])`,
			"[vigor] vvals.depth: argument 1: Lists and Dicts nested more than 10000 deep, more than Vigor reads")
		mustThrowExactly(t, ed, `vigor#request('vvals', 'depth', [Deep(30000)])`,
			"[vigor] vvals.depth: argument 1: Lists and Dicts nested more than 10000 deep, more than Vigor reads")
		mustThrowExactly(t, ed, `vigor#request('vvals', 'eval', ['Deep(10001)'])`,
			"[vigor] vvals.eval: the result: Lists and Dicts nested more than 10000 deep, more than Vigor reads")
		// The plugin went on: no restart.
		mustEqual(t, ed, "the same process", ed.MustEval(t, `vigor#request('vvals', 'pid', [])`), pid)
		if strings.Contains(ed.Messages(t), "restarting") {
			t.Fatalf("%s: the plugin restarted: %s", ed.Kind, ed.Messages(t))
		}
	})
}

// A Number holds at most 9223372036854775807 on both editors: a larger
// uint64 arrived as v:numbermax on Vim and as a negative Number on
// Neovim. In a result and in an argument of a call it is an error that
// names it. So is a Dict whose keys are not Strings, for which Neovim
// closed the channel.
func TestNumbersOutOfRange(t *testing.T) {
	each(t, valuesOpts(), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "vvals")
		mustThrowExactly(t, ed, `vigor#request('vvals', 'uint', [])`,
			"[vigor] vvals.uint: the result cannot be sent to the editor: 18446744073709551615 does not fit in a Number (at most 9223372036854775807)")
		mustEqual(t, ed, "MaxInt64", ed.MustEval(t, `vigor#request('vvals', 'uint_ok', [])`), int64(9223372036854775807))
		mustThrowExactly(t, ed, `vigor#request('vvals', 'call_uint', ['string'])`,
			"[vigor] vvals.call_uint: string(): argument 1: 18446744073709551615 does not fit in a Number (at most 9223372036854775807)")
		const big = "18446744073709551615 does not fit in a Number (at most 9223372036854775807)"
		for how, want := range map[string]string{
			"call":     "abs(): argument 1: " + big,
			"notify":   "setline(): argument 2: " + big,
			"dispatch": "vvals.int: argument 1: " + big,
			"eval":     "vars: " + big,
			"cmd":      "vars: " + big,
			"batch":    "batch call 1, abs(): argument 1: " + big,
		} {
			mustThrowExactly(t, ed, `vigor#request('vvals', 'send_uint', ['`+how+`'])`, "[vigor] vvals.send_uint: "+want)
		}
		mustThrowExactly(t, ed, `vigor#request('vvals', 'intkeys', [])`,
			"[vigor] vvals.intkeys: the result cannot be sent to the editor: Dict keys must be Strings")
		mustEqual(t, ed, "still serving", ed.MustEval(t, `vigor#request('vvals', 'int', [7])`), int64(7))
		if strings.Contains(ed.Messages(t), "restarting") {
			t.Fatalf("%s: the plugin restarted: %s", ed.Kind, ed.Messages(t))
		}
	})
}

// A Blob reaches a parameter of type any as the editor sends it, which is
// not a Blob on either: Neovim's API sends it as a String (a Go string),
// Vim's JSON as a List of Numbers ([]any of int64). A []byte parameter
// takes the same bytes on both.
func TestBlobValues(t *testing.T) {
	each(t, valuesOpts(), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "vvals")
		want := map[string]string{"vim": "[]interface {}", "nvim": "string"}[ed.Kind]
		mustEqual(t, ed, "into any", ed.MustEval(t, `vigor#request('vvals', 'typeof', [0z00FF10])`), want)
		mustEqual(t, ed, "inside a List", ed.MustEval(t, `vigor#request('vvals', 'typeof_in', [[0z00FF10]])`), want)
		mustEqual(t, ed, "into []byte", ed.MustEval(t, `vigor#request('vvals', 'bytes_of', [0z00FF10])`), []any{int64(0), int64(255), int64(16)})
		mustEqual(t, ed, "a String into []byte", ed.MustEval(t, `vigor#request('vvals', 'bytes_of', ['ab'])`), []any{int64(97), int64(98)})
	})
}

// NaN and the infinities, which Vim writes as bare words that JSON lacks,
// fill typed values too (a []float64, a struct's float64 field), as they
// do on Neovim; they failed to decode on Vim.
func TestNonFiniteInTypedValues(t *testing.T) {
	each(t, valuesOpts(), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "vvals")
		mustEqual(t, ed, "nonfinite", ed.MustEval(t, `vigor#request('vvals', 'nonfinite', [[1.0/0, 0.0/0], {'F': -1.0/0}])`),
			[]any{true, true, true})
	})
}

// Vim's json_encode() recurses once per level and overflowed its stack
// (a segfault) on arguments of vigor#request(), vigor#notify() and
// vigor#request_async() nested some 52,000 deep, and on the result of a
// plugin's call nested as deep; calling a def function with such a value
// crashed it too. On Vim the runtime now refuses a value nested deeper
// than a plugin reads (10000 levels) before it encodes one: the request
// and notify throw, request_async throws too, and the plugin's call
// fails, in both ways that Vim runs the plugin's calls. On Neovim the
// plugin refuses the arguments and the result.
func TestValuesFarTooDeep(t *testing.T) {
	for _, calls := range []string{"callback", "command"} {
		t.Run(calls, func(t *testing.T) { testValuesFarTooDeep(t, calls) })
	}
}

func testValuesFarTooDeep(t *testing.T, calls string) {
	opts := valuesOpts()
	opts.Cmds = append(opts.Cmds, "let g:vigor#vim_calls = '"+calls+"'")
	each(t, opts, func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "vvals")
		pid := ed.MustEval(t, `vigor#request('vvals', 'pid', [])`)
		ed.MustExec(t, "function! Deep(n, leaf) abort\n let l = a:leaf\n for i in range(a:n)\n let l = [l]\n endfor\n return l\nendfunction")
		const tooDeep = "Lists and Dicts nested more than 10000 deep, more than Vigor reads"
		// The deepest that works, works.
		mustEqual(t, ed, "argument 10000 deep", ed.MustEval(t, `vigor#request('vvals', 'depth', [Deep(10000, 'leaf')])`), int64(10000))
		mustEqual(t, ed, "Dict at 10000", ed.MustEval(t, `vigor#request('vvals', 'depth', [Deep(9999, {'a': 1})])`), int64(9999))
		mustThrowExactly(t, ed, `vigor#request('vvals', 'depth', [Deep(100000, 'leaf')])`,
			"[vigor] vvals.depth: argument 1: "+tooDeep)
		mustThrowExactly(t, ed, `vigor#request('vvals', 'call', ['len', [{'a': Deep(100000, 'leaf')}]])`,
			"[vigor] vvals.call: argument 2: "+tooDeep)
		mustThrowExactly(t, ed, `vigor#request('vvals', 'depth', [Deep(9999, {'a': [1]})])`,
			"[vigor] vvals.depth: argument 1: "+tooDeep)
		mustEqual(t, ed, "the same process", ed.MustEval(t, `vigor#request('vvals', 'pid', [])`), pid)
		if ed.Kind == "vim" {
			// A List that holds itself is written as [] where it repeats.
			ed.MustExec(t, `let g:cycle = [] | call add(g:cycle, g:cycle) | call add(g:cycle, g:cycle)`)
			mustEqual(t, ed, "a cycle", ed.MustEval(t, `vigor#request('vvals', 'depth', [g:cycle])`), int64(1))
		}
		// vigor#notify() and vigor#request_async() throw, as for other
		// arguments that cannot be sent, on Vim; on Neovim the plugin
		// reports the notification's and calls the failure callback.
		ed.MustExec(t, `let g:failed = ''`)
		notify := `vigor#notify('vvals', 'depth', [Deep(100000, 'leaf')])`
		async := `vigor#request_async('vvals', 'depth', [Deep(100000, 'leaf')], {-> 0}, {e -> execute('let g:failed = e.message')})`
		if ed.Kind == "vim" {
			mustThrowExactly(t, ed, notify, "[vigor] vvals.depth: argument 1: "+tooDeep)
			mustThrowExactly(t, ed, async, "[vigor] vvals.depth: argument 1: "+tooDeep)
		} else {
			ed.MustEval(t, notify)
			ed.WaitFor(t, `execute('messages') =~# '\[vvals\] depth: argument 1: Lists and Dicts nested more than 10000 deep'`, 10*time.Second)
			ed.MustEval(t, async)
			ed.WaitFor(t, `g:failed !=# ''`, 10*time.Second)
			mustEqual(t, ed, "request_async", ed.MustEval(t, `g:failed`), "argument 1: "+tooDeep)
		}
		// Results of the plugin's calls.
		mustThrowExactly(t, ed, `vigor#request('vvals', 'eval', ['Deep(100000, "leaf")'])`,
			"[vigor] vvals.eval: the result: "+tooDeep)
		mustThrowExactly(t, ed, `vigor#request('vvals', 'eval', ['{"a": Deep(100000, "leaf")}'])`,
			"[vigor] vvals.eval: the result: "+tooDeep)
		mustThrowExactly(t, ed, `vigor#request('vvals', 'call', ['Deep', [100000, 'leaf']])`,
			"[vigor] vvals.call: Deep(): the result: "+tooDeep)
		if ed.Kind == "vim" {
			// (Neovim 0.11 closes its channel on a batch result this deep.)
			mustThrowExactly(t, ed, `vigor#request('vvals', 'batch', ['Deep', [100000, 'leaf']])`,
				"[vigor] vvals.batch: batch call 1: Deep(): the result: "+tooDeep)
		}
		mustEqual(t, ed, "result 10000 deep", ed.MustEval(t, `vigor#request('vvals', 'call_depth', ['Deep', [10000, 'leaf']])`), int64(10000))
		mustEqual(t, ed, "the same process after", ed.MustEval(t, `vigor#request('vvals', 'pid', [])`), pid)
		if strings.Contains(ed.Messages(t), "restarting") {
			t.Fatalf("%s: the plugin restarted: %s", ed.Kind, ed.Messages(t))
		}
	})
}
