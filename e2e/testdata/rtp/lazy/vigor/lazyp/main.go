// Command lazyp is declared lazy (lazy.json): its setup defines for real
// the command, mapping, autocommand and function that start it, and
// records how each was used.
package main

import (
	"context"
	"sync"

	"github.com/vigorvim/vigor"
)

func main() {
	vigor.Main(func(ctx context.Context, p *vigor.Plugin) error {
		var mu sync.Mutex
		var log []any
		record := func(what ...any) {
			mu.Lock()
			log = append(log, what)
			mu.Unlock()
		}
		p.Handle("cmd", func(args string, line1, line2 int, bang string) { record("cmd", args, line1, line2, bang) })
		p.Handle("mapped", func() { record("mapped") })
		p.Handle("ft", func(ft string) { record("ft", ft) })
		p.Handle("fn", func(x string) string { record("fn", x); return "fn:" + x })
		p.Handle("log", func() []any {
			mu.Lock()
			defer mu.Unlock()
			return append([]any{}, log...)
		})
		return p.Exec(ctx,
			`command! -nargs=* -range -bang LazyHello call vigor#request('lazyp', 'cmd', [<q-args>, <line1>, <line2>, <q-bang>])`,
			`nnoremap <Plug>(lazy-hello) <Cmd>call vigor#request('lazyp', 'mapped', [])<CR>`,
			`augroup lazyp`,
			`  autocmd!`,
			`  autocmd FileType lazytest call vigor#request('lazyp', 'ft', [expand('<amatch>')])`,
			`augroup END`,
			`function! LazyHello(x) abort`,
			`  return vigor#request('lazyp', 'fn', [a:x])`,
			`endfunction`)
	})
}
