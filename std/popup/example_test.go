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
	return nil
}

func (shell) EvalInto(ctx context.Context, result any, expr string, vars map[string]any) error {
	fmt.Printf("eval %s %v\n", expr, vars)
	if r, ok := result.(*popup.ID); ok {
		*r = 1000
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
	// eval vigor#_internal#popup#open(l:a, l:b, l:c, l:d, l:e) map[a:[main.go go.mod] b:map[border:[] borderchars:[─ │ ─ │ ┌ ┐ ┘ └] col:5 fixed:true line:3 maxheight:0 maxwidth:40 minheight:0 minwidth:0 pos:topleft posinvert:false scrollbar:false title:Files zindex:50] c:map[] d: e:]
	// opened 1000
	// cmd  call vigor#_internal#popup#setlines(l:a, l:b) map[a:1000 b:[main.go]]
	// cmd  call vigor#_internal#popup#close(l:a) map[a:1000]
	// popup.Open: a title needs a border
}
