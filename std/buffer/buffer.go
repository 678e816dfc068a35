// Package buffer opens, reloads and edits the editor's buffers, decodes
// file contents, runs code in the context of a buffer, and decorates
// ranges of text with highlights, the same way on Vim and Neovim.
//
//	o, err := buffer.Open(ctx, p, "notes.txt", buffer.OpenOptions{Opener: "vsplit", Mods: "botright"})
//	err = buffer.Replace(ctx, p, o.Bufnr, []string{"one", "two"})
//	err = buffer.Append(ctx, p, o.Bufnr, buffer.End, []string{"three"})
//	err = buffer.Decorate(ctx, p, o.Bufnr, "myplugin", []buffer.Decoration{
//		{Line: 1, Col: 1, Length: 3, Highlight: "Search"},
//	})
//	d, err := buffer.Decode(ctx, p, data, buffer.DecodeOptions{})
//	d, err = buffer.Assign(ctx, p, o.Bufnr, data, buffer.DecodeOptions{})
//	err = buffer.Ensure(ctx, p, o.Bufnr, func(ctx context.Context) error {
//		return p.Cmd(ctx, "normal! gg=G", nil)
//	})
//
// A buffer is given by its number; 0 is the current buffer. A number
// below 0 is an error made without a call; one that names no buffer is an
// error from the editor, and nothing is changed:
//
//	buffer.Replace: no buffer 99
//
// Every error starts with the function's name.
//
// # Round trips and batches
//
// Open, Reload, Replace, Append, Decorate, Decorations and Clear are one
// call to the editor each, so they work in a batch unchanged (pass the
// *vigor.Batch as c; Open and Decorations return the zero value there,
// and b.Into(&v) receives the value when the batch has run). Ensure and
// Modifiable run a Go function between two calls (so three round trips
// or more, with what the function does) and are an error in a batch.
// Decode needs no call for UTF-8, UTF-16 and Latin-1, and one call
// (outside a batch only) for other encodings, which the editor's iconv()
// converts; Assign is one call more, and works in a batch when Decode
// needs no call.
//
// # Lines on hidden buffers
//
// Replace, Append and Assign work on any buffer, shown or hidden, through
// setbufline(), deletebufline() and appendbufline(); a buffer that is not
// loaded is loaded first (bufload()). They set 'modifiable' for the
// change and restore it after, so a plugin's 'nomodifiable' buffer takes
// them. Lines kept by Replace keep the cursor where it was; a cursor
// below the last line moves to it. In the current buffer each Replace
// and Append is one step of undo, also on Vim, which would otherwise join
// the changes of calls that no typed key separates.
//
// # Decorations
//
// A decoration highlights Length bytes from byte Col of line Line with a
// highlight group. Decorations belong to a namespace named by the plugin,
// so Clear removes only its own. On Vim they are text properties
// (:help textprop) of a global property type named
// "vigor:{namespace}:{highlight}"; on Neovim extmarks (:help
// api-extended-marks) in the namespace "vigor:{namespace}". Either way
// they move with the text when lines are inserted or deleted above them.
package buffer

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/vigorvim/vigor"
)

// End as the line of Append appends after the last line.
const End = -1

// checkBuf says what is wrong with bufnr for the function fn, if anything.
func checkBuf(fn string, bufnr int) error {
	if bufnr < 0 {
		return fmt.Errorf("%s: %d is not a buffer number", fn, bufnr)
	}
	return nil
}

// call calls the helper vigor#_internal#buffer#{helper} (one call, or
// recorded in a batch) for the function fn ("buffer.Replace"), and returns
// its error with fn's name first. An error that the helper raised reads as
// fn's own ("buffer.Replace: no buffer 99"), without the helper's name.
func call(ctx context.Context, c vigor.Caller, result any, fn, helper string, args ...any) error {
	const prefix = "vigor#_internal#buffer#"
	err := c.CallInto(ctx, result, prefix+helper, args...)
	if err == nil {
		return nil
	}
	var ee *vigor.EditorError
	if errors.As(err, &ee) && strings.HasPrefix(ee.Fn, prefix) {
		err = &vigor.EditorError{Msg: ee.Msg}
	}
	return fmt.Errorf("%s: %w", fn, err)
}

