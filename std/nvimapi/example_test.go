package nvimapi_test

import (
	"context"
	"fmt"

	"github.com/vigorvim/vigor"
	"github.com/vigorvim/vigor/std/nvimapi"
)

// A handler that replaces the current buffer's lines through Neovim's API
// and reads them back; 0 is the current buffer.
func Example() {
	vigor.Main(func(ctx context.Context, p *vigor.Plugin) error {
		p.Handle("reset", func(ctx context.Context, lines []string) ([]string, error) {
			if err := nvimapi.BufSetLines(ctx, p, 0, 0, -1, false, lines); err != nil {
				return nil, err
			}
			return nvimapi.BufGetLines(ctx, p, 0, 0, -1, true)
		})
		return nil
	})
}

// vim is a Caller that says it is Vim. It has no editor behind it: a call
// through it would panic, and the example makes none.
type vim struct{ vigor.Caller }

func (vim) Meta() vigor.Meta                        { return vigor.Meta{Host: "vim"} }
func (vim) Batching() (*vigor.Plugin, *vigor.Batch) { return nil, nil }

// Under Vim every wrapper fails without calling the editor.
func Example_vim() {
	_, err := nvimapi.GetCurrentBuf(context.Background(), vim{})
	fmt.Println(err)
	// Output:
	// nvimapi.GetCurrentBuf: nvim_get_current_buf() is a Neovim API function; Vim does not have it
}
