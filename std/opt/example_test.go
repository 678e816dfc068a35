package opt_test

import (
	"context"
	"fmt"

	"github.com/vigorvim/vigor"
	"github.com/vigorvim/vigor/std/opt"
)

// shell is a stand-in for the editor: it prints what each method asks of
// it and answers an evaluation with the value it was given.
type shell struct {
	host   string
	answer any
}

func (s shell) CallInto(ctx context.Context, result any, fn string, args ...any) error {
	fmt.Printf("call %s%v\n", fn, args)
	return nil
}

func (s shell) EvalInto(ctx context.Context, result any, expr string, vars map[string]any) error {
	fmt.Printf("eval %s\n", expr)
	switch r := result.(type) {
	case *int:
		*r = s.answer.(int)
	case *bool:
		*r = s.answer.(bool)
	case *string:
		*r = s.answer.(string)
	}
	return nil
}

func (s shell) Cmd(ctx context.Context, cmd string, vars map[string]any) error {
	fmt.Printf("cmd  %s %v\n", cmd, vars)
	return nil
}

func (s shell) Meta() vigor.Meta { return vigor.Meta{Host: s.host} }

func (s shell) Batching() (*vigor.Plugin, *vigor.Batch) { return nil, nil }

// Each method is one call to the editor. A plugin passes its *vigor.Plugin
// (or a *vigor.Batch) where this example passes a stand-in that prints the
// calls.
func Example() {
	ctx := context.Background()
	var c vigor.Caller = shell{host: "vim", answer: 4}
	opt.Tabstop.SetLocal(ctx, c, 4)
	ts, _ := opt.Tabstop.Get(ctx, c)
	fmt.Println("tabstop", ts)
	opt.Tabstop.SetBuffer(ctx, c, 3, 2)
	opt.Wrap.GetWindow(ctx, shell{host: "vim", answer: false}, 1001)
	opt.Scrolloff.UnsetLocal(ctx, c)
	opt.Ignorecase.Reset(ctx, c)
	// Output:
	// cmd  let &l:tabstop = l:v map[v:4]
	// eval &l:tabstop
	// tabstop 4
	// call setbufvar[3 &tabstop 2]
	// eval (getwinvar(l:n, '&wrap')) ? v:true : v:false
	// cmd  let &l:scrolloff = -1 map[]
	// cmd  set ignorecase& map[]
}
