package buffer

import (
	"context"
	"fmt"

	"github.com/vigorvim/vigor"
)

// Decoration highlights a range of one line (see the package
// documentation).
type Decoration struct {
	Line      int    `json:"line"`      // the line, from 1
	Col       int    `json:"col"`       // the first byte, from 1
	Length    int    `json:"length"`    // the number of bytes
	Highlight string `json:"highlight"` // the highlight group, such as "Search"
}

// validName reports whether s is a namespace or highlight group name:
// letters, digits, '_', and for a highlight group also '.' and '@' (as
// Neovim's treesitter groups have).
func validName(s string, group bool) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		ok := c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
			!group && c == '-' || group && (c == '.' || c == '@')
		if !ok {
			return false
		}
	}
	return true
}

func checkNS(fn, ns string) error {
	if !validName(ns, false) {
		return fmt.Errorf("%s: %q is not a namespace name (letters, digits, '_' and '-')", fn, ns)
	}
	return nil
}

// Decorate adds decos to the buffer bufnr in the namespace ns (letters,
// digits, '_' and '-'), in one call. A decoration outside the buffer's
// text is the editor's error, and the decorations before it stay.
func Decorate(ctx context.Context, c vigor.Caller, bufnr int, ns string, decos []Decoration) error {
	const fn = "buffer.Decorate"
	if err := checkBuf(fn, bufnr); err != nil {
		return err
	}
	if err := checkNS(fn, ns); err != nil {
		return err
	}
	for i, d := range decos {
		switch {
		case !validName(d.Highlight, true):
			return fmt.Errorf("%s: decoration %d: %q is not a highlight group name", fn, i, d.Highlight)
		case d.Line < 1 || d.Col < 1:
			return fmt.Errorf("%s: decoration %d: line %d, column %d: lines and columns count from 1", fn, i, d.Line, d.Col)
		case d.Length < 0:
			return fmt.Errorf("%s: decoration %d: the length %d is negative", fn, i, d.Length)
		}
	}
	if len(decos) == 0 {
		return nil
	}
	if err := call(ctx, c, nil, fn, "decorate", bufnr, ns, decos); err != nil {
		return err
	}
	return nil
}

// Decorations returns the decorations of the namespace ns in the buffer
// bufnr, in the order of the text, where the edits since Decorate have
// moved them. A buffer that is not loaded has none.
func Decorations(ctx context.Context, c vigor.Caller, bufnr int, ns string) ([]Decoration, error) {
	const fn = "buffer.Decorations"
	if err := checkBuf(fn, bufnr); err != nil {
		return nil, err
	}
	if err := checkNS(fn, ns); err != nil {
		return nil, err
	}
	var ds []Decoration
	if err := call(ctx, c, &ds, fn, "decorations", bufnr, ns); err != nil {
		return nil, err
	}
	return ds, nil
}

// Clear removes the decorations of the namespace ns from the buffer bufnr.
func Clear(ctx context.Context, c vigor.Caller, bufnr int, ns string) error {
	const fn = "buffer.Clear"
	if err := checkBuf(fn, bufnr); err != nil {
		return err
	}
	if err := checkNS(fn, ns); err != nil {
		return err
	}
	if err := call(ctx, c, nil, fn, "clear", bufnr, ns); err != nil {
		return err
	}
	return nil
}
