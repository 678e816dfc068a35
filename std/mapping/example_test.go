package mapping_test

import (
	"context"
	"fmt"

	"github.com/vigorvim/vigor"
	"github.com/vigorvim/vigor/std/mapping"
)

// shell is a stand-in for the editor: it prints the commands it is given
// and the values that reach it as l: variables.
type shell struct{}

func (shell) CallInto(ctx context.Context, result any, fn string, args ...any) error {
	return nil
}

func (shell) EvalInto(ctx context.Context, result any, expr string, vars map[string]any) error {
	return nil
}

func (shell) Cmd(ctx context.Context, cmd string, vars map[string]any) error {
	fmt.Printf("%s  l:m=%q l:l=%q l:r=%q\n", cmd, vars["m"], vars["l"], vars["r"])
	return nil
}

func (shell) Meta() vigor.Meta { return vigor.Meta{Host: "vim"} }

func (shell) Batching() (*vigor.Plugin, *vigor.Batch) { return nil, nil }

// Map builds the :map command from fixed words and passes the keys as l:
// variables, escaped for :map. A plugin passes its *vigor.Plugin (or a
// *vigor.Batch) where this example passes a stand-in that prints them.
func Example() {
	ctx := context.Background()
	var p shell
	_ = mapping.Map(ctx, p, mapping.Normal, "<Leader>f", ":Find a|b<CR>", mapping.Options{Silent: true})
	_ = mapping.Map(ctx, p, mapping.Insert, "jk", "<Esc>", mapping.Options{Buffer: true, Remap: true})
	fmt.Println(mapping.Map(ctx, p, mapping.Normal, "x", "", mapping.Options{}))
	fmt.Println(mapping.Map(ctx, p, "q", "x", "y", mapping.Options{}))
	// Output:
	// execute l:m l:l l:r  l:m="nnoremap <silent>" l:l="<Leader>f" l:r=":Find a<Bar>b<CR>"
	// execute l:m l:l l:r  l:m="imap <buffer>" l:l="jk" l:r="<Esc>"
	// mapping.Map: the right-hand side is empty (use "<Nop>" for a mapping that does nothing)
	// mapping.Map: "q" is not a mode (one of "", n, v, x, s, o, i, c, t, l, !)
}
