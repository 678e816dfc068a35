package nvimopt_test

import (
	"context"
	"fmt"

	"github.com/vigorvim/vigor"
	"github.com/vigorvim/vigor/std/nvimopt"
)

// vim is a stand-in for Vim that no call reaches.
type vim struct{}

func (vim) CallInto(context.Context, any, string, ...any) error { panic("no call expected") }

func (vim) EvalInto(context.Context, any, string, map[string]any) error {
	panic("no call expected")
}

func (vim) Cmd(context.Context, string, map[string]any) error { panic("no call expected") }

func (vim) Meta() vigor.Meta { return vigor.Meta{Host: "vim"} }

func (vim) Batching() (*vigor.Plugin, *vigor.Batch) { return nil, nil }

// A Neovim-only option used in Vim fails without a call to the editor.
func Example() {
	err := nvimopt.Winbar.SetLocal(context.Background(), vim{}, "%f")
	fmt.Println(err)
	// Output:
	// nvimopt.Winbar.SetLocal: 'winbar' is a Neovim option; Vim does not have it
}
