// Command spin has a handler that ignores its context: it never returns,
// and calls the editor from a goroutine of its own, until its process
// ends. Beside it, a handler that stops when its context ends.
package main

import (
	"context"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/vigorvim/vigor"
)

func main() {
	vigor.Main(func(ctx context.Context, p *vigor.Plugin) error {
		// running counts the spin handlers that have not returned.
		var running atomic.Int64
		p.Handle("pid", func() int { return os.Getpid() })
		p.Handle("running", func() int64 { return running.Load() })
		// spin never returns: it blocks, ignoring its ctx, while a
		// goroutine of its own counts it in g:spin_calls every 50 ms. To
		// the runtime a handler that blocks is one that spins, and it
		// costs no CPU beside the other tests. A tag that is an absolute
		// path is a file that spin creates once it runs, for a test whose
		// editor waits in the call and cannot be asked.
		p.Handle("spin", func(tag string) error {
			running.Add(1)
			if filepath.IsAbs(tag) {
				if err := os.WriteFile(tag, nil, 0o600); err != nil {
					return err
				}
			}
			go func() {
				for {
					if err := p.Cmd(context.Background(), "let g:spin_calls = get(g:, 'spin_calls', 0) + 1", nil); err != nil {
						return
					}
					time.Sleep(50 * time.Millisecond)
				}
			}()
			for {
				time.Sleep(time.Hour)
			}
		})
		// polite waits ms milliseconds, or returns when its ctx ends.
		p.Handle("polite", func(ctx context.Context, ms int) (int, error) {
			select {
			case <-time.After(time.Duration(ms) * time.Millisecond):
				return ms, nil
			case <-ctx.Done():
				return 0, context.Cause(ctx)
			}
		})
		return nil
	})
}
