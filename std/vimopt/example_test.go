package vimopt_test

import (
	"context"
	"fmt"

	"github.com/vigorvim/vigor"
	"github.com/vigorvim/vigor/std/vimopt"
)

// neovim is a stand-in for Neovim that no call reaches.
type neovim struct{}

func (neovim) CallInto(context.Context, any, string, ...any) error {
	panic("no call expected")
}

func (neovim) EvalInto(context.Context, any, string, map[string]any) error {
	panic("no call expected")
}

func (neovim) Cmd(context.Context, string, map[string]any) error { panic("no call expected") }

func (neovim) Meta() vigor.Meta { return vigor.Meta{Host: "nvim"} }

func (neovim) Batching() (*vigor.Plugin, *vigor.Batch) { return nil, nil }

// A Vim-only option used in Neovim fails without a call to the editor.
func Example() {
	_, err := vimopt.Compatible.Get(context.Background(), neovim{})
	fmt.Println(err)
	// Output:
	// vimopt.Compatible.Get: 'compatible' is a Vim option; Neovim does not have it
}
