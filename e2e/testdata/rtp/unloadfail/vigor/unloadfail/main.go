// Command unloadfail's unload hook fails.
package main

import (
	"context"
	"errors"

	"github.com/vigorvim/vigor"
)

func main() {
	vigor.Main(func(ctx context.Context, p *vigor.Plugin) error {
		p.Handle("ping", func() string { return "pong" })
		p.OnUnload(func(ctx context.Context) error { return errors.New("could not save the state") })
		return nil
	})
}
