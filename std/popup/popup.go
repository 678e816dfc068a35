// Package popup shows floating windows the same way on Vim and Neovim:
// Vim's popups (:help popup-window) and Neovim's floats (:help
// api-floatwin) on a scratch buffer of their own.
//
//	id, err := popup.Open(ctx, p, popup.Options{
//		Position: popup.Position{Relative: popup.Cursor, Row: 1},
//		Size:     popup.Size{MaxWidth: 60},
//		Border:   popup.Rounded,
//		Title:    "Matches",
//		Lines:    []string{"one", "two"},
//		OnClose:  func(ctx context.Context, id popup.ID) { ... },
//	})
//	err = popup.SetLines(ctx, p, id, []string{"three"})
//	err = popup.Move(ctx, p, id, popup.Position{Row: 2, Col: 10})
//	err = popup.Close(ctx, p, id)
//
// A popup's ID is its window ID on both editors: win_getid() and the
// other window functions take it (its buffer comes from Buffer).
//
// # Round trips and batches
//
// Each function is one call to the editor (it evaluates a function of Vigor's
// autoload/vigor/_internal/popup.vim that does the editor's part), so it
// works in a batch unchanged: pass the *vigor.Batch as c, and b.Into(&v)
// to receive a result:
//
//	var id popup.ID
//	err := p.Batch(ctx, func(b *vigor.Batch) error {
//		_, err := popup.Open(ctx, b.Into(&id), popup.Options{Lines: lines})
//		return err
//	})
//
// Outside a batch an error from the editor comes back with the
// function's name first ("popup.Move: " and the editor's message);
// inside a batch it fails the batch. Bad options (a negative size, an
// unknown Border, a line with a line break, a title without a border, a
// highlight group name with other characters than letters, digits, '_',
// '.' and '@') are an error naming the function, made without a call:
//
//	popup.Open: a title needs a border
//
// SetLines, Move, Resize, SetTitle and Buffer of a window that is not an
// open popup fail ("window 1001 is not an open popup"); Close of one does
// nothing.
//
// # What differs between the editors
//
// The options are Vim's and Neovim's common part, and they look the same
// on both: the same border characters, the title at the left of the top
// border, the size of the text area without the border, a size that
// follows the content unless it is fixed. Where the editors differ:
//
//   - A title needs a border (Neovim draws it only in a border), on both.
//   - The default highlight is Pmenu on Vim and NormalFloat on Neovim
//     (which links to Pmenu unless a color scheme says otherwise).
//   - A popup cannot be focused: Vim's popups take no cursor, and the
//     floats are made not focusable to match. Keys go to the window the
//     user is in.
//   - At the right edge of the screen both narrow a popup whose width
//     follows its content to the room there (Vim's rule: one column more,
//     and the popup moved one to the left) and wrap its lines. At the
//     bottom, Neovim moves a float up above the command line, and Vim
//     cuts a popup off (a popup relative to the cursor is not flipped
//     above it, as Neovim does not flip a float).
//   - A change shows at once, also from a notification's handler and
//     while the command line is being edited (input()): each function
//     ends with :redraw on Vim, which draws popups only when it redraws,
//     and on Neovim in command-line mode, where floats are drawn only
//     then.
//   - Lines wrap at the popup's width on both ('wrap' is set in the
//     float), and a height that follows the content counts the wrapped
//     lines, as Vim does.
package popup

import (
	"context"
	"fmt"

	"github.com/vigorvim/vigor"
)

// ID is a popup's window ID.
type ID int

// nvim says whether c's editor is Neovim.
func nvim(c vigor.Caller) bool { return c.Meta().Host == "nvim" }

// call evaluates the popup.vim function name with args and returns its
// result as a T (the zero T in a batch), an error wrapped with fn's name.
// An evaluation, not a call, so that an error from the editor does not
// name the internal function.
func call[T any](ctx context.Context, c vigor.Caller, fn, name string, args ...any) (T, error) {
	expr, vars := callExpr(name, args)
	v, err := vigor.EvalAs[T](ctx, c, expr, vars)
	if err != nil {
		return v, fmt.Errorf("%s: %w", fn, err)
	}
	return v, nil
}

