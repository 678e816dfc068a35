package popup

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/vigorvim/vigor"
)

func TestBuild(t *testing.T) {
	o := Options{
		Position: Position{Relative: Cursor, Row: 1, Col: -2, Anchor: SE},
		Size:     Size{Width: 10, MinHeight: 2, MaxHeight: 5},
		Border:   Rounded, Title: "T", Highlight: "Normal", Lines: []string{"a"}, ZIndex: 60,
	}
	vim, err := o.build("f", false)
	if err != nil {
		t.Fatal(err)
	}
	wantVim := map[string]any{
		"line": "cursor+1", "col": "cursor-2", "pos": "botright",
		"minwidth": 10, "maxwidth": 10, "minheight": 2, "maxheight": 5,
		"border": []int{}, "borderchars": []string{"─", "│", "─", "│", "╭", "╮", "╯", "╰"},
		"title": "T", "highlight": "Normal",
		"posinvert": false, "fixed": true, "scrollbar": false, "zindex": 60,
	}
	if !reflect.DeepEqual(vim.opts, wantVim) || vim.size != nil || vim.hl != "" {
		t.Errorf("Vim: %#v\nwant %#v", vim, wantVim)
	}
	nv, err := o.build("f", true)
	if err != nil {
		t.Fatal(err)
	}
	wantNvim := map[string]any{
		"relative": "cursor", "row": 2, "col": -1, "anchor": "SE",
		"style": "minimal", "focusable": false, "zindex": 60,
		"border": []string{"╭", "─", "╮", "│", "╯", "─", "╰", "│"}, "title": "T", "title_pos": "left",
	}
	if !reflect.DeepEqual(nv.opts, wantNvim) {
		t.Errorf("Neovim: %#v\nwant %#v", nv.opts, wantNvim)
	}
	if want := map[string]any{"width": 10, "height": 0, "minwidth": 0, "maxwidth": 0, "minheight": 2, "maxheight": 5}; !reflect.DeepEqual(nv.size, want) {
		t.Errorf("Neovim's size: %#v", nv.size)
	}
	if nv.hl != "NormalFloat:Normal,FloatBorder:Normal" {
		t.Errorf("Neovim's winhighlight: %q", nv.hl)
	}
}

// Neovim puts an S or E anchored float's edge before row or col; Vim
// puts the corner at line and col.
func TestAnchors(t *testing.T) {
	for _, c := range []struct {
		a        Anchor
		pos      string
		row, col int
	}{{NW, "topleft", 5, 7}, {NE, "topright", 5, 8}, {SW, "botleft", 6, 7}, {SE, "botright", 6, 8}} {
		p := Position{Row: 5, Col: 7, Anchor: c.a}
		v, n := p.vimPos(), p.nvimPos()
		if v["pos"] != c.pos || v["line"] != 6 || v["col"] != 8 {
			t.Errorf("%v: Vim %v", c.a, v)
		}
		if n["row"] != c.row || n["col"] != c.col || n["relative"] != "editor" {
			t.Errorf("%v: Neovim %v", c.a, n)
		}
	}
}

func TestBuildErrors(t *testing.T) {
	chars := func(c ...string) []string { return c }
	for _, c := range []struct {
		o    Options
		want string
	}{
		{Options{Title: "x"}, "f: a title needs a border"},
		{Options{Border: Border(-1)}, "f: -1 is not a Border"},
		{Options{Border: Solid + 1}, "f: 5 is not a Border"},
		{Options{Position: Position{Anchor: SE + 1}}, "f: 4 is not an Anchor"},
		{Options{Position: Position{Relative: 2}}, "f: 2 is not a Relative"},
		{Options{Position: Position{Col: -1}}, "f: row 0, col -1: a position relative to the editor is not negative"},
		{Options{Size: Size{MaxHeight: -1}}, "f: MaxHeight is -1: a size is not negative"},
		{Options{Size: Size{MinHeight: 3, MaxHeight: 2}}, "f: MinHeight 3 is more than MaxHeight 2"},
		{Options{BorderChars: chars("a")}, "f: BorderChars has 1 characters, not 8"},
		{Options{BorderChars: chars("", "b", "c", "d", "e", "f", "g", "h")}, `f: BorderChars: "" is not one character`},
		{Options{BorderChars: chars("\x01", "b", "c", "d", "e", "f", "g", "h")}, `f: BorderChars: "\x01" is not one character`},
		{Options{BorderChars: chars("\xff", "b", "c", "d", "e", "f", "g", "h")}, `f: BorderChars: "\xff" is not one character`},
		{Options{Border: Single, BorderChars: chars("a", "b", "c", "d", "e", "f", "g", "h")}, "f: both Border and BorderChars are set"},
		{Options{BorderHighlight: "a|b"}, `f: "a|b" is not a highlight group name (BorderHighlight)`},
		{Options{Border: Single, Title: "a\x1bb"}, `f: the title "a\x1bb" has a control character`},
		{Options{Lines: []string{"a\rb"}}, "f: line 1 has a line break; give each line apart"},
		{Options{ZIndex: -1}, "f: ZIndex is -1: it is not negative"},
	} {
		for _, nvim := range []bool{false, true} {
			if _, err := c.o.build("f", nvim); err == nil || !strings.HasPrefix(err.Error(), c.want) {
				t.Errorf("%+v (Neovim %v): %v, want %s", c.o, nvim, err, c.want)
			}
		}
	}
	// Custom characters, wide ones too.
	o := Options{BorderChars: chars("+", "-", "+", "|", "+", "-", "+", "|"), Title: "t", Highlight: "@comment.lua"}
	if _, err := o.build("f", false); err != nil {
		t.Error(err)
	}
}

// noEditor fails the test on any call: bad input must fail before one.
type noEditor struct {
	t    *testing.T
	host string
}

func (e noEditor) CallInto(context.Context, any, string, ...any) error {
	e.t.Error("a call to the editor")
	return nil
}

func (e noEditor) EvalInto(context.Context, any, string, map[string]any) error {
	e.t.Error("an evaluation")
	return nil
}

func (e noEditor) Cmd(context.Context, string, map[string]any) error {
	e.t.Error("a command")
	return nil
}

func (e noEditor) Meta() vigor.Meta                      { return vigor.Meta{Host: e.host} }
func (noEditor) Batching() (*vigor.Plugin, *vigor.Batch) { return nil, nil }

func TestBadInputNoCall(t *testing.T) {
	ctx := context.Background()
	for _, host := range []string{"vim", "nvim"} {
		c := noEditor{t, host}
		for _, err := range []error{
			func() error { _, err := Open(ctx, c, Options{Title: "x"}); return err }(),
			SetLines(ctx, c, 1000, []string{"a\nb"}),
			Move(ctx, c, 1000, Position{Row: -1}),
			Resize(ctx, c, 1000, Size{Width: -1}),
			SetTitle(ctx, c, 1000, "\t"),
		} {
			if err == nil || !strings.HasPrefix(err.Error(), "popup.") {
				t.Errorf("%s: %v", host, err)
			}
		}
	}
}
