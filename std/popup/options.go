package popup

import (
	"cmp"
	"context"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Relative is what a Position counts from: Editor or Cursor.
type Relative int

// The origins of a position.
const (
	// Editor counts from the top-left cell of the editor's screen:
	// Row and Col are 0-based screen cells, not negative.
	Editor Relative = iota
	// Cursor counts from the cursor's cell: Row 1 is the line below the
	// cursor, Col -2 two cells to its left.
	Cursor
)

// Anchor is the corner of the popup, its border included, that is put at
// the cell a Position names: NW (the default), NE, SW or SE.
type Anchor int

// The corners.
const (
	NW Anchor = iota // top-left
	NE               // top-right
	SW               // bottom-left
	SE               // bottom-right
)

// Border is the popup's border: None (the default), Single, Double,
// Rounded or Solid; Options.BorderChars gives characters of its own.
type Border int

// The borders. Single, Double and Rounded are box-drawing lines (─ │ ┌,
// ═ ║ ╔, ─ │ ╭); Solid is a border of spaces in the border's highlight.
const (
	None Border = iota
	Single
	Double
	Rounded
	Solid
)

// borderChars returns the characters of b in the order of
// Options.BorderChars (clockwise from the top-left corner), nil for None.
func borderChars(b Border) []string {
	switch b {
	case Single:
		return []string{"┌", "─", "┐", "│", "┘", "─", "└", "│"}
	case Double:
		return []string{"╔", "═", "╗", "║", "╝", "═", "╚", "║"}
	case Rounded:
		return []string{"╭", "─", "╮", "│", "╯", "─", "╰", "│"}
	case Solid:
		return []string{" ", " ", " ", " ", " ", " ", " ", " "}
	}
	return nil
}

// Position is where a popup is: the corner Anchor of the popup (its
// border included) is at the cell Row, Col counted from Relative.
type Position struct {
	Relative Relative
	Row, Col int
	Anchor   Anchor
}

// Size is how large a popup's text area is, its border not included, in
// screen cells. Width and Height fix it; when one is 0 it follows the
// content (its longest line, its number of lines), within MinWidth and
// MaxWidth (MinHeight and MaxHeight), where 0 is no bound.
type Size struct {
	Width, Height       int
	MinWidth, MinHeight int
	MaxWidth, MaxHeight int
}

// Options are what Open needs to make a popup. The zero Options make a
// borderless popup of one empty line at the top-left of the screen.
type Options struct {
	Position
	Size
	// Border is the border's style; BorderChars, when set, are its 8
	// characters instead, one screen cell each, clockwise from the
	// top-left corner: top-left, top, top-right, right, bottom-right,
	// bottom, bottom-left, left.
	Border      Border
	BorderChars []string
	// Title is shown at the left of the top border; it needs a border.
	Title string
	// Highlight is the highlight group of the text (Vim's default is
	// Pmenu, Neovim's NormalFloat), BorderHighlight that of the border
	// (by default the text's).
	Highlight, BorderHighlight string
	// Lines are the popup's content.
	Lines []string
	// ZIndex orders popups that overlap: the higher one is on top. 0 is
	// the editors' default, 50.
	ZIndex int
	// OnClose, when set, runs once when the popup closes, whether the
	// user or code closed it (Close, :close on Neovim, popup_close() on
	// Vim), with the popup's ID. It runs as a notification from the
	// editor, in a goroutine of its own, like a handler.
	OnClose func(ctx context.Context, id ID)
}

// checkName says what is wrong with the highlight group name, if anything.
func checkName(fn, what, name string) error {
	ok := name != ""
	for i := 0; ok && i < len(name); i++ {
		c := name[i]
		ok = c == '_' || c == '.' || c == '@' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
	}
	if !ok {
		return fmt.Errorf("%s: %q is not a highlight group name (%s)", fn, name, what)
	}
	return nil
}

// checkLines says what is wrong with the lines, if anything: a line
// holds no newline (both editors refuse or mangle one).
func checkLines(fn string, lines []string) error {
	for i, l := range lines {
		if strings.ContainsAny(l, "\n\r") {
			return fmt.Errorf("%s: line %d has a line break; give each line apart", fn, i+1)
		}
	}
	return nil
}

// checkTitle says what is wrong with a title, if anything.
func checkTitle(fn, title string) error {
	for _, r := range title {
		if unicode.IsControl(r) {
			return fmt.Errorf("%s: the title %q has a control character", fn, title)
		}
	}
	return nil
}

func (p Position) check(fn string) error {
	switch {
	case p.Relative != Editor && p.Relative != Cursor:
		return fmt.Errorf("%s: %d is not a Relative (popup.Editor or popup.Cursor)", fn, p.Relative)
	case p.Anchor < NW || p.Anchor > SE:
		return fmt.Errorf("%s: %d is not an Anchor (popup.NW, NE, SW or SE)", fn, p.Anchor)
	case p.Relative == Editor && (p.Row < 0 || p.Col < 0):
		return fmt.Errorf("%s: row %d, col %d: a position relative to the editor is not negative", fn, p.Row, p.Col)
	}
	return nil
}

func (s Size) check(fn string) error {
	for _, f := range []struct {
		name string
		n    int
	}{
		{"Width", s.Width}, {"Height", s.Height}, {"MinWidth", s.MinWidth},
		{"MinHeight", s.MinHeight}, {"MaxWidth", s.MaxWidth}, {"MaxHeight", s.MaxHeight},
	} {
		if f.n < 0 {
			return fmt.Errorf("%s: %s is %d: a size is not negative", fn, f.name, f.n)
		}
	}
	if s.MaxWidth > 0 && s.MinWidth > s.MaxWidth {
		return fmt.Errorf("%s: MinWidth %d is more than MaxWidth %d", fn, s.MinWidth, s.MaxWidth)
	}
	if s.MaxHeight > 0 && s.MinHeight > s.MaxHeight {
		return fmt.Errorf("%s: MinHeight %d is more than MaxHeight %d", fn, s.MinHeight, s.MaxHeight)
	}
	return nil
}

// chars returns the border's 8 characters (nil for none), or what is
// wrong with the options' border.
func (o *Options) chars(fn string) ([]string, error) {
	if o.BorderChars != nil {
		if o.Border != None {
			return nil, fmt.Errorf("%s: both Border and BorderChars are set", fn)
		}
		if len(o.BorderChars) != 8 {
			return nil, fmt.Errorf("%s: BorderChars has %d characters, not 8", fn, len(o.BorderChars))
		}
		for _, c := range o.BorderChars {
			r, n := utf8.DecodeRuneInString(c)
			if n == 0 || n != len(c) || r == utf8.RuneError || unicode.IsControl(r) {
				return nil, fmt.Errorf("%s: BorderChars: %q is not one character", fn, c)
			}
		}
		return o.BorderChars, nil
	}
	if o.Border < None || o.Border > Solid {
		return nil, fmt.Errorf("%s: %d is not a Border (popup.None, Single, Double, Rounded or Solid)", fn, o.Border)
	}
	return borderChars(o.Border), nil
}

// vimPos returns the position as popup_create() takes it.
func (p Position) vimPos() map[string]any {
	m := map[string]any{"pos": [...]string{"topleft", "topright", "botleft", "botright"}[p.Anchor]}
	if p.Relative == Editor {
		m["line"], m["col"] = p.Row+1, p.Col+1
	} else {
		m["line"], m["col"] = "cursor"+signed(p.Row), "cursor"+signed(p.Col)
	}
	return m
}

func signed(n int) string {
	if n < 0 {
		return strconv.Itoa(n)
	}
	return "+" + strconv.Itoa(n)
}

// nvimPos returns the position as nvim_open_win() takes it. Neovim puts
// the bottom (right) edge of an S (E) anchored float before row (col):
// one more than the last cell.
func (p Position) nvimPos() map[string]any {
	row, col := p.Row, p.Col
	if p.Anchor == SW || p.Anchor == SE {
		row++
	}
	if p.Anchor == NE || p.Anchor == SE {
		col++
	}
	return map[string]any{
		"relative": [...]string{"editor", "cursor"}[p.Relative],
		"row":      row, "col": col,
		"anchor": [...]string{"NW", "NE", "SW", "SE"}[p.Anchor],
	}
}

// vimSize returns the size as popup_create() takes it.
func (s Size) vimSize() map[string]any {
	m := map[string]any{"minwidth": s.MinWidth, "maxwidth": s.MaxWidth, "minheight": s.MinHeight, "maxheight": s.MaxHeight}
	if s.Width > 0 {
		m["minwidth"], m["maxwidth"] = s.Width, s.Width
	}
	if s.Height > 0 {
		m["minheight"], m["maxheight"] = s.Height, s.Height
	}
	return m
}

// nvimSize returns the size as autoload/vigor/_internal/popup.vim's fit()
// takes it.
func (s Size) nvimSize() map[string]any {
	return map[string]any{
		"width": s.Width, "height": s.Height, "minwidth": s.MinWidth,
		"maxwidth": s.MaxWidth, "minheight": s.MinHeight, "maxheight": s.MaxHeight,
	}
}

// vimBorder returns Vim's borderchars for chars (in Options.BorderChars'
// order): top, right, bottom, left, then the corners from the top-left.
func vimBorder(c []string) []string {
	return []string{c[1], c[3], c[5], c[7], c[0], c[2], c[4], c[6]}
}

// editorOptions are what autoload/vigor/_internal/popup.vim's open() takes
// for one editor.
type editorOptions struct {
	opts map[string]any // popup_create()'s or nvim_open_win()'s
	size map[string]any // Neovim's size (nil on Vim)
	hl   string         // Neovim's 'winhighlight'
}

// build checks o and returns the options for Vim (nvim false) or Neovim.
func (o *Options) build(fn string, nvim bool) (editorOptions, error) {
	if err := o.Position.check(fn); err != nil {
		return editorOptions{}, err
	}
	if err := o.Size.check(fn); err != nil {
		return editorOptions{}, err
	}
	chars, err := o.chars(fn)
	if err != nil {
		return editorOptions{}, err
	}
	if err := checkTitle(fn, o.Title); err != nil {
		return editorOptions{}, err
	}
	if o.Title != "" && chars == nil {
		return editorOptions{}, fmt.Errorf("%s: a title needs a border", fn)
	}
	for _, h := range []struct{ what, name string }{{"Highlight", o.Highlight}, {"BorderHighlight", o.BorderHighlight}} {
		if h.name != "" {
			if err := checkName(fn, h.what, h.name); err != nil {
				return editorOptions{}, err
			}
		}
	}
	if err := checkLines(fn, o.Lines); err != nil {
		return editorOptions{}, err
	}
	if o.ZIndex < 0 {
		return editorOptions{}, fmt.Errorf("%s: ZIndex is %d: it is not negative", fn, o.ZIndex)
	}
	zindex := cmp.Or(o.ZIndex, 50)
	if !nvim {
		m := o.Position.vimPos()
		// As Neovim places a float: not flipped above the cursor, not
		// moved left, no scrollbar.
		m["posinvert"], m["fixed"], m["scrollbar"] = false, true, false
		m["zindex"] = zindex
		for k, v := range o.Size.vimSize() {
			m[k] = v
		}
		if chars != nil {
			m["border"] = []int{}
			m["borderchars"] = vimBorder(chars)
		}
		if o.Title != "" {
			m["title"] = o.Title
		}
		if o.Highlight != "" {
			m["highlight"] = o.Highlight
		}
		if o.BorderHighlight != "" {
			m["borderhighlight"] = []string{o.BorderHighlight}
		}
		return editorOptions{opts: m}, nil
	}
	m := o.Position.nvimPos()
	m["style"] = "minimal"
	m["focusable"] = false
	m["zindex"] = zindex
	m["border"] = "none"
	if chars != nil {
		m["border"] = chars
	}
	if o.Title != "" {
		m["title"] = o.Title
		m["title_pos"] = "left"
	}
	var hl []string
	if o.Highlight != "" {
		hl = append(hl, "NormalFloat:"+o.Highlight)
	}
	// Vim draws the border in the text's highlight unless told otherwise.
	if b := cmp.Or(o.BorderHighlight, o.Highlight); b != "" {
		hl = append(hl, "FloatBorder:"+b)
	}
	return editorOptions{opts: m, size: o.Size.nvimSize(), hl: strings.Join(hl, ",")}, nil
}
