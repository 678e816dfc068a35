package popup

import (
	"context"
	"fmt"

	"github.com/vigorvim/vigor"
	"github.com/vigorvim/vigor/std/lambda"
)

// onClose returns the Vim expression that the editor evaluates (with l:id
// the popup's ID) when the popup closes, "" for none, and a func that
// releases the Go function when the popup is not made.
//
// The Go function is a lambda of the plugin: it unregisters itself when
// it runs, the one time the popup closes; a popup that a failed batch
// never made keeps its lambda until the plugin unloads.
func (o *Options) onClose(fn string, c vigor.Caller) (string, func(), error) {
	if o.OnClose == nil {
		return "", func() {}, nil
	}
	p, _ := c.Batching()
	if p == nil {
		return "", nil, fmt.Errorf("%s: OnClose needs the plugin's *vigor.Plugin or *vigor.Batch as the Caller", fn)
	}
	f := o.OnClose
	var l *lambda.Lambda
	// l is set before the editor can call it: only after Open's call.
	l = lambda.Register(p, func(ctx context.Context, id int) {
		l.Unregister()
		f(ctx, ID(id))
	})
	return l.Notify("l:id"), l.Unregister, nil
}
