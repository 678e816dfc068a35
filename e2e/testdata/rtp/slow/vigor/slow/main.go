// Command slow takes a while to set up.
package main

import (
	"context"
	"time"

	"github.com/vigorvim/vigor"
)

func main() {
	vigor.Main(func(ctx context.Context, p *vigor.Plugin) error {
		time.Sleep(400 * time.Millisecond)
		p.Handle("ping", func() string { return "pong" })
		return nil
	})
}
