package fn_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/vigorvim/vigor"
	"github.com/vigorvim/vigor/std/fn"
)

// A handler that reads the buffer through typed wrappers: getline(1, '$')
// is GetlineEnd, a []string, and wordcount() a map.
func Example() {
	vigor.Main(func(ctx context.Context, p *vigor.Plugin) error {
		// vigor#request('demo', 'summary', [])
		p.Handle("summary", func(ctx context.Context) (string, error) {
			lines, err := fn.GetlineEnd(ctx, p, 1, "$")
			if err != nil {
				return "", err
			}
			wc, err := fn.Wordcount(ctx, p)
			if err != nil {
				return "", err
			}
			return fmt.Sprintf("%d lines, %v words: %s", len(lines), wc["words"], strings.Join(lines, " / ")), nil
		})
		return nil
	})
}

// The same wrappers record into a batch, which runs them in one round
// trip; b.Into(&v) receives a result once the batch has run (a Boolean
// one into a bool: the Number 1 or 0 is true or false).
func Example_batch() {
	vigor.Main(func(ctx context.Context, p *vigor.Plugin) error {
		p.Handle("state", func(ctx context.Context) (map[string]any, error) {
			var first string
			var last int
			var modified bool
			err := p.Batch(ctx, func(b *vigor.Batch) error {
				if _, err := fn.Getline(ctx, b.Into(&first), 1); err != nil {
					return err
				}
				if _, err := fn.Line(ctx, b.Into(&last), "$"); err != nil {
					return err
				}
				_, err := fn.Eval(ctx, b.Into(&modified), "&modified")
				return err
			})
			return map[string]any{"first": first, "lines": last, "modified": modified}, err
		})
		return nil
	})
}
