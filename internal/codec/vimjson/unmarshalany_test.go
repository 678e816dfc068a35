package vimjson_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/vigorvim/vigor/internal/codec/vimjson"
	"github.com/vigorvim/vigor/internal/wire"
)

// UnmarshalAny returns what Unmarshal puts into an empty *any, and
// decodes a small Number without allocating.
func TestUnmarshalAny(t *testing.T) {
	c := vimjson.New(strings.NewReader(""))
	for _, r := range []string{`null`, `true`, `0`, `7`, `-300`, `1.5`, `"s"`, `[1,"a"]`, `{"k":1}`, `NaN`, `[`} {
		var want any
		werr := c.Unmarshal(wire.Raw(r), &want)
		got, gerr := c.UnmarshalAny(wire.Raw(r))
		same := reflect.DeepEqual(got, want) || r == `NaN` && got != nil && want != nil
		if !same || (werr == nil) != (gerr == nil) {
			t.Errorf("%s: UnmarshalAny = %#v, %v; Unmarshal = %#v, %v", r, got, gerr, want, werr)
		}
	}
	small := wire.Raw(`0`)
	if n := testing.AllocsPerRun(100, func() { _, _ = c.UnmarshalAny(small) }); n != 0 {
		t.Errorf("UnmarshalAny of a small Number: %v allocations, want 0", n)
	}
}
