// Command bigmsg1 is one of two identical plugins (bigmsg1, bigmsg2) that
// send and receive large messages at the same time, for the tests of
// chunked messages on Vim (e2e/bigmsg_test.go).
package main

import (
	"context"
	"os"
	"strings"

	"github.com/vigorvim/vigor"
)

func main() {
	vigor.Main(func(ctx context.Context, p *vigor.Plugin) error {
		// roundtrip has the editor copy s (a large call), and answers the
		// copy after the plugin's name (a large answer).
		p.Handle("roundtrip", func(ctx context.Context, s string) (string, error) {
			v, err := vigor.CallAs[string](ctx, p, "copy", s)
			return p.Name() + ":" + v, err
		})
		p.Handle("pid", os.Getpid)
		// flood starts a large call of n bytes and answers before it is
		// sent: the test kills the process while the editor receives it.
		// The call sets g:flooded if it arrives in full.
		p.Handle("flood", func(n int) bool {
			go func() {
				_ = p.Cmd(p.Context(), "let g:flooded = len(l:s)", map[string]any{"s": strings.Repeat("f", n)})
			}()
			return true
		})
		return nil
	})
}
