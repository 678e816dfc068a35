package e2e

import (
	"strings"
	"testing"

	"github.com/vigorvim/vigor/internal/editortest"
)

func stdautocmdRepo() editortest.Options { return editortest.Options{RTP: rtp("stdautocmd")} }

// acreq is the expression that calls the stdautocmd plugin's method with
// args (Vim script).
func acreq(method, args string) string {
	return "vigor#request('stdautocmd', '" + method + "', [" + args + "])"
}

// acList is the list of autocommands that the plugin's list method gives
// for the filter f (a Vim Dict), decoded.
func acList(t *testing.T, ed *editortest.Editor, f string) []map[string]any {
	t.Helper()
	var l []map[string]any
	if err := ed.EvalInto(acreq("list", f), &l); err != nil {
		t.Fatalf("%s: list %s: %v", ed.Kind, f, err)
	}
	return l
}

// ac is an autocommand as the plugin's list method gives it.
func ac(group, event, pattern string, buffer int64, once, nested bool, cmd string) map[string]any {
	return map[string]any{"group": group, "event": event, "pattern": pattern, "buffer": buffer, "once": once, "nested": nested, "cmd": cmd}
}

// std/autocmd defines (in a group or none, ++once, ++nested,
// buffer-local), lists, removes (by group, event, pattern, buffer) and
// triggers autocommands, and clears and defines a group in one step, on
// both editors, directly and in a batch; bad names fail without a call.
func TestStdAutocmd(t *testing.T) {
	each(t, stdautocmdRepo(), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "stdautocmd")
		nvim := ed.Kind == "nvim"
		ed.MustExec(t, "let g:hits = 0 | let g:matched = ''")

		// Define in a group, List and Emit.
		ed.MustEval(t, acreq("define", "{'group': 'stdac', 'events': ['User'], 'patterns': ['StdA'], 'cmd': 'let g:hits += 1'}"))
		mustEqual(t, ed, "List of stdac", acList(t, ed, "{'group': 'stdac'}"),
			[]map[string]any{ac("stdac", "User", "StdA", 0, false, false, "let g:hits += 1")})
		ed.MustEval(t, acreq("emit", "'User', 'StdA'"))
		mustEqual(t, ed, "g:hits after Emit", ed.MustEval(t, "g:hits"), int64(1))

		// ++once and ++nested, several events and patterns; <amatch>.
		ed.MustEval(t, acreq("define", "{'group': 'stdac', 'events': ['User'], 'patterns': ['StdB', 'StdC'], 'once': v:true, 'nested': v:true, 'cmd': 'let g:matched .= expand(\"<amatch>\")'}"))
		got := acList(t, ed, "{'group': 'stdac', 'patterns': ['StdB', 'StdC']}")
		mustEqual(t, ed, "List of the ++once ones", got, []map[string]any{
			ac("stdac", "User", "StdB", 0, true, !nvim, `let g:matched .= expand("<amatch>")`),
			ac("stdac", "User", "StdC", 0, true, !nvim, `let g:matched .= expand("<amatch>")`),
		})
		ed.MustEval(t, acreq("emit", "'User', 'StdB'"))
		ed.MustEval(t, acreq("emit", "'User', 'StdB'"))
		mustEqual(t, ed, "g:matched after two Emits of ++once", ed.MustEval(t, "g:matched"), "StdB")
		mustEqual(t, ed, "List after the ++once one ran", len(acList(t, ed, "{'group': 'stdac', 'patterns': ['StdB', 'StdC']}")), 1)

		// ++nested lets the command trigger autocommands (Neovim does not
		// report it in List, but does it); a command is an Ex command line,
		// '|' and all.
		ed.MustExec(t, "let g:inner = 0 | let g:a = 0 | let g:b = ''")
		ed.MustEval(t, acreq("define", "{'group': 'stdac_n', 'events': ['WinNew'], 'cmd': 'let g:inner += 1'}"))
		ed.MustEval(t, acreq("define", "{'group': 'stdac_n', 'events': ['User'], 'patterns': ['Flat'], 'cmd': 'split'}"))
		ed.MustEval(t, acreq("define", "{'group': 'stdac_n', 'events': ['User'], 'patterns': ['Deep'], 'nested': v:true, 'cmd': 'split | let g:a = 1 | let g:b = \"x|y\"'}"))
		ed.MustEval(t, acreq("emit", "'User', 'Flat'"))
		mustEqual(t, ed, "g:inner after an autocommand without ++nested", ed.MustEval(t, "g:inner"), int64(0))
		ed.MustEval(t, acreq("emit", "'User', 'Deep'"))
		mustEqual(t, ed, "g:inner after an autocommand with ++nested", ed.MustEval(t, "g:inner"), int64(1))
		mustEqual(t, ed, "[g:a, g:b] after a command with '|'", ed.MustEval(t, "[g:a, g:b]"), []any{int64(1), "x|y"})
		ed.MustEval(t, acreq("group", "'stdac_n', [], []"))
		ed.MustExec(t, "only")

		// Emit with no matching autocommand gives no message; a file name
		// with '|' and '"' is one file name.
		ed.MustExec(t, "messages clear")
		ed.MustEval(t, acreq("emit", "'User', 'NoSuchPattern'"))
		ed.MustEval(t, acreq("emit", "'BufEnter', 'nomatch.xyz'"))
		if m := ed.MustEval(t, "execute('messages')").(string); strings.Contains(m, "No matching") {
			t.Fatalf("%s: Emit gave the message %q", ed.Kind, m)
		}
		ed.MustEval(t, acreq("define", "{'group': 'stdac', 'events': ['User'], 'patterns': ['a|b\"c'], 'cmd': 'let g:bar = expand(\"<amatch>\")'}"))
		ed.MustEval(t, acreq("emit", "'User', 'a|b\"c'"))
		mustEqual(t, ed, "<amatch> of a|b\"c", ed.MustEval(t, "g:bar"), `a|b"c`)

		// EmitAll runs in every loaded buffer.
		ed.MustExec(t, "new | let g:all = 0")
		ed.MustEval(t, acreq("define", "{'group': 'stdac', 'events': ['User'], 'patterns': ['StdAll'], 'cmd': 'let g:all += 1'}"))
		ed.MustEval(t, acreq("emitall", "'User', 'StdAll'"))
		mustEqual(t, ed, "g:all after EmitAll", ed.MustEval(t, "g:all"), ed.MustEval(t, "len(getbufinfo({'bufloaded': 1}))"))

		// Buffer-local autocommands.
		buf := ed.MustEval(t, "bufnr('%')").(int64)
		ed.MustEval(t, acreq("define", "{'group': 'stdac', 'events': ['BufEnter'], 'buffer': bufnr('%'), 'cmd': 'let g:local = 1'}"))
		bufPat := "<buffer=" + ed.MustEval(t, "string(bufnr('%'))").(string) + ">"
		mustEqual(t, ed, "List of buffer-local", acList(t, ed, "{'group': 'stdac', 'buffer': bufnr('%')}"),
			[]map[string]any{ac("stdac", "BufEnter", bufPat, buf, false, false, "let g:local = 1")})
		ed.MustEval(t, acreq("remove", "{'group': 'stdac', 'buffer': bufnr('%')}"))
		mustEqual(t, ed, "List of buffer-local after Remove", len(acList(t, ed, "{'group': 'stdac', 'buffer': bufnr('%')}")), 0)

		// No group and AnyGroup.
		ed.MustEval(t, acreq("define", "{'events': ['User'], 'patterns': ['StdNone'], 'cmd': 'let g:none = 1'}"))
		mustEqual(t, ed, "List of no group", acList(t, ed, "{'group': '', 'events': ['User']}"),
			[]map[string]any{ac("", "User", "StdNone", 0, false, false, "let g:none = 1")})
		n := 0
		for _, a := range acList(t, ed, "{'group': '*', 'events': ['User']}") {
			if a["group"] == "stdac" || a["pattern"] == "StdNone" {
				n++
			}
		}
		mustEqual(t, ed, "List of any group: those of stdac and of none", n, 5)
		ed.MustEval(t, acreq("remove", "{'events': ['User'], 'patterns': ['StdNone']}"))
		mustEqual(t, ed, "List of no group after Remove", len(acList(t, ed, "{'group': '', 'events': ['User']}")), 0)

		// Remove by pattern, then by event; a group that does not exist.
		ed.MustEval(t, acreq("remove", "{'group': 'stdac', 'patterns': ['StdAll']}"))
		mustEqual(t, ed, "List after Remove of a pattern", len(acList(t, ed, "{'group': 'stdac'}")), 3)
		ed.MustEval(t, acreq("define", "{'group': 'stdac', 'events': ['BufEnter', 'BufLeave'], 'patterns': ['*.stdac'], 'cmd': 'let g:x = 1'}"))
		ed.MustEval(t, acreq("remove", "{'group': 'stdac', 'events': ['User']}"))
		mustEqual(t, ed, "List after Remove of User", acList(t, ed, "{'group': 'stdac'}"), []map[string]any{
			ac("stdac", "BufEnter", "*.stdac", 0, false, false, "let g:x = 1"),
			ac("stdac", "BufLeave", "*.stdac", 0, false, false, "let g:x = 1"),
		})
		ed.MustEval(t, acreq("remove", "{'group': 'stdac_nosuch'}"))
		mustEqual(t, ed, "List of a group that does not exist", len(acList(t, ed, "{'group': 'stdac_nosuch'}")), 0)
		ed.MustEval(t, acreq("remove", "{'buffer': 999}"))
		mustEqual(t, ed, "List of a buffer that does not exist", len(acList(t, ed, "{'buffer': 999}")), 0)
		mustThrow(t, ed, acreq("define", "{'buffer': 999, 'events': ['User'], 'cmd': 'x'}"), "stdautocmd.define", "autocmd.Define: there is no buffer 999")

		// Group clears the group, then defines and removes in one call.
		ed.MustEval(t, acreq("group", "'stdac', [{'events': ['User'], 'patterns': ['G1', 'G2'], 'cmd': 'let g:g = 1'}], [{'patterns': ['G2']}]"))
		mustEqual(t, ed, "List after Group", acList(t, ed, "{'group': 'stdac'}"),
			[]map[string]any{ac("stdac", "User", "G1", 0, false, false, "let g:g = 1")})
		ed.MustEval(t, acreq("group", "'stdac_empty', [], []"))
		mustEqual(t, ed, "exists('#stdac_empty') after an empty Group", ed.MustEval(t, "exists('#stdac_empty')"), int64(1))

		// In a batch.
		ed.MustExec(t, "let g:hits = 0 | unlet! g:stdautocmd_two")
		res := ed.MustEval(t, acreq("batch", "'stdac_b', {'events': ['User'], 'patterns': ['B'], 'cmd': 'let g:hits += 1'}, 'User', 'B'"))
		mustEqual(t, ed, "the batch", res, map[string]any{
			"before": []any{
				map[string]any{"group": "stdac_b", "event": "User", "pattern": "B", "buffer": int64(0), "once": false, "nested": false, "cmd": "let g:hits += 1"},
				map[string]any{"group": "stdac_b", "event": "User", "pattern": "B2", "buffer": int64(0), "once": false, "nested": false, "cmd": "let g:stdautocmd_two = 1"},
			},
			"after": []any{},
		})
		mustEqual(t, ed, "g:hits after the batch's Emit and EmitAll", ed.MustEval(t, "g:hits"), int64(1)+ed.MustEval(t, "len(getbufinfo({'bufloaded': 1}))").(int64))
		mustEqual(t, ed, "exists('g:stdautocmd_two')", ed.MustEval(t, "exists('g:stdautocmd_two')"), int64(0))

		// Events the editor does not have: the editor's check, one line.
		mustThrow(t, ed, acreq("define", "{'events': ['NoSuchEvent'], 'cmd': 'x'}"), "stdautocmd.define", "autocmd.Define: no event 'NoSuchEvent' in this editor")
		mustThrow(t, ed, acreq("emit", "'NoSuchEvent', ''"), "autocmd.Emit: no event 'NoSuchEvent' in this editor")
		mustThrow(t, ed, acreq("list", "{'events': ['NoSuchEvent']}"), "autocmd.List: no event 'NoSuchEvent' in this editor")
		mustThrow(t, ed, acreq("group", "'BufEnter', [], []"), "autocmd.Group: 'BufEnter' is the name of an event, not of a group")
		mustThrow(t, ed, acreq("batch", "'stdac_b', {'events': ['NoSuchEvent'], 'cmd': 'x'}, 'User', 'B'"), "stdautocmd.batch", "no event 'NoSuchEvent' in this editor")

		// Bad input, without a call.
		for _, bad := range []struct{ method, args, want string }{
			{"define", "{'events': ['Buf Enter'], 'cmd': 'x'}", `autocmd.Define: "Buf Enter" is not an event name`},
			{"define", "{'events': [], 'cmd': 'x'}", `autocmd.Define: no event`},
			{"define", "{'events': ['User'], 'cmd': ' '}", `autocmd.Define: no command`},
			{"define", "{'group': 'a b', 'events': ['User'], 'cmd': 'x'}", `autocmd.Define: "a b" is not a group name`},
			{"define", "{'group': 'END', 'events': ['User'], 'cmd': 'x'}", `autocmd.Define: "END" is not a group name`},
			{"define", "{'events': ['User'], 'patterns': [''], 'cmd': 'x'}", `autocmd.Define: "" is not a pattern`},
			{"define", "{'events': ['User'], 'patterns': [\"a\\nb\"], 'cmd': 'x'}", `autocmd.Define: "a\nb" is not a pattern: it has a line break`},
			{"define", "{'events': ['User'], 'patterns': ['<buffer=1>'], 'cmd': 'x'}", `autocmd.Define: "<buffer=1>" is not a pattern: use Buffer`},
			{"define", "{'events': ['User'], 'patterns': ['x'], 'buffer': 1, 'cmd': 'x'}", `autocmd.Define: both patterns and a buffer`},
			{"remove", "{'group': '*'}", `autocmd.Remove: the group AnyGroup is only for List`},
			{"remove", "{'events': ['*']}", `autocmd.Remove: "*" is not an event name`},
			{"list", "{'group': 'x|y'}", `autocmd.List: "x|y" is not a group name`},
			{"remove", "{'group': 'a#b'}", `autocmd.Remove: "a#b" is not a group name`},
			{"list", "{'buffer': -1}", `autocmd.List: -1 is not a buffer number`},
			{"emit", "'User|x', ''", `autocmd.Emit: "User|x" is not an event name`},
			{"emitall", "'User', \"a\\nb\"", `autocmd.EmitAll: "a\nb" is not a file name: it has a line break`},
			{"group", "'', [], []", `autocmd.Group: the group name is ""`},
			{"group", "'stdac', [{'group': 'other', 'events': ['User'], 'cmd': 'x'}], []", `autocmd.Group: Define: the group is "stdac", not "other"`},
			{"group", "'stdac', [], [{'group': 'other'}]", `autocmd.Group: Remove: the group is "stdac", not "other"`},
		} {
			mustThrow(t, ed, acreq(bad.method, bad.args), "stdautocmd."+bad.method, bad.want)
		}
		// The failed Group calls sent nothing: stdac is as it was.
		mustEqual(t, ed, "List after the failed Group calls", len(acList(t, ed, "{'group': 'stdac'}")), 1)
	})
}
