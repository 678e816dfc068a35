package vimfn_test

import (
	"context"
	"fmt"

	"github.com/vigorvim/vigor"
	"github.com/vigorvim/vigor/std/vimfn"
)

// neovim is a Caller that says it is Neovim. It has no editor behind it:
// a call through it would panic, and the example makes none.
type neovim struct{ vigor.Caller }

func (neovim) Meta() vigor.Meta                        { return vigor.Meta{Host: "nvim"} }
func (neovim) Batching() (*vigor.Plugin, *vigor.Batch) { return nil, nil }

// A Vim-only wrapper under Neovim fails without calling the editor.
func Example() {
	_, err := vimfn.PopupCreate(context.Background(), neovim{}, "hello", map[string]any{})
	fmt.Println(err)
	// Output:
	// vimfn.PopupCreate: popup_create() is a Vim function; Neovim does not have it
}
