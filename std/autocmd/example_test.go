package autocmd_test

import (
	"context"
	"fmt"

	"github.com/vigorvim/vigor"
	"github.com/vigorvim/vigor/std/autocmd"
)

// shell is a stand-in for the editor: it prints each call it gets.
type shell struct{}

func (shell) CallInto(ctx context.Context, result any, fn string, args ...any) error {
	fmt.Println("call", fn)
	return nil
}

func (shell) EvalInto(ctx context.Context, result any, expr string, vars map[string]any) error {
	return nil
}

func (shell) Cmd(ctx context.Context, cmd string, vars map[string]any) error { return nil }

func (shell) Meta() vigor.Meta { return vigor.Meta{Host: "vim"} }

func (shell) Batching() (*vigor.Plugin, *vigor.Batch) { return nil, nil }

// Group clears the group and defines its autocommands in one call. A
// plugin passes its *vigor.Plugin (or a *vigor.Batch) where this example
// passes a stand-in that prints the calls.
func Example() {
	ctx := context.Background()
	var c vigor.Caller = shell{}
	err := autocmd.Group(ctx, c, "myplugin", func(g *autocmd.GroupDefs) error {
		if err := g.Define(autocmd.Def{Events: []string{"BufWritePost"}, Patterns: []string{"*.go"}, Cmd: "echo 'saved'"}); err != nil {
			return err
		}
		return g.Define(autocmd.Def{Events: []string{"User"}, Patterns: []string{"MyPluginReady"}, Once: true, Cmd: "echo 'ready'"})
	})
	fmt.Println(err)
	fmt.Println(autocmd.Emit(ctx, c, "User", "MyPluginReady"))
	fmt.Println(autocmd.Define(ctx, c, autocmd.Def{Events: []string{"Buf Enter"}, Cmd: "echo"}))
	// Output:
	// call vigor#_internal#autocmd#run
	// <nil>
	// call vigor#_internal#autocmd#emit
	// <nil>
	// autocmd.Define: "Buf Enter" is not an event name
}
