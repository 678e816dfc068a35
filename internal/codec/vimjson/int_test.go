package vimjson

import (
	"encoding/json"
	"testing"

	"github.com/vigorvim/vigor/internal/wire"
)

// Unmarshal into an *int64 or an *int gives what encoding/json gives, for
// integers it reads without a decoder and for what it leaves to one.
func TestUnmarshalInt(t *testing.T) {
	for _, r := range []string{"0", "7", "-7", "9223372036854775807", "-9223372036854775808",
		"9223372036854775808", "1.5", "1e3", `"7"`, "null", "-"} {
		var fast64, slow64 int64
		var fast, slow int
		err1, err2 := Unmarshal(wire.Raw(r), &fast64), json.Unmarshal([]byte(r), &slow64)
		err3, err4 := Unmarshal(wire.Raw(r), &fast), json.Unmarshal([]byte(r), &slow)
		if (err1 == nil) != (err2 == nil) || fast64 != slow64 || (err3 == nil) != (err4 == nil) || fast != slow {
			t.Errorf("%s: Unmarshal gives %d (%v) and %d (%v), encoding/json %d (%v) and %d (%v)",
				r, fast64, err1, fast, err3, slow64, err2, slow, err4)
		}
	}
}
