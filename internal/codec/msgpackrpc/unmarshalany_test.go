package msgpackrpc_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/vigorvim/vigor/internal/codec/msgpackrpc"
	"github.com/vigorvim/vigor/internal/wire"
)

// UnmarshalAny returns what Unmarshal puts into an empty *any, and
// decodes a small Number without allocating.
func TestUnmarshalAny(t *testing.T) {
	c := msgpackrpc.New(strings.NewReader(""))
	for _, v := range []any{nil, true, 0, 7, -300, 1.5, "s", []any{1, "a"}, map[string]any{"k": 1}} {
		raw, err := c.AppendResponse(nil, 1, v)
		if err != nil {
			t.Fatal(err)
		}
		var m wire.Message
		if err := msgpackrpc.New(strings.NewReader(string(raw))).ReadMessage(&m); err != nil {
			t.Fatal(err)
		}
		var want any
		werr := c.Unmarshal(m.Result, &want)
		got, gerr := c.UnmarshalAny(m.Result)
		if !reflect.DeepEqual(got, want) || (werr == nil) != (gerr == nil) {
			t.Errorf("%#v: UnmarshalAny = %#v, %v; Unmarshal = %#v, %v", v, got, gerr, want, werr)
		}
	}
	small := wire.Raw{0x05}
	if n := testing.AllocsPerRun(100, func() { _, _ = c.UnmarshalAny(small) }); n != 0 {
		t.Errorf("UnmarshalAny of a small Number: %v allocations, want 0", n)
	}
}
