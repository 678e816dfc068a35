// Command kit is vigortest's fixture plugin: its handlers show messages,
// and its repository has the Vim-script files a plugin ships.
package main

import (
	"context"

	"github.com/vigorvim/vigor"
)

func main() {
	vigor.Main(func(ctx context.Context, p *vigor.Plugin) error {
		p.Handle("say", func(ctx context.Context, msg string) error {
			p.Infof(ctx, "%s", msg)
			return nil
		})
		p.Handle("complain", func(ctx context.Context, msg string) error {
			p.Errorf(ctx, "%s", msg)
			return nil
		})
		return nil
	})
}