// do is call for a function without a result.
func do(ctx context.Context, c vigor.Caller, fn, name string, args ...any) error {
	expr, vars := callExpr(name, args)
	if err := c.Cmd(ctx, "call "+expr, vars); err != nil {
		return fmt.Errorf("%s: %w", fn, err)
	}
	return nil
}

// argNames are the names of the l: variables that hold a call's
// arguments, one letter each.
const argNames = "abcde"

// callExpr returns the Vim expression that calls the popup.vim function
// name with args, and the l: variables that hold them.
func callExpr(name string, args []any) (string, map[string]any) {
	vars := make(map[string]any, len(args))
	expr := "vigor#_internal#popup#" + name + "("
	for i, a := range args {
		if i > 0 {
			expr += ", "
		}
		v := argNames[i : i+1]
		expr += "l:" + v
		vars[v] = a
	}
	return expr + ")", vars
}

// orEmpty returns lines, or an empty list for nil (which would reach the
// editor as v:null).
func orEmpty(lines []string) []string {
	if lines == nil {
		return []string{}
	}
	return lines
}

// Open shows a popup made as o says and returns its ID. In a batch it
// returns 0: pass b.Into(&id) as c to receive the ID.
func Open(ctx context.Context, c vigor.Caller, o Options) (ID, error) {
	const fn = "popup.Open"
	eo, err := o.build(fn, nvim(c))
	if err != nil {
		return 0, err
	}
	size := eo.size
	if size == nil {
		size = map[string]any{}
	}
	expr, release, err := o.onClose(fn, c)
	if err != nil {
		return 0, err
	}
	id, err := call[ID](ctx, c, fn, "open", orEmpty(o.Lines), eo.opts, size, eo.hl, expr)
	if err != nil {
		release()
	}
	return id, err
}

// SetLines replaces the popup's lines; a popup whose size follows its
// content takes the size of the new lines.
func SetLines(ctx context.Context, c vigor.Caller, id ID, lines []string) error {
	const fn = "popup.SetLines"
	if err := checkLines(fn, lines); err != nil {
		return err
	}
	return do(ctx, c, fn, "setlines", id, orEmpty(lines))
}

// Move puts the popup at pos.
func Move(ctx context.Context, c vigor.Caller, id ID, pos Position) error {
	const fn = "popup.Move"
	if err := pos.check(fn); err != nil {
		return err
	}
	if nvim(c) {
		return do(ctx, c, fn, "set", id, pos.nvimPos(), map[string]any{})
	}
	return do(ctx, c, fn, "set", id, pos.vimPos(), map[string]any{})
}

// Resize gives the popup the size s.
func Resize(ctx context.Context, c vigor.Caller, id ID, s Size) error {
	const fn = "popup.Resize"
	if err := s.check(fn); err != nil {
		return err
	}
	if nvim(c) {
		return do(ctx, c, fn, "set", id, map[string]any{}, s.nvimSize())
	}
	return do(ctx, c, fn, "set", id, s.vimSize(), map[string]any{})
}

// SetTitle sets the popup's title; "" removes it. The popup needs a
// border (the editor says so when it has none).
func SetTitle(ctx context.Context, c vigor.Caller, id ID, title string) error {
	const fn = "popup.SetTitle"
	if err := checkTitle(fn, title); err != nil {
		return err
	}
	return do(ctx, c, fn, "set", id, map[string]any{"title": title}, map[string]any{})
}

// Close closes the popup; a popup that is not open is no error. Its
// OnClose runs.
func Close(ctx context.Context, c vigor.Caller, id ID) error {
	return do(ctx, c, "popup.Close", "close", id)
}

// IsOpen says whether id is an open popup. In a batch it returns false:
// pass b.Into(&ok) as c to receive the answer.
func IsOpen(ctx context.Context, c vigor.Caller, id ID) (bool, error) {
	return call[bool](ctx, c, "popup.IsOpen", "isopen", id)
}

// Buffer returns the number of the popup's buffer. In a batch it returns
// 0: pass b.Into(&n) as c to receive the number.
func Buffer(ctx context.Context, c vigor.Caller, id ID) (int, error) {
	return call[int](ctx, c, "popup.Buffer", "buffer", id)
}
