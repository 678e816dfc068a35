package e2e

import (
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/vigorvim/vigor/internal/editortest"
)

func hdbatch() editortest.Options { return editortest.Options{RTP: rtp("hdbatch")} }

// A recorded batch that mixes CallInto through Into, CallAs, Cmd and
// EvalInto fills in every result; with a failing call or command in the
// middle, it is a BatchError with the results before it (a Cmd's is nil),
// their pointers filled in, and the calls after it not run. On Vim, both
// ways calls reach it (g:vigor#vim_calls) run the batch alike.
func TestBatchRecorder(t *testing.T) {
	for _, calls := range []string{"callback", "command"} {
		t.Run(calls, func(t *testing.T) {
			opts := hdbatch()
			opts.Cmds = append(opts.Cmds, "let g:vigor#vim_calls = '"+calls+"'")
			each(t, opts, func(t *testing.T, ed *editortest.Editor) { testBatchRecorder(t, ed) })
		})
	}
}

func testBatchRecorder(t *testing.T, ed *editortest.Editor) {
	waitLoaded(t, ed, "vbatch")
	got := ed.MustEval(t, `vigor#request('vbatch', 'mixed', [''])`)
	mustEqual(t, ed, "the batch", got, map[string]any{"n": int64(4), "up": "AB", "ev": int64(42), "after": "Z", "error": ""})
	mustEqual(t, ed, "its commands", ed.MustEval(t, `[g:vbatch_cmd, g:vbatch_after]`), []any{int64(5), int64(1)})

	ed.MustExec(t, "unlet g:vbatch_cmd g:vbatch_after")
	got = ed.MustEval(t, `vigor#request('vbatch', 'mixed', ['call'])`)
	m := got.(map[string]any)
	if msg, _ := m["msg"].(string); !strings.Contains(msg, "E117") || !strings.Contains(msg, "VbatchNoSuchFunction") {
		t.Fatalf("%s: the editor's message %q", ed.Kind, msg)
	}
	mustEqual(t, ed, "the error", m["error"], "batch call 4: VbatchNoSuchFunction(): "+m["msg"].(string))
	delete(m, "msg")
	delete(m, "error")
	mustEqual(t, ed, "a failed call", m, map[string]any{
		"n": int64(4), "up": "AB", "ev": int64(42), "after": "unset",
		"index": int64(4), "fn": "VbatchNoSuchFunction", "results": []any{int64(4), "AB", nil, int64(42)}})
	mustEqual(t, ed, "the calls after it", ed.MustEval(t, `[g:vbatch_cmd, exists('g:vbatch_after')]`), []any{int64(5), int64(0)})

	ed.MustExec(t, "unlet g:vbatch_cmd")
	m = ed.MustEval(t, `vigor#request('vbatch', 'mixed', ['cmd'])`).(map[string]any)
	if msg, _ := m["msg"].(string); !strings.Contains(msg, "E121") || !strings.Contains(msg, "l:nosuchvar") {
		t.Fatalf("%s: the editor's message %q", ed.Kind, msg)
	}
	mustEqual(t, ed, "the error", m["error"], "batch call 4: "+m["msg"].(string))
	mustEqual(t, ed, "a failed command", []any{m["index"], m["fn"], m["after"]}, []any{int64(4), "", "unset"})
	mustEqual(t, ed, "the calls after it", ed.MustEval(t, `[g:vbatch_cmd, exists('g:vbatch_after')]`), []any{int64(5), int64(0)})
}

// A helper that groups its calls with RunBatch runs them in a batch of its
// own when given the Plugin, and joins the caller's batch when given one
// (its failure counts from the start of that batch). An empty batch
// returns nil, and one whose record func fails sends nothing. A Batch used
// after its record func returned fails with a clear error.
func TestBatchRecorderNestingAndMisuse(t *testing.T) {
	each(t, hdbatch(), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "vbatch")
		m := ed.MustEval(t, `vigor#request('vbatch', 'nested', [])`).(map[string]any)
		mustEqual(t, ed, "the error", m["error"], "batch call 3: vbatch#abs(): vbatch#abs: not a Number: 'x'")
		mustEqual(t, ed, "nested", m, map[string]any{
			"alone": int64(3), "inside": int64(0), "first": int64(7),
			"error": m["error"], "index": int64(3), "fn": "vbatch#abs", "msg": "vbatch#abs: not a Number: 'x'",
			"results": []any{int64(1), int64(1), int64(5)}})

		mustEqual(t, ed, "empty", ed.MustEval(t, `vigor#request('vbatch', 'empty', [])`), "record gave up")
		mustEqual(t, ed, "not sent", ed.MustEval(t, `exists('g:vbatch_unsent')`), int64(0))

		const after = "Batch: used after its record func returned: make the calls inside record, or start another batch"
		mustEqual(t, ed, "used after", ed.MustEval(t, `vigor#request('vbatch', 'after', [])`), []any{after, after})
		mustEqual(t, ed, "not run", ed.MustEval(t, `exists('g:vbatch_late')`), int64(0))
	})
}

// A Caller that wraps the Plugin or a Batch (here one that logs the calls)
// keeps batch behaviour: RunBatch through the wrapped Plugin runs a batch,
// and through a wrapped Batch joins it (its failure counts from the start
// of that batch); CallAs through the wrapper records the call and returns
// the zero value, and through a wrapped Into fills in Into's pointer.
func TestBatchThroughWrappingCaller(t *testing.T) {
	each(t, hdbatch(), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "vbatch")
		m := ed.MustEval(t, `vigor#request('vbatch', 'wrapped', [])`).(map[string]any)
		mustEqual(t, ed, "the error", m["error"], "batch call 2: vbatch#abs(): vbatch#abs: not a Number: 'x'")
		mustEqual(t, ed, "wrapped", m, map[string]any{
			"alone": int64(3), "zero": int64(0), "up": "AB", "inside": int64(0),
			"log":   []any{"toupper[a]", "toupper[ab]", "abs[-1]"},
			"error": m["error"], "index": int64(2), "fn": "vbatch#abs", "msg": "vbatch#abs: not a Number: 'x'",
			"results": []any{int64(1), int64(5)}})
	})
}

// Goroutines that each run batches, whose calls come back into the
// plugin while the batches wait, get every result.
func TestBatchRecorderConcurrent(t *testing.T) {
	each(t, hdbatch(), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "vbatch")
		const n, rounds = 8, 5
		v, err := evalWithin(t, ed, 60*time.Second, `sort(vigor#request('vbatch', 'fanout', [8, 5]), 'n')`)
		if err != nil {
			t.Fatalf("%s: fanout: %v", ed.Kind, err)
		}
		var want []any
		for i := range n {
			for r := range rounds {
				want = append(want, int64(i*10+r*10))
			}
		}
		sort.Slice(want, func(i, j int) bool { return want[i].(int64) < want[j].(int64) })
		if !reflect.DeepEqual(v, want) {
			t.Fatalf("%s: fanout = %v, want %v", ed.Kind, v, want)
		}
		mustEqual(t, ed, "leaf after", ed.MustEval(t, `vigor#request('vbatch', 'leaf', [4])`), int64(40))
	})
}
