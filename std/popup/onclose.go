package popup

import (
	"fmt"

	"github.com/vigorvim/vigor"
)

// onClose returns the Vim expression that the editor evaluates when the
// popup closes ("" for none), and a func that releases what it holds.
func (o *Options) onClose(fn string, c vigor.Caller) (string, func(), error) {
	if o.OnClose != nil {
		return "", nil, fmt.Errorf("%s: OnClose is not supported", fn)
	}
	return "", func() {}, nil
}
