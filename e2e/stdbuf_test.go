package e2e

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/vigorvim/vigor/internal/editortest"
)

// breq is the expression that calls the stdbuf plugin's method with args
// (Vim script).
func breq(method, args string) string {
	return "vigor#request('stdbuf', '" + method + "', [" + args + "])"
}

// std/buffer opens (with openers, modifiers, ++opt and bang), reloads,
// replaces and appends lines of shown, hidden and 'nomodifiable' buffers,
// decodes bytes, runs Go in a buffer's context (Ensure) and with
// 'modifiable' set, and decorates, lists and clears ranges, on both
// editors, directly and in a batch, and refuses bad input.
func TestStdBuffer(t *testing.T) {
	each(t, editortest.Options{RTP: rtp("stdbuf")}, func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "stdbuf")
		dir := t.TempDir()
		file := func(name string, data []byte) string {
			p := filepath.Join(dir, name)
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
			return editortest.VimString(p)
		}
		eval := func(expr string) any { return ed.MustEval(t, expr) }
		a := file("a.txt", []byte("one\ntwo\n"))
		lat := file("lat 1.txt", []byte("caf\xe9\n"))

		// Open: a vertical split at the far right, then a tab page.
		o := eval(breq("open", a+", {'opener': 'vsplit', 'mods': 'botright keepalt', 'cmdarg': '++ff=unix'}")).(map[string]any)
		mustEqual(t, ed, "Open in a vsplit", o, map[string]any{
			"bufnr": eval("bufnr(" + a + ")"), "winid": eval("win_getid()"), "tabnr": int64(1)})
		mustEqual(t, ed, "windows after a vsplit", eval("winnr('$')"), int64(2))
		mustEqual(t, ed, "the lines after Open", eval("getline(1, '$')"), []any{"one", "two"})
		mustEqual(t, ed, "Open in a tab page", eval(breq("open", lat+", {'opener': 'tabedit', 'cmdarg': '++enc=latin1'}")+".tabnr"), int64(2))
		mustEqual(t, ed, "a Latin-1 file by ++enc", eval("[getline(1), &fileencoding]"), []any{"café", "latin1"})
		ed.MustExec(t, "tabclose")
		ed.MustExec(t, "setlocal modified")
		mustThrow(t, ed, breq("open", a+", {}"), "stdbuf.open", "buffer.Open: ", "E37")
		mustEqual(t, ed, "Open with bang", eval(breq("open", a+", {'bang': v:true}")+".bufnr"), eval("bufnr("+a+")"))
		for _, bad := range []struct{ opts, want string }{
			{"{'opener': 'edit | echo 1'}", `buffer.Open: "edit | echo 1" is not an opener`},
			{"{'mods': 'botright |'}", `buffer.Open: "|" is not a command modifier`},
			{"{'cmdarg': '++enc=x|y'}", `buffer.Open: "++enc=x|y" is not a ++opt argument`},
			{"{'cmdarg': '+cmd'}", `buffer.Open: "+cmd" is not a ++opt argument`},
		} {
			mustThrow(t, ed, breq("open", a+", "+bad.opts), "stdbuf.open", bad.want)
		}

		// Replace and Append: the current buffer keeps its cursor; a hidden
		// buffer that is not loaded and a 'nomodifiable' one take them.
		cur := eval("bufnr('%')")
		ed.MustExec(t, "call cursor(2, 2)")
		ed.MustEval(t, breq("replace", "0, ['x', 'y', 'z']"))
		mustEqual(t, ed, "lines after Replace", eval("getline(1, '$')"), []any{"x", "y", "z"})
		mustEqual(t, ed, "the cursor after Replace", eval("line('.')"), int64(2))
		ed.MustEval(t, breq("replace", "0, ['only']"))
		mustEqual(t, ed, "lines after a shorter Replace", eval("getline(1, '$')"), []any{"only"})
		mustEqual(t, ed, "the cursor after a shorter Replace", eval("line('.')"), int64(1))
		ed.MustExec(t, "silent undo")
		mustEqual(t, ed, "lines after an undo of Replace", eval("getline(1, '$')"), []any{"x", "y", "z"})
		ed.MustExec(t, "silent redo")
		ed.MustEval(t, breq("replace", "0, []"))
		mustEqual(t, ed, "lines after Replace with none", eval("getline(1, '$')"), []any{""})
		ed.MustExec(t, "badd "+filepath.Join(dir, "hidden.txt"))
		hid := eval("bufnr('hidden.txt')")
		mustEqual(t, ed, "hidden.txt is not loaded", eval("bufloaded('hidden.txt')"), int64(0))
		h := "bufnr('hidden.txt')"
		ed.MustEval(t, breq("replace", h+", ['h1', 'h2']"))
		mustEqual(t, ed, "a hidden buffer after Replace", eval("getbufline('hidden.txt', 1, '$')"), []any{"h1", "h2"})
		mustEqual(t, ed, "the current buffer after a hidden Replace", eval("bufnr('%')"), cur)
		ed.MustExec(t, "call setbufvar('hidden.txt', '&modifiable', 0)")
		ed.MustEval(t, breq("append", h+", 0, ['h0']"))
		ed.MustEval(t, breq("append", h+", -1, ['h3', 'h4']"))
		ed.MustEval(t, breq("append", h+", 2, ['h1.5']"))
		mustEqual(t, ed, "a 'nomodifiable' buffer after Append", eval("getbufline('hidden.txt', 1, '$')"), []any{"h0", "h1", "h1.5", "h2", "h3", "h4"})
		mustEqual(t, ed, "'modifiable' after Append", eval("getbufvar('hidden.txt', '&modifiable')"), int64(0))
		ed.MustEval(t, breq("replace", h+", ['r']"))
		mustEqual(t, ed, "a 'nomodifiable' buffer after Replace", eval("[getbufline('hidden.txt', 1, '$'), getbufvar('hidden.txt', '&modifiable')]"), []any{[]any{"r"}, int64(0)})
		mustThrow(t, ed, breq("append", h+", 5, ['x']"), "stdbuf.append", "buffer.Append: ", "line 5 is not in the buffer")
		mustEqual(t, ed, "a buffer after a failed Append", eval("[getbufline('hidden.txt', 1, '$'), getbufvar('hidden.txt', '&modifiable')]"), []any{[]any{"r"}, int64(0)})
		for _, m := range []string{"replace", "append", "reload", "ensure", "modifiable", "decorate", "decorations", "clear"} {
			args := map[string]string{
				"replace": "99, ['x']", "append": "99, 0, ['x']", "reload": "99",
				"ensure": "99, '', v:false", "modifiable": "99, '', v:false",
				"decorate":    "99, 'ns', [{'line': 1, 'col': 1, 'length': 1, 'highlight': 'Search'}]",
				"decorations": "99, 'ns'", "clear": "99, 'ns'",
			}[m]
			name := map[string]string{"decorations": "Decorations", "modifiable": "Modifiable"}[m]
			if name == "" {
				name = string(m[0]-'a'+'A') + m[1:]
			}
			mustThrow(t, ed, breq(m, args), "stdbuf."+m, "buffer."+name+": no buffer 99")
			mustThrow(t, ed, breq(m, "-"+args), "stdbuf."+m, "buffer."+name+": -99 is not a buffer number")
		}
		mustEqual(t, ed, "the buffers after bad numbers", eval("[bufnr('%'), getbufline('hidden.txt', 1, '$')]"), []any{cur, []any{"r"}})

		// Reload: of the buffer shown, and of a hidden one, from the file.
		ed.MustExec(t, "setlocal nomodified")
		ed.MustExec(t, "call writefile(['new'], "+a+")")
		ed.MustEval(t, breq("reload", "bufnr("+a+")"))
		mustEqual(t, ed, "the lines after Reload", eval("getbufline("+a+", 1, '$')"), []any{"new"})
		ed.MustExec(t, "enew")
		ed.MustExec(t, "call writefile(['newer'], "+a+")")
		ed.MustEval(t, breq("reload", "bufnr("+a+")"))
		mustEqual(t, ed, "a hidden buffer after Reload", eval("getbufline("+a+", 1, '$')"), []any{"newer"})

		// Ensure: in a hidden buffer, in one shown in another window, and
		// when the function fails; the current window and buffer come back.
		ed.MustExec(t, "only | edit "+filepath.Join(dir, "main.txt")+" | setlocal modified")
		mainBuf, mainWin := eval("bufnr('%')"), eval("win_getid()")
		in := eval(breq("ensure", h+", 'let b:ensured = 1', v:false")).(map[string]any)
		mustEqual(t, ed, "the buffer inside Ensure", in["bufnr"], hid)
		mustEqual(t, ed, "after Ensure", eval("[bufnr('%'), win_getid(), getbufvar('hidden.txt', 'ensured'), buflisted(bufnr('hidden.txt')), getbufvar('hidden.txt', '&bufhidden')]"),
			[]any{mainBuf, mainWin, int64(1), int64(1), ""})
		mustThrow(t, ed, breq("ensure", h+", 'let b:ensured = 2', v:true"), "stdbuf.ensure", "failed on purpose")
		mustThrow(t, ed, breq("ensure", h+", 'echo no_such_var', v:false"), "stdbuf.ensure", "E121")
		mustThrow(t, ed, breq("ensurepanic", h), "stdbuf.ensurepanic", "panic: on purpose")
		mustEqual(t, ed, "after a failed Ensure", eval("[bufnr('%'), win_getid(), getbufvar('hidden.txt', 'ensured'), &l:bufhidden]"),
			[]any{mainBuf, mainWin, int64(2), ""})
		ed.MustExec(t, "split "+filepath.Join(dir, "other.txt")+" | wincmd p")
		otherWin := eval("win_getid(winnr('#'))")
		in = eval(breq("ensure", "bufnr('other.txt'), '', v:false")).(map[string]any)
		mustEqual(t, ed, "the window inside Ensure of a shown buffer", in["winid"], otherWin)
		mustEqual(t, ed, "after Ensure of a shown buffer", eval("[bufnr('%'), win_getid()]"), []any{mainBuf, mainWin})
		mustThrow(t, ed, breq("inbatch", "'ensure'"), "stdbuf.inbatch", "buffer.Ensure cannot run in a batch")

		// Modifiable: on while the function runs, back after, even when
		// it fails.
		mustEqual(t, ed, "'modifiable' inside Modifiable", eval(breq("modifiable", h+", 'm1', v:false")), true)
		mustEqual(t, ed, "after Modifiable", eval("[getbufline('hidden.txt', 1), getbufvar('hidden.txt', '&modifiable')]"), []any{[]any{"m1"}, int64(0)})
		mustThrow(t, ed, breq("modifiable", h+", 'm2', v:true"), "stdbuf.modifiable", "failed on purpose")
		mustEqual(t, ed, "after a failed Modifiable", eval("[getbufline('hidden.txt', 1), getbufvar('hidden.txt', '&modifiable')]"), []any{[]any{"m2"}, int64(0)})
		mustThrow(t, ed, breq("inbatch", "'modifiable'"), "stdbuf.inbatch", "buffer.Modifiable cannot run in a batch")

		// Decode: UTF-8 (with a BOM), UTF-16LE with a BOM, Latin-1 found in
		// 'fileencodings', cp1252 by iconv(), and the fileformats.
		for _, c := range []struct{ data, opts, want string }{
			{"[0x61, 0x0a, 0xc3, 0xa9, 0x0a]", "{}", "{'lines': ['a', 'é'], 'encoding': 'utf-8', 'bom': v:false, 'fileformat': 'unix'}"},
			{"[0xef, 0xbb, 0xbf, 0x61, 0x0d, 0x0a, 0x62, 0x0d, 0x0a]", "{}", "{'lines': ['a', 'b'], 'encoding': 'utf-8', 'bom': v:true, 'fileformat': 'dos'}"},
			{"[0xff, 0xfe, 0x61, 0, 0x0d, 0, 0xe9, 0]", "{}", "{'lines': ['a', 'é'], 'encoding': 'utf-16le', 'bom': v:true, 'fileformat': 'mac'}"},
			{"[0x63, 0xe9, 0x0a, 0x0a]", "{}", "{'lines': ['cé', ''], 'encoding': 'latin1', 'bom': v:false, 'fileformat': 'unix'}"},
			{"[0x80, 0x0a]", "{'encoding': 'cp1252'}", "{'lines': ['€'], 'encoding': 'cp1252', 'bom': v:false, 'fileformat': 'unix'}"},
			{"[0x80, 0x0d, 0x0a]", "{'encodings': ['cp1252'], 'fileformat': 'unix'}", "{'lines': ['€\r'], 'encoding': 'cp1252', 'bom': v:false, 'fileformat': 'unix'}"},
		} {
			mustEqual(t, ed, "Decode of "+c.data+" with "+c.opts, eval(breq("decode", c.data+", "+c.opts)), eval(c.want))
		}
		mustThrow(t, ed, breq("decode", "[0x80, 0], {}"), "stdbuf.decode", "buffer.Decode: the bytes hold a NUL byte")
		mustThrow(t, ed, breq("decode", "[0x61], {'fileformat': 'amiga'}"), "stdbuf.decode", `buffer.Decode: "amiga" is not a fileformat`)
		mustThrow(t, ed, breq("decode", "[0x80], {'encoding': 'no-such-enc'}"), "stdbuf.decode", "buffer.Decode: the bytes are not no-such-enc")
		mustThrow(t, ed, breq("inbatch", "'decode'"), "stdbuf.inbatch", "buffer.Decode cannot run in a batch")

		// Assign: the lines, 'fileencoding', 'fileformat' and 'bomb' of a
		// hidden buffer, directly and in a batch.
		opts := "getbufvar(" + h + ", '&fileencoding'), getbufvar(" + h + ", '&fileformat'), getbufvar(" + h + ", '&bomb')"
		mustEqual(t, ed, "Assign of Latin-1", eval(breq("assign", h+", [0x63, 0xe9, 0x0d, 0x0a], {}")+".encoding"), "latin1")
		mustEqual(t, ed, "a buffer after Assign", eval("[getbufline("+h+", 1, '$'), "+opts+"]"), []any{[]any{"cé"}, "latin1", "dos", int64(0)})
		got := eval(breq("assignbatch", h+", [0xef, 0xbb, 0xbf, 0x61, 0x0a, 0x62], {}")).(map[string]any)
		mustEqual(t, ed, "Assign in a batch", got, map[string]any{"fileformat": "unix",
			"decoded": map[string]any{"lines": []any{"a", "b"}, "encoding": "utf-8", "bom": true, "fileformat": "unix"}})
		mustEqual(t, ed, "a buffer after Assign in a batch", eval("[getbufline("+h+", 1, '$'), "+opts+", getbufvar("+h+", '&modifiable')]"), []any{[]any{"a", "b"}, "utf-8", "unix", int64(1), int64(0)})
		mustThrow(t, ed, breq("assign", "99, [0x61], {}"), "stdbuf.assign", "buffer.Assign: no buffer 99")
		mustThrow(t, ed, breq("assign", "-1, [0x61], {}"), "stdbuf.assign", "buffer.Assign: -1 is not a buffer number")
		mustThrow(t, ed, breq("assign", h+", [0x61], {'fileformat': 'x'}"), "stdbuf.assign", `buffer.Assign: "x" is not a fileformat`)
		mustThrow(t, ed, breq("inbatch", "'assign'"), "stdbuf.inbatch", "buffer.Assign cannot run in a batch")

		// Decorations: added, listed, moved with the text, cleared by
		// namespace.
		ed.MustExec(t, "enew! | call setline(1, ['hello world', 'second'])")
		ed.MustEval(t, breq("decorate", "0, 'one', [{'line': 1, 'col': 1, 'length': 5, 'highlight': 'Search'}, {'line': 2, 'col': 2, 'length': 3, 'highlight': 'ErrorMsg'}]"))
		ed.MustEval(t, breq("decorate", "0, 'two', [{'line': 1, 'col': 7, 'length': 5, 'highlight': 'Title'}]"))
		marks := "(has('nvim') ? len(nvim_buf_get_extmarks(0, nvim_create_namespace('vigor:one'), 0, -1, {})) : len(filter(prop_list(1, {'end_lnum': -1}), {_, p -> p.type =~# '^vigor:one:'})))"
		mustEqual(t, ed, "the editor's marks", eval(marks), int64(2))
		mustEqual(t, ed, "Decorations", eval(breq("decorations", "0, 'one'")), eval("[{'line': 1, 'col': 1, 'length': 5, 'highlight': 'Search'}, {'line': 2, 'col': 2, 'length': 3, 'highlight': 'ErrorMsg'}]"))
		ed.MustExec(t, "call append(0, 'above')")
		mustEqual(t, ed, "Decorations after a line above", eval(breq("decorations", "0, 'two'")), eval("[{'line': 2, 'col': 7, 'length': 5, 'highlight': 'Title'}]"))
		ed.MustEval(t, breq("clear", "0, 'one'"))
		mustEqual(t, ed, "Decorations after Clear", eval(breq("decorations", "0, 'one'")), []any{})
		mustEqual(t, ed, "the editor's marks after Clear", eval(marks), int64(0))
		mustEqual(t, ed, "another namespace after Clear", eval("len("+breq("decorations", "0, 'two'")+")"), int64(1))
		mustEqual(t, ed, "Decorations of a buffer not loaded", eval(breq("decorations", "bufnr('never.txt', 1), 'one'")), []any{})
		for _, bad := range []struct{ method, args, want string }{
			{"decorate", "0, 'a b', []", `buffer.Decorate: "a b" is not a namespace name`},
			{"decorations", "0, ''", `buffer.Decorations: "" is not a namespace name`},
			{"clear", "0, 'x:y'", `buffer.Clear: "x:y" is not a namespace name`},
			{"decorate", "0, 'n', [{'line': 1, 'col': 1, 'length': 1, 'highlight': 'Search | x'}]", `buffer.Decorate: decoration 0: "Search | x" is not a highlight group name`},
			{"decorate", "0, 'n', [{'line': 0, 'col': 1, 'length': 1, 'highlight': 'Search'}]", `buffer.Decorate: decoration 0: line 0, column 1: lines and columns count from 1`},
			{"decorate", "0, 'n', [{'line': 1, 'col': 1, 'length': -1, 'highlight': 'Search'}]", `buffer.Decorate: decoration 0: the length -1 is negative`},
			{"decorate", "0, 'n', [{'line': 9, 'col': 1, 'length': 1, 'highlight': 'Search'}]", `buffer.Decorate: `},
		} {
			mustThrow(t, ed, breq(bad.method, bad.args), "stdbuf."+bad.method, bad.want)
		}

		// All in one batch.
		got = eval(breq("batch", editortest.VimString(filepath.Join(dir, "batch.txt"))+", bufnr("+a+")")).(map[string]any)
		bufB := eval("bufnr('batch.txt')")
		mustEqual(t, ed, "the batch", got, map[string]any{
			"opened":      map[string]any{"bufnr": bufB, "winid": eval("win_getid()"), "tabnr": int64(1)},
			"decorations": eval("[{'line': 3, 'col': 1, 'length': 1, 'highlight': 'Search'}]"),
			"after":       []any{},
		})
		mustEqual(t, ed, "the lines after the batch", eval("getline(1, '$')"), []any{"a", "b", "c"})
		mustThrow(t, ed, breq("batch", "'x.txt', 99"), "stdbuf.batch", "no buffer 99")
	})
}
