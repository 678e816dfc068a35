// Command hbflood writes to its stderr as a chatty plugin does, and dies
// of a panic on request (e2e/stderr_test.go).
package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/vigorvim/vigor"
)

func main() {
	vigor.Main(func(ctx context.Context, p *vigor.Plugin) error {
		// flood writes n lines "tag i" to stderr, one write each, and
		// returns n once they are written.
		p.Handle("flood", func(n int, tag string) (int, error) {
			for i := range n {
				if _, err := fmt.Fprintf(os.Stderr, "%s %d\n", tag, i); err != nil {
					return i, fmt.Errorf("write line %d: %w", i, err)
				}
			}
			return n, nil
		})
		// panic panics in the handler: the SDK recovers it.
		p.Handle("panic", func(msg string) error { panic(msg) })
		// die panics on a goroutine of its own, once its answer has had
		// the time to go out: nothing recovers it, and the process exits
		// with Go's panic report on stderr.
		p.Handle("die", func(msg string) string {
			go func() { time.Sleep(100 * time.Millisecond); panic(msg) }()
			return "dying"
		})
		// quit writes line to stderr and exits with status 4.
		p.Handle("quit", func(line string) {
			fmt.Fprintln(os.Stderr, line)
			os.Exit(4)
		})
		return nil
	})
}
