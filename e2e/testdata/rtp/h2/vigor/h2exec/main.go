// Command h2exec runs Ex commands and scripts for the tests of Cmd and
// Exec.
package main

import (
	"context"
	"errors"

	"github.com/vigorvim/vigor"
)

func main() {
	vigor.Main(func(ctx context.Context, p *vigor.Plugin) error {
		p.Handle("cmd", func(ctx context.Context, cmd string) error { return p.Cmd(ctx, cmd, nil) })
		p.Handle("exec", func(ctx context.Context, lines ...string) error { return p.Exec(ctx, lines...) })
		// The error's parts, to check that it is an *EditorError.
		p.Handle("exec_error", func(ctx context.Context, lines ...string) (map[string]string, error) {
			err := p.Exec(ctx, lines...)
			var ee *vigor.EditorError
			if !errors.As(err, &ee) {
				return nil, errors.New("not an *EditorError")
			}
			return map[string]string{"fn": ee.Fn, "msg": ee.Msg}, nil
		})
		return nil
	})
}
