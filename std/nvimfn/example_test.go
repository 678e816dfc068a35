package nvimfn_test

import (
	"context"

	"github.com/vigorvim/vigor"
	"github.com/vigorvim/vigor/std/nvimfn"
)

// A handler that uses a Neovim-only function; under Vim the wrapper
// returns an error naming the function and the editor, which the user
// sees as the request's error.
func Example() {
	vigor.Main(func(ctx context.Context, p *vigor.Plugin) error {
		// vigor#request('demo', 'width16', ['a😀'])
		p.Handle("width16", func(ctx context.Context, s string) (int, error) {
			return nvimfn.Strutf16len(ctx, p, s)
		})
		return nil
	})
}
