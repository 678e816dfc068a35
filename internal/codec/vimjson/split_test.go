package vimjson_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/vigorvim/vigor/internal/codec/vimjson"
	"github.com/vigorvim/vigor/internal/wire"
)

// SplitList agrees with encoding/json on the items of valid Lists.
func TestSplitListAgreesWithEncodingJSON(t *testing.T) {
	for _, in := range []string{
		`[]`, ` [ ] `, `[1]`, `[1,2]`, `[ 1 , "a" ]`, `[null,true,false,-1.5e3]`,
		`["a,b]", "c\"d", "e\\"]`, `[[1,[2,3]],{"a":[1,{"b":"]"}]},[]]`,
		`[{"k":"v"} , [ ] ,"x"]`, `[0,null]`, "[\n1,\n2\n]",
	} {
		got, err := vimjson.SplitList(wire.Raw(in))
		if err != nil {
			t.Errorf("SplitList(%s): %v", in, err)
			continue
		}
		var want []json.RawMessage
		if err := json.Unmarshal([]byte(in), &want); err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) {
			t.Errorf("SplitList(%s) = %d items %q, want %d", in, len(got), got, len(want))
			continue
		}
		for i := range got {
			if string(got[i]) != string(want[i]) {
				t.Errorf("SplitList(%s)[%d] = %s, want %s", in, i, got[i], want[i])
			}
		}
	}
	for _, bad := range []string{``, `1`, `{}`, `[1`, `["a]`, `[1 2]`, `[[1]`} {
		if got, err := vimjson.SplitList(wire.Raw(bad)); err == nil {
			t.Errorf("SplitList(%s) = %q, want an error", bad, got)
		}
	}
}

func FuzzSplitList(f *testing.F) {
	for _, s := range []string{`[]`, `[1,"a",[2],{"b":3}]`, `["\"",null]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var want []json.RawMessage
		if json.Unmarshal([]byte(s), &want) != nil {
			_, _ = vimjson.SplitList(wire.Raw(s)) // must not panic
			return
		}
		got, err := vimjson.SplitList(wire.Raw(s))
		if err != nil {
			t.Fatalf("SplitList(%q): %v", s, err)
		}
		if len(got) != len(want) {
			t.Fatalf("SplitList(%q): %d items, want %d", s, len(got), len(want))
		}
		for i := range got {
			var a, b any
			if json.Unmarshal(got[i], &a) != nil || json.Unmarshal(want[i], &b) != nil {
				t.Fatalf("SplitList(%q)[%d] = %q", s, i, got[i])
			}
		}
	})
}

// Buffered ignores the newline Vim writes after each message, and sees the
// start of another.
func TestBufferedIgnoresNewlines(t *testing.T) {
	c := vimjson.New(strings.NewReader("[-1,[0,null]]\n  \n[-2,"))
	var m wire.Message
	if err := c.ReadMessage(&m); err != nil {
		t.Fatal(err)
	}
	if got := c.Buffered(); got != 1 {
		t.Fatalf("Buffered() = %d with a partial message left, want 1", got)
	}
	c = vimjson.New(strings.NewReader("[-1,[0,null]]\n"))
	if err := c.ReadMessage(&m); err != nil {
		t.Fatal(err)
	}
	if got := c.Buffered(); got != 0 {
		t.Fatalf("Buffered() = %d with only a newline left, want 0", got)
	}
}