// noBatch is the error of a function that cannot run in a batch.
func noBatch(c vigor.Caller, fn, why string) error {
	if _, b := c.Batching(); b != nil {
		return fmt.Errorf("%s cannot run in a batch: %s", fn, why)
	}
	return nil
}

// OpenOptions say how Open opens a buffer.
type OpenOptions struct {
	// Opener is the command that opens it: "edit" (when empty), "view",
	// "split", "vsplit", "sview", "new", "vnew", "tabedit" or "tabnew".
	Opener string `json:"opener"`
	// Mods are command modifiers (:help :command-modifiers) separated by
	// spaces, such as "botright", "vertical", "tab", "keepalt" or
	// "silent", and "{N}tab".
	Mods string `json:"mods"`
	// Cmdarg are ++opt arguments (:help ++opt) separated by spaces, such
	// as "++enc=latin1 ++ff=dos" or "++bin".
	Cmdarg string `json:"cmdarg"`
	// Bang adds "!" to the opener: :edit! discards the changes of the
	// current buffer.
	Bang bool `json:"bang"`
}

// Opened is where Open opened the buffer.
type Opened struct {
	Bufnr int `json:"bufnr"` // the buffer's number
	Winid int `json:"winid"` // the window that shows it
	Tabnr int `json:"tabnr"` // its tab page's number
}

var openers = []string{"edit", "view", "split", "vsplit", "sview", "new", "vnew", "tabedit", "tabnew"}

var mods = []string{
	"aboveleft", "belowright", "botright", "browse", "confirm", "hide",
	"horizontal", "keepalt", "keepjumps", "keepmarks", "keeppatterns",
	"leftabove", "lockmarks", "noautocmd", "noswapfile", "rightbelow",
	"sandbox", "silent", "silent!", "tab", "topleft", "unsilent",
	"verbose", "vertical",
}

// ++opt names, those that take a value after "=" first.
var (
	cmdargValued = []string{"ff", "fileformat", "enc", "encoding", "bad"}
	cmdargFlags  = []string{"bin", "binary", "nobin", "nobinary", "edit", "p"}
)

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// checkOpen says what is wrong with o, if anything.
func (o OpenOptions) check() error {
	if o.Opener != "" && !contains(openers, o.Opener) {
		return fmt.Errorf("buffer.Open: %q is not an opener (%s)", o.Opener, strings.Join(openers, ", "))
	}
	for _, m := range strings.Fields(o.Mods) {
		if !contains(mods, strings.TrimLeft(m, "0123456789")) {
			return fmt.Errorf("buffer.Open: %q is not a command modifier", m)
		}
	}
	for _, a := range strings.Fields(o.Cmdarg) {
		if !validCmdarg(a) {
			return fmt.Errorf("buffer.Open: %q is not a ++opt argument", a)
		}
	}
	return nil
}

