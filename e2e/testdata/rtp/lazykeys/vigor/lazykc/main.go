// Command lazykc is declared lazy with the mapping <C-\> (lazy.json),
// which holds a backslash: its setup maps it for real, under the default
// 'cpoptions', to add 'c' to g:lazykeys.
package main

import (
	"context"

	"github.com/vigorvim/vigor"
)

func main() {
	vigor.Main(func(ctx context.Context, p *vigor.Plugin) error {
		return p.Exec(ctx,
			`let g:lazykc_cpo = &cpo`,
			`set cpo&vim`,
			`nnoremap <C-\> <Cmd>call add(g:lazykeys, 'c')<CR>`,
			`let &cpo = g:lazykc_cpo`)
	})
}
