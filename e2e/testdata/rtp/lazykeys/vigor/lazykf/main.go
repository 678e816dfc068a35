// Command lazykf is declared lazy with the mapping \f (lazy.json),
// which holds a backslash: its setup maps it for real, under the default
// 'cpoptions', to add 'f' to g:lazykeys.
package main

import (
	"context"

	"github.com/vigorvim/vigor"
)

func main() {
	vigor.Main(func(ctx context.Context, p *vigor.Plugin) error {
		return p.Exec(ctx,
			`let g:lazykf_cpo = &cpo`,
			`set cpo&vim`,
			`nnoremap \f <Cmd>call add(g:lazykeys, 'f')<CR>`,
			`let &cpo = g:lazykf_cpo`)
	})
}
