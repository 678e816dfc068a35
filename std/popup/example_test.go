package popup_test

import (
	"context"
	"fmt"

	"github.com/vigorvim/vigor"
	"github.com/vigorvim/vigor/std/popup"
)

// shell is a stand-in for Vim: it prints what each function asks of it
// and answers Open with a window ID.
type shell struct{}

func (shell) CallInto(ctx context.Context, result any, fn string, args ...any) error {
	fmt.Printf("call %s%v\n", fn, args)
	if r, ok := result.(*popup.ID); ok {
		*r = 1000
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
// *vigor.Plugin (or a *vigor.Batch) where this example passes a stand-in
// that prints the calls.
func Example() {
	ctx := context.Background()
	var c vigor.Caller = shell{}
	id, _ := popup.Open(ctx, c, popup.Options{
		Position: popup.Position{Row: 2, Col: 4},
		Size:     popup.Size{MaxWidth: 40},
		Border:   popup.Single,
		Title:    "Files",
		Lines:    []string{"main.go", "go.mod"},
	})
	fmt.Println("opened", id)
	popup.SetLines(ctx, c, id, []string{"main.go"})
	popup.Close(ctx, c, id)
	_, err := popup.Open(ctx, c, popup.Options{Title: "Files"})
	fmt.Println(err)
	// Output:
	// call vigor#_internal#popup#open[[main.go go.mod] map[border:[] borderchars:[─ │ ─ │ ┌ ┐ ┘ └] col:5 fixed:true line:3 maxheight:0 maxwidth:40 minheight:0 minwidth:0 pos:topleft posinvert:false scrollbar:false title:Files] map[]  ]
	// opened 1000
	// call vigor#_internal#popup#setlines[1000 [main.go]]
	// call vigor#_internal#popup#close[1000]
	// popup.Open: a title needs a border
}
