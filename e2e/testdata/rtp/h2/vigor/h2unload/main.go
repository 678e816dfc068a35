// Command h2unload misbehaves on unload: its request_async method stuck
// ignores its ctx, and after hang_hook its unload hook ignores its ctx too.
package main

import (
	"context"
	"os"
	"sync/atomic"

	"github.com/vigorvim/vigor"
)

func main() {
	vigor.Main(func(ctx context.Context, p *vigor.Plugin) error {
		var hang atomic.Bool
		never := make(chan struct{})
		p.Handle("pid", func() int { return os.Getpid() })
		p.Handle("hang_hook", func() { hang.Store(true) })
		p.Handle("stuck", func(ctx context.Context) { <-never })
		p.OnUnload(func(ctx context.Context) error {
			if hang.Load() {
				<-never
			}
			return nil
		})
		return nil
	})
}
