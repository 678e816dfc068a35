package variables

import (
	"context"
	"fmt"

	"github.com/vigorvim/vigor"
)

// local is the kind of editor object whose variables BufGet, WinGet and
// TabGet read: a buffer, a window or a tab page, given by its number.
type local struct {
	fn     string // "Buf": the functions are BufGet, BufSet, BufRemove
	scope  Scope  // the scope whose name rules its variables follow
	what   string // "buffer", for messages
	get    string // the call that reads a variable of l:i, up to its name: "getbufvar(l:i, "
	set    string // the call that sets one, up to its name: "setbufvar(l:i, "
	exists string // a Vim expression that is true when l:i exists
}

// A window's are read with gettabwinvar(), since getwinvar() finds only
// the windows of the current tab page.
var (
	buffers = local{"Buf", B, "buffer", "getbufvar(l:i, ", "setbufvar(l:i, ", "bufexists(l:i)"}
	windows = local{"Win", W, "window", "gettabwinvar(win_id2tabwin(l:i)[0], l:i, ",
		"settabwinvar(win_id2tabwin(l:i)[0], l:i, ", "win_id2tabwin(l:i)[0] > 0"}
	tabs = local{"Tab", T, "tab page", "gettabvar(l:i, ", "settabvar(l:i, ", "l:i >= 1 && l:i <= tabpagenr('$')"}
)

// check says what is wrong with the number i and the name, for the
// function op ("Get"), if anything, and returns the function's name and
// the vars that its Vim script uses.
func (k local) check(op string, i int, name string) (string, map[string]any, error) {
	fn := "variables." + k.fn + op
	if i < 1 {
		return fn, nil, fmt.Errorf("%s: %d is not a %s number", fn, i, k.what)
	}
	if err := k.scope.check(fn, name); err != nil {
		return fn, nil, err
	}
	vars := map[string]any{"i": i, "n": name, "e": fmt.Sprintf("there is no %s %d", k.what, i)}
	return fn, vars, nil
}

func localGet[T any](ctx context.Context, c vigor.Caller, k local, i int, name string, def T) (T, error) {
	var zero T
	fn, vars, err := k.check("Get", i, name)
	if err != nil {
		return zero, err
	}
	vars["d"] = def
	expr := k.exists + " ? " + k.get + "l:n, l:d) : execute('throw l:e')"
	v, err := vigor.EvalAs[T](ctx, c, expr, vars)
	if err != nil {
		return zero, fmt.Errorf("%s: %s%s of %s %d: %w", fn, k.scope, name, k.what, i, err)
	}
	return v, nil
}

func localSet(ctx context.Context, c vigor.Caller, k local, i int, name string, v any) error {
	fn, vars, err := k.check("Set", i, name)
	if err != nil {
		return err
	}
	vars["v"] = v
	cmd := "if !(" + k.exists + ") | throw l:e | endif | call " + k.set + "l:n, l:v)"
	if err := c.Cmd(ctx, cmd, vars); err != nil {
		return fmt.Errorf("%s: %w", fn, err)
	}
	return nil
}

func localRemove(ctx context.Context, c vigor.Caller, k local, i int, name string) error {
	fn, vars, err := k.check("Remove", i, name)
	if err != nil {
		return err
	}
	// get*var(..., '') is the object's dictionary of variables itself, so
	// remove() from it removes the variable.
	all := k.get + "'')"
	cmd := "if !(" + k.exists + ") | throw l:e | endif | if has_key(" + all + ", l:n) | call remove(" + all + ", l:n) | endif"
	if err := c.Cmd(ctx, cmd, vars); err != nil {
		return fmt.Errorf("%s: %w", fn, err)
	}
	return nil
}

// BufGet returns the b: variable name of buffer buf (a buffer number, as
// bufnr() gives) decoded into a T, or def when it is not set, as
// getbufvar() does. A buffer that does not exist is an error. In a batch
// it returns the zero T: pass b.Into(&v) as c to receive the value.
func BufGet[T any](ctx context.Context, c vigor.Caller, buf int, name string, def T) (T, error) {
	return localGet(ctx, c, buffers, buf, name, def)
}

// BufSet sets the b: variable name of buffer buf to v, as setbufvar()
// does. A buffer that does not exist is an error.
func BufSet(ctx context.Context, c vigor.Caller, buf int, name string, v any) error {
	return localSet(ctx, c, buffers, buf, name, v)
}

// BufRemove removes the b: variable name of buffer buf; one that is not
// set is no error. A buffer that does not exist is an error, and so is
// b:changedtick, which the editors do not remove (E795).
func BufRemove(ctx context.Context, c vigor.Caller, buf int, name string) error {
	return localRemove(ctx, c, buffers, buf, name)
}

// WinGet returns the w: variable name of window win decoded into a T, or
// def when it is not set, as gettabwinvar() does. win is a window ID
// (win_getid()), of any tab page; a window number is not one. A window
// that does not exist is an error. In a batch it returns the zero T: pass b.Into(&v) as
// c to receive the value.
func WinGet[T any](ctx context.Context, c vigor.Caller, win int, name string, def T) (T, error) {
	return localGet(ctx, c, windows, win, name, def)
}

// WinSet sets the w: variable name of window win (as for WinGet) to v, as
// settabwinvar() does. A window that does not exist is an error.
func WinSet(ctx context.Context, c vigor.Caller, win int, name string, v any) error {
	return localSet(ctx, c, windows, win, name, v)
}

// WinRemove removes the w: variable name of window win (as for WinGet);
// one that is not set is no error. A window that does not exist is an
// error.
func WinRemove(ctx context.Context, c vigor.Caller, win int, name string) error {
	return localRemove(ctx, c, windows, win, name)
}

// TabGet returns the t: variable name of tab page tab (its number, as
// tabpagenr() gives) decoded into a T, or def when it is not set, as
// gettabvar() does. A tab page that does not exist is an error. In a
// batch it returns the zero T: pass b.Into(&v) as c to receive the value.
func TabGet[T any](ctx context.Context, c vigor.Caller, tab int, name string, def T) (T, error) {
	return localGet(ctx, c, tabs, tab, name, def)
}

// TabSet sets the t: variable name of tab page tab to v, as settabvar()
// does. A tab page that does not exist is an error.
func TabSet(ctx context.Context, c vigor.Caller, tab int, name string, v any) error {
	return localSet(ctx, c, tabs, tab, name, v)
}

// TabRemove removes the t: variable name of tab page tab; one that is not
// set is no error. A tab page that does not exist is an error.
func TabRemove(ctx context.Context, c vigor.Caller, tab int, name string) error {
	return localRemove(ctx, c, tabs, tab, name)
}
