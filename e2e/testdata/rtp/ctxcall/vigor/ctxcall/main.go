// Command ctxcall calls the editor with a ctx that may end before the
// editor answers, for the end-to-end tests of the session.
package main

import (
	"context"
	"time"

	"github.com/vigorvim/vigor"
)

func main() {
	vigor.Main(func(ctx context.Context, p *vigor.Plugin) error {
		// call_within calls the editor function fn with a deadline of ms
		// milliseconds, and tells how long the call took and how it ended.
		p.Handle("call_within", func(ctx context.Context, fn string, ms int) map[string]any {
			c, cancel := context.WithTimeout(ctx, time.Duration(ms)*time.Millisecond)
			defer cancel()
			start := time.Now()
			v, err := p.Call(c, fn)
			out := map[string]any{"ms": time.Since(start).Milliseconds(), "result": v, "error": ""}
			if err != nil {
				out["error"] = err.Error()
			}
			return out
		})
		return nil
	})
}
