// Command lazykx is declared lazy with the mapping x\ (lazy.json),
// which holds a backslash: its setup maps it for real, under the default
// 'cpoptions', to add 'x' to g:lazykeys.
package main

import (
	"context"

	"github.com/vigorvim/vigor"
)

func main() {
	vigor.Main(func(ctx context.Context, p *vigor.Plugin) error {
		return p.Exec(ctx,
			`let g:lazykx_cpo = &cpo`,
			`set cpo&vim`,
			`nnoremap x\ <Cmd>call add(g:lazykeys, 'x')<CR>`,
			`let &cpo = g:lazykx_cpo`)
	})
}
