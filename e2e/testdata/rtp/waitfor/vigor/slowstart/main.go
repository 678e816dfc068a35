// Command slowstart takes 3 s to set up, so that a request waits for it.
package main

import (
	"context"
	"time"

	"github.com/vigorvim/vigor"
)

func main() {
	vigor.Main(func(ctx context.Context, p *vigor.Plugin) error {
		time.Sleep(3 * time.Second)
		p.Handle("ping", func() string { return "pong" })
		return nil
	})
}
