// Command lazyundef is declared lazy, but its setup defines none of what
// its lazy.json declares, on purpose.
package main

import (
	"context"

	"github.com/vigorvim/vigor"
)

func main() {
	vigor.Main(func(ctx context.Context, p *vigor.Plugin) error {
		p.Handle("ping", func() string { return "pong" })
		return nil
	})
}
