package e2e

import (
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/vigorvim/vigor/internal/editortest"
)

func bigmsgOpts() editortest.Options { return editortest.Options{RTP: rtp("bigmsg")} }

// chunksLeft lists the large messages that Vim holds in part. Neovim
// chunks nothing.
const chunksLeft = `has('nvim') ? [] : vigor#_internal#api#vim#pending()`

// sameText compares the String variable got with want in the editor, and
// fails with their lengths and where they first differ.
func sameText(t *testing.T, ed *editortest.Editor, what, got, want string) {
	t.Helper()
	expr := fmt.Sprintf(`%s ==# %s ? -1 : [strlen(%s), strlen(%s), matchend(%s . "\n", '^\V' . escape(strpart(%s, 0, 40), '\'))]`,
		got, want, got, want, got, want)
	if v := ed.MustEval(t, expr); v != int64(-1) {
		t.Fatalf("%s: %s: %s differs from %s: [len got, len want, ...] %v", ed.Kind, what, got, want, v)
	}
}

// Two plugins send and receive large messages at the same time: on Vim
// their chunks arrive interleaved, and each message must still be put
// together from its own pieces only.
func TestLargeMessagesFromTwoPlugins(t *testing.T) {
	each(t, bigmsgOpts(), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "bigmsg1")
		waitLoaded(t, ed, "bigmsg2")
		// 5 MB each, a different text for each plugin.
		ed.MustExec(t, `let g:in1 = repeat('one-0123456789:', 350000) | let g:in2 = repeat('two-ABCDEFGHIJ:', 350000)`)
		ed.MustExec(t, `let g:want1 = 'bigmsg1:' . g:in1 | let g:want2 = 'bigmsg2:' . g:in2`)
		for round := 0; round < 3; round++ {
			ed.MustExec(t, `let g:out = {} | let g:errs = []`)
			// An async request to each plugin, and a request to the first
			// while both are under way.
			ed.MustExec(t, `call vigor#request_async('bigmsg1', 'roundtrip', [g:in1], {v -> extend(g:out, {'async1': v})}, {e -> add(g:errs, e.message)})`)
			ed.MustExec(t, `call vigor#request_async('bigmsg2', 'roundtrip', [g:in2], {v -> extend(g:out, {'async2': v})}, {e -> add(g:errs, e.message)})`)
			ed.MustExec(t, `let g:out.sync1 = vigor#request('bigmsg1', 'roundtrip', [g:in1])`)
			ed.WaitFor(t, `len(g:out) == 3 || !empty(g:errs)`, 60*time.Second)
			mustEqual(t, ed, "errors", ed.MustEval(t, `g:errs`), []any{})
			sameText(t, ed, "async to bigmsg1", "g:out.async1", "g:want1")
			sameText(t, ed, "async to bigmsg2", "g:out.async2", "g:want2")
			sameText(t, ed, "request to bigmsg1", "g:out.sync1", "g:want1")
		}
		mustEqual(t, ed, "chunks left", ed.MustEval(t, chunksLeft), []any{})
	})
}

// A plugin killed while Vim receives a large message from it leaves
// nothing behind, and its next process's large messages come out whole.
func TestLargeMessageCutByCrash(t *testing.T) {
	each(t, bigmsgOpts(), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "bigmsg1")
		pid := ed.MustEval(t, `vigor#request('bigmsg1', 'pid', [])`).(int64)
		ed.MustEval(t, `vigor#request('bigmsg1', 'flood', [64 * 1024 * 1024])`)
		// On Vim, wait until the first pieces have come.
		deadline := time.Now().Add(30 * time.Second)
		for {
			v, err := ed.Eval(`has('nvim') || !empty(` + chunksLeft + `)`)
			if err != nil {
				t.Fatal(err)
			}
			if v == int64(1) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: no part of the large message came within 30 s", ed.Kind)
			}
			time.Sleep(time.Millisecond)
		}
		if err := syscall.Kill(int(pid), syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		mustEqual(t, ed, "events", waitEvents(t, ed, "bigmsg1", 4), []string{pre, post, pre, post})
		waitLoaded(t, ed, "bigmsg1")
		mustEqual(t, ed, "cut short", ed.MustEval(t, `has('nvim') || !exists('g:flooded')`), int64(1))
		ed.WaitFor(t, `empty(`+chunksLeft+`)`, 10*time.Second)
		// The new process numbers its messages afresh.
		ed.MustExec(t, `let g:in1 = repeat('new-0123456789:', 350000) | let g:want1 = 'bigmsg1:' . g:in1`)
		ed.MustExec(t, `let g:got = vigor#request('bigmsg1', 'roundtrip', [g:in1])`)
		sameText(t, ed, "after the restart", "g:got", "g:want1")
		ed.MustExec(t, `let g:out = {} | let g:errs = []`)
		ed.MustExec(t, `call vigor#request_async('bigmsg1', 'roundtrip', [g:in1], {v -> extend(g:out, {'async': v})}, {e -> add(g:errs, e.message)})`)
		ed.WaitFor(t, `len(g:out) == 1 || !empty(g:errs)`, 60*time.Second)
		mustEqual(t, ed, "errors", ed.MustEval(t, `g:errs`), []any{})
		sameText(t, ed, "async after the restart", "g:out.async", "g:want1")
		mustEqual(t, ed, "chunks left", ed.MustEval(t, chunksLeft), []any{})
	})
}
