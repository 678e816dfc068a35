// Command h5toolchain has a toolchain line for a Go that does not exist:
// it must build with the installed Go, without fetching one.
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
