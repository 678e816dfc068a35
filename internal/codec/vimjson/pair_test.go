package vimjson

import (
	"bytes"
	"encoding/json"
	"testing"
)

// splitPair agrees with SplitList on valid JSON (what the decoder hands
// ReadMessage): it succeeds exactly when SplitList finds two items, and
// gives the same two.
func checkPair(t *testing.T, r []byte) {
	t.Helper()
	if !json.Valid(r) {
		if a, b, ok := splitPair(r); ok && (len(a) == 0 || len(b) == 0) {
			t.Fatalf("%q: splitPair took empty items", r)
		}
		return
	}
	a, b, ok := splitPair(r)
	items, err := SplitList(r)
	want := err == nil && len(items) == 2
	if ok != want {
		t.Fatalf("%q: splitPair ok = %v, SplitList = %q, %v", r, ok, items, err)
	}
	if ok && (!bytes.Equal(a, items[0]) || !bytes.Equal(b, items[1])) {
		t.Fatalf("%q: splitPair = %q, %q; SplitList = %q", r, a, b, items)
	}
}

func TestSplitPair(t *testing.T) {
	for _, s := range []string{`[1,null]`, ` [ "a" , "E1: x" ] `, `[[1,[2]],null]`, `[{"k":[1,2]},null]`, `["a\"]",null]`,
		`[1]`, `[1,2,3]`, `[]`, `[1,`, `[1,null`, `1`, ``, `[,]`, `[1,null]x`, `[1 2]`} {
		checkPair(t, []byte(s))
	}
}

func FuzzSplitPair(f *testing.F) {
	for _, s := range []string{`[1,null]`, `["x","E1"]`, `[[1],{"a":null}]`, `[1,2,3]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, r []byte) { checkPair(t, r) })
}