// validCmdarg reports whether a is a ++opt argument: "++bin", "++ff=dos".
func validCmdarg(a string) bool {
	name, ok := strings.CutPrefix(a, "++")
	if !ok {
		return false
	}
	name, value, valued := strings.Cut(name, "=")
	if !valued {
		return contains(cmdargFlags, name)
	}
	if !contains(cmdargValued, name) || value == "" {
		return false
	}
	if name == "bad" && len(value) == 1 {
		return value[0] > ' ' && value[0] < 0x7f
	}
	for i := 0; i < len(value); i++ {
		c := value[i]
		if !(c == '-' || c == '_' || c == '.' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

// Open opens the file or buffer name with o.Opener (":edit" by default),
// its modifiers and ++opt arguments, and returns the buffer's number and
// the window and tab page it is shown in. The name is escaped for the
// command line (fnameescape()); "" is the current buffer's name (for
// :edit, reloading it; for :new and :tabnew, a new empty buffer). The
// editor's autocommands run, and its errors (E37 when the current buffer
// is modified, unless Bang or 'hidden') come back as Open's.
func Open(ctx context.Context, c vigor.Caller, name string, o OpenOptions) (Opened, error) {
	if err := o.check(); err != nil {
		return Opened{}, err
	}
	opener := o.Opener
	if opener == "" {
		opener = "edit"
	}
	var r Opened
	if err := call(ctx, c, &r, "buffer.Open", "open", name, opener, o.Mods, o.Cmdarg, o.Bang); err != nil {
		return Opened{}, err
	}
	return r, nil
}

// Reload reads the buffer bufnr again from its file, as :edit does in it,
// in the context of the buffer (see Ensure) but in one call. A modified
// buffer is an error (E37), and nothing is read.
func Reload(ctx context.Context, c vigor.Caller, bufnr int) error {
	if err := checkBuf("buffer.Reload", bufnr); err != nil {
		return err
	}
	if err := call(ctx, c, nil, "buffer.Reload", "reload", bufnr); err != nil {
		return err
	}
	return nil
}

// Replace makes lines the lines of the buffer bufnr, shown or hidden,
// even when it is 'nomodifiable' (see the package documentation). No
// lines leaves one empty line, as an empty buffer has.
func Replace(ctx context.Context, c vigor.Caller, bufnr int, lines []string) error {
	if err := checkBuf("buffer.Replace", bufnr); err != nil {
		return err
	}
	if lines == nil {
		lines = []string{}
	}
	if err := call(ctx, c, nil, "buffer.Replace", "replace", bufnr, lines); err != nil {
		return err
	}
	return nil
}

// Append inserts lines after line after of the buffer bufnr (0 for before
// the first line, End for after the last), shown or hidden, even when it
// is 'nomodifiable'. A line beyond the last is an error, and nothing is
// inserted.
func Append(ctx context.Context, c vigor.Caller, bufnr, after int, lines []string) error {
	if err := checkBuf("buffer.Append", bufnr); err != nil {
		return err
	}
	if after < End {
		return fmt.Errorf("buffer.Append: %d is not a line number", after)
	}
	if len(lines) == 0 {
		return nil
	}
	if err := call(ctx, c, nil, "buffer.Append", "append", bufnr, after, lines); err != nil {
		return err
	}
	return nil
}

// Ensure runs fn with the buffer bufnr current and then makes the window
// and buffer that were current so again, even when fn fails or panics. A
// buffer shown in a window of the current tab page is made current by
// going to that window; otherwise the current window shows it while fn
// runs ('bufhidden' is "hide" meanwhile, so that neither buffer is
// refused for being modified, and both get their 'bufhidden' and
// 'buflisted' back). The editor's BufEnter and BufLeave autocommands run.
//
// Ensure is two calls besides fn's (one before, one after) and cannot run
// in a batch. fn's error is Ensure's, as it is; an error in restoring is
// joined to it.
func Ensure(ctx context.Context, c vigor.Caller, bufnr int, fn func(ctx context.Context) error) error {
	const name = "buffer.Ensure"
	return around(ctx, c, name, bufnr, fn,
		func(ctx context.Context) (any, error) {
			var state map[string]any
			err := call(ctx, c, &state, name, "enter", bufnr)
			return state, err
		},
		func(ctx context.Context, state any) error {
			return call(ctx, c, nil, name, "leave", state)
		})
}

// Modifiable runs fn with 'modifiable' set in the buffer bufnr, and then
// sets it back to what it was, even when fn fails or panics. It is two
// calls besides fn's and cannot run in a batch; Replace and Append need
// no Modifiable around them.
func Modifiable(ctx context.Context, c vigor.Caller, bufnr int, fn func(ctx context.Context) error) error {
	const name = "buffer.Modifiable"
	return around(ctx, c, name, bufnr, fn,
		func(ctx context.Context) (any, error) {
			var was bool
			err := call(ctx, c, &was, name, "modifiable", bufnr, true)
			return was, err
		},
		func(ctx context.Context, was any) error {
			return call(ctx, c, nil, name, "modifiable", bufnr, was)
		})
}

// around runs fn between enter and leave for Ensure and Modifiable
// (named name). leave runs even when fn panics, and with a context that
// is not cancelled with ctx, so that what enter changed is restored.
func around(ctx context.Context, c vigor.Caller, name string, bufnr int, fn func(context.Context) error,
	enter func(context.Context) (any, error), leave func(context.Context, any) error) (err error) {
	if err := checkBuf(name, bufnr); err != nil {
		return err
	}
	if fn == nil {
		return fmt.Errorf("%s: the function is nil", name)
	}
	if err := noBatch(c, name, "it runs a Go function between two calls"); err != nil {
		return err
	}
	state, err := enter(ctx)
	if err != nil {
		return err
	}
	defer func() {
		if lerr := leave(context.WithoutCancel(ctx), state); lerr != nil {
			err = errors.Join(err, lerr)
		}
	}()
	return fn(ctx)
}
