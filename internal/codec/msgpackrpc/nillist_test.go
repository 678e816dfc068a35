package msgpackrpc_test

import (
	"strings"
	"testing"

	"github.com/vigorvim/vigor/internal/codec/msgpackrpc"
)

// A nil slice is an empty List (0x90), as a value, as an item of a List
// and as an argument of a call in a batch; a nil []byte, map or pointer is
// nil (0xc0), as is a nil slice in a Dict, which the encoder writes.
func TestNilSliceIsEmptyList(t *testing.T) {
	type names []string
	c := msgpackrpc.New(strings.NewReader(""))
	for _, tc := range []struct {
		name string
		v    any
		want string
	}{
		{"[]any", []any(nil), "\x90"},
		{"[]string", []string(nil), "\x90"},
		{"[]int", []int(nil), "\x90"},
		{"[]map[string]any", []map[string]any(nil), "\x90"},
		{"[]float64", []float64(nil), "\x90"},
		{"a named slice", names(nil), "\x90"},
		{"an item", []any{[]string(nil)}, "\x91\x90"},
		{"[]byte", []byte(nil), "\xc0"},
		{"map", map[string]any(nil), "\xc0"},
		{"pointer", (*int)(nil), "\xc0"},
		{"in a Dict", map[string]any{"a": []int(nil)}, "\x81\xa1a\xc0"},
	} {
		b, err := c.AppendValue(nil, tc.v, 1)
		if err != nil || string(b) != tc.want {
			t.Errorf("%s: %q, %v; want %q", tc.name, b, err, tc.want)
		}
	}
	b, err := msgpackrpc.AppendAtomicCalls(nil, []int{0}, func(int) (string, []any) {
		return "setqflist", []any{[]map[string]any(nil), []byte(nil)}
	})
	if want := "\x91" + msgpackrpc.AtomicCallPrefix + "\x92\xa9setqflist\x92\x90\xc0"; err != nil || string(b) != want {
		t.Errorf("a batch: %q, %v; want %q", b, err, want)
	}
}
