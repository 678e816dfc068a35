// Command h5tidy imports a package that no requirement of its go.mod
// provides: its build must fail and say what to run, not look it up.
package main

import (
	"context"

	"example.com/h5absent/lib"
	"github.com/vigorvim/vigor"
)

func main() {
	vigor.Main(func(ctx context.Context, p *vigor.Plugin) error {
		p.Handle("ping", func() string { return lib.Pong() })
		return nil
	})
}
