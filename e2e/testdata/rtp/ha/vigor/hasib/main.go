// Command hasib is a plain plugin that runs beside hafault.
package main

import (
	"context"
	"os"

	"github.com/vigorvim/vigor"
)

func main() {
	vigor.Main(func(ctx context.Context, p *vigor.Plugin) error {
		p.Handle("pid", func() int { return os.Getpid() })
		return nil
	})
}
