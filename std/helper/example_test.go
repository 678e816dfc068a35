package helper_test

import (
	"context"
	"fmt"

	"github.com/vigorvim/vigor"
	"github.com/vigorvim/vigor/std/helper"
)

// shell is a stand-in for the editor: it prints each call, and answers
// input() as a user who typed "notes.txt" would.
type shell struct{}

func (shell) CallInto(ctx context.Context, result any, fn string, args ...any) error {
	fmt.Printf("call %s%v\n", fn, args)
	if r, ok := result.(*[]any); ok {
		*r = []any{"notes.txt", int64(1)}
	}
	return nil
}

func (shell) EvalInto(ctx context.Context, result any, expr string, vars map[string]any) error {
	return nil
}

func (shell) Cmd(ctx context.Context, cmd string, vars map[string]any) error { return nil }

func (shell) Meta() vigor.Meta { return vigor.Meta{Host: "vim"} }

func (shell) Batching() (*vigor.Plugin, *vigor.Batch) { return nil, nil }

// Each function is one call to the editor. A plugin passes its
// *vigor.Plugin (or a *vigor.Batch, but not to Input) where this example
// passes a stand-in that prints the calls.
func Example() {
	ctx := context.Background()
	var c vigor.Caller = shell{}
	helper.Echo(ctx, c, "indexed 120 files")
	name, ok, err := helper.Input(ctx, c, helper.InputOptions{Prompt: "Save as: ", Completion: "file"})
	fmt.Println(name, ok, err)
	helper.Keys(ctx, c, "gg", false)
	fmt.Println(helper.Load(ctx, c, "/no/such/file.vim"))
	// Output:
	// call vigor#_internal#helper#echo[indexed 120 files None false]
	// call vigor#_internal#helper#input[map[completion:file default: prompt:Save as: ]]
	// notes.txt true <nil>
	// call feedkeys[gg nx]
	// helper.Load: /no/such/file.vim: no such file
}
