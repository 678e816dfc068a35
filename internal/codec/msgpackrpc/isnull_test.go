package msgpackrpc_test

import (
	"strings"
	"testing"

	"github.com/vigorvim/vigor/internal/codec/msgpackrpc"
	"github.com/vigorvim/vigor/internal/wire"
)

func TestIsNull(t *testing.T) {
	c := msgpackrpc.New(strings.NewReader(""))
	for raw, want := range map[string]bool{
		"\xc0": true,
		"\xc2": false, "\x00": false, "\x91\xc0": false, "": false, "null": false,
	} {
		if got := c.IsNull(wire.Raw(raw)); got != want {
			t.Errorf("IsNull(%q) = %v, want %v", raw, got, want)
		}
	}
}
