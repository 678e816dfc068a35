package vimjson_test

import (
	"strings"
	"testing"

	"github.com/vigorvim/vigor/internal/codec/vimjson"
	"github.com/vigorvim/vigor/internal/wire"
)

func TestIsNull(t *testing.T) {
	c := vimjson.New(strings.NewReader(""))
	for raw, want := range map[string]bool{
		`null`: true, " null\n": true,
		`0`: false, `"null"`: false, `[]`: false, `nullx`: false, ``: false, "\xc0": false,
	} {
		if got := c.IsNull(wire.Raw(raw)); got != want {
			t.Errorf("IsNull(%q) = %v, want %v", raw, got, want)
		}
	}
}
