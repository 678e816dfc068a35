package msgpackrpc_test

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/vigorvim/vigor/internal/codec/msgpackrpc"
)

// The params *FuncCall are written as []any{Fn, Args} is: the same bytes,
// and the same error for a value that cannot be sent.
func TestFuncCallParams(t *testing.T) {
	deep := []any{}
	for range msgpackrpc.MaxMessageDepth {
		deep = []any{deep}
	}
	for _, args := range [][]any{nil, {}, {1, "a", []any{2.5}}, {uint64(math.MaxUint64)}, {deep}} {
		c := msgpackrpc.New(strings.NewReader(""))
		want, werr := c.AppendRequest(nil, 7, "nvim_call_function", []any{"Fn", args})
		got, gerr := c.AppendRequest(nil, 7, "nvim_call_function", []any{&msgpackrpc.FuncCall{Fn: "Fn", Args: args}})
		if (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
			t.Errorf("args %v: error %v, want %v", args, gerr, werr)
			continue
		}
		if werr == nil && !bytes.Equal(got, want) {
			t.Errorf("args %v: % x, want % x", args, got, want)
		}
		want, werr = c.AppendNotification(nil, "nvim_call_function", []any{"Fn", args})
		got, gerr = c.AppendNotification(nil, "nvim_call_function", []any{&msgpackrpc.FuncCall{Fn: "Fn", Args: args}})
		if (werr == nil) != (gerr == nil) || werr == nil && !bytes.Equal(got, want) {
			t.Errorf("notification, args %v: % x (%v), want % x (%v)", args, got, gerr, want, werr)
		}
	}
}
