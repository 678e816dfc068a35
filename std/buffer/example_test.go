package buffer_test

import (
	"context"
	"fmt"

	"github.com/vigorvim/vigor"
	"github.com/vigorvim/vigor/std/buffer"
)

// shell is a stand-in for the editor: it prints each call and answers
// Open with buffer 3 in window 1000 of tab page 1.
type shell struct{}

func (shell) CallInto(ctx context.Context, result any, fn string, args ...any) error {
	fmt.Printf("call %s %v\n", fn, args)
	if r, ok := result.(*buffer.Opened); ok {
		*r = buffer.Opened{Bufnr: 3, Winid: 1000, Tabnr: 1}
	}
	return nil
}

func (shell) EvalInto(ctx context.Context, result any, expr string, vars map[string]any) error {
	return nil
}

func (shell) Cmd(ctx context.Context, cmd string, vars map[string]any) error { return nil }

func (shell) Meta() vigor.Meta { return vigor.Meta{Host: "vim"} }

func (shell) Batching() (*vigor.Plugin, *vigor.Batch) { return nil, nil }

// Each function is one call to a helper of Vigor's runtime. A plugin
// passes its *vigor.Plugin (or a *vigor.Batch) where this example passes
// a stand-in that prints the calls.
func Example() {
	ctx := context.Background()
	var c vigor.Caller = shell{}
	o, _ := buffer.Open(ctx, c, "notes.txt", buffer.OpenOptions{Opener: "vsplit", Mods: "botright"})
	fmt.Printf("%+v\n", o)
	buffer.Replace(ctx, c, o.Bufnr, []string{"one", "two"})
	buffer.Decorate(ctx, c, o.Bufnr, "example", []buffer.Decoration{{Line: 1, Col: 1, Length: 3, Highlight: "Search"}})
	d, _ := buffer.Decode(ctx, c, []byte("\xef\xbb\xbfa\r\nb\r\n"), buffer.DecodeOptions{})
	fmt.Printf("%q %s bom=%v %s\n", d.Lines, d.Encoding, d.BOM, d.Fileformat)
	fmt.Println(buffer.Open(ctx, c, "x", buffer.OpenOptions{Mods: "botright | echo"}))
	// Output:
	// call vigor#_internal#buffer#open [notes.txt vsplit botright  false]
	// {Bufnr:3 Winid:1000 Tabnr:1}
	// call vigor#_internal#buffer#replace [3 [one two]]
	// call vigor#_internal#buffer#decorate [3 example [{1 1 3 Search}]]
	// ["a" "b"] utf-8 bom=true dos
	// {0 0 0} buffer.Open: "|" is not a command modifier
}
