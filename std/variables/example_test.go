package variables_test

import (
	"context"
	"fmt"

	"github.com/vigorvim/vigor"
	"github.com/vigorvim/vigor/std/variables"
)

// shell is a stand-in for the editor: it prints what each function asks
// of it and answers an evaluation with the default it was given.
type shell struct{}

func (shell) CallInto(ctx context.Context, result any, fn string, args ...any) error {
	fmt.Printf("call %s%q\n", fn, args)
	return nil
}

func (shell) EvalInto(ctx context.Context, result any, expr string, vars map[string]any) error {
	fmt.Printf("eval %s  l:n=%q\n", expr, vars["n"])
	if r, ok := result.(*int); ok {
		*r = vars["d"].(int)
	}
	return nil
}

func (shell) Cmd(ctx context.Context, cmd string, vars map[string]any) error {
	fmt.Printf("cmd  %s %v\n", cmd, vars)
	return nil
}

func (shell) Meta() vigor.Meta { return vigor.Meta{Host: "vim"} }

func (shell) Batching() (*vigor.Plugin, *vigor.Batch) { return nil, nil }

// Each function is one call to the editor. A plugin passes its
// *vigor.Plugin (or a *vigor.Batch) where this example passes a stand-in
// that prints the calls.
func Example() {
	ctx := context.Background()
	var c vigor.Caller = shell{}
	n, _ := variables.Get(ctx, c, variables.G, "myplugin_count", 10)
	fmt.Println("count", n)
	variables.Set(ctx, c, variables.B, "myplugin_lines", 42)
	variables.Remove(ctx, c, variables.Env, "MYPLUGIN_DEBUG")
	variables.Set(ctx, c, variables.Register, "a", []string{"one", "two"})
	variables.BufSet(ctx, c, 3, "myplugin_lines", 42)
	variables.DictSet(ctx, c, variables.G, "myplugin", "width", 80)
	fmt.Println(variables.Set(ctx, c, variables.G, "1x", 1))
	fmt.Println(variables.TabRemove(ctx, c, 0, "x"))
	// Output:
	// eval get(g:, l:n, l:d)  l:n="myplugin_count"
	// count 10
	// cmd  let b:myplugin_lines = l:v map[v:42]
	// cmd  unlet! $MYPLUGIN_DEBUG map[]
	// call setreg["a" ["one" "two"]]
	// cmd  if !(bufexists(l:i)) | throw l:e | endif | call setbufvar(l:i, l:n, l:v) map[e:there is no buffer 3 i:3 n:myplugin_lines v:42]
	// cmd  if !has_key(g:, l:n) | let g:myplugin = {} | endif | let g:myplugin[l:k] = l:v map[k:width n:myplugin v:80]
	// variables.Set: "1x" is not a variable name
	// variables.TabRemove: 0 is not a tab page number
}
