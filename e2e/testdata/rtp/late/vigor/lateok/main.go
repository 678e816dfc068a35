// Command lateok loads, after 3 s: the other plugin of the startup
// whose summary names latefail.
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
