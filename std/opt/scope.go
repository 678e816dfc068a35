package opt

import (
	"context"
	"fmt"
	"strings"

	"github.com/vigorvim/vigor"
)

// Value is the Go type of an option's value: bool for a Boolean option,
// int for a Number option, string for a String option.
type Value interface {
	bool | int | string
}

// Option holds the facts about one option that its methods need. Each
// variable of this package and of vimopt and nvimopt is of one of the
// scope types (Global, BufferLocal, WindowLocal, GlobalOrBuffer,
// GlobalOrWindow), which hold an Option; its fields are facts read from
// the editors and are not meant to be changed.
type Option struct {
	// Name is the option's long name, such as "tabstop".
	Name string
	// Short is its short name, such as "ts", or "" when it has none.
	Short string
	// Editor is "vim" or "nvim" when only that editor has the option, ""
	// when both do. A method called under the other editor fails without
	// a round trip.
	Editor string
	// NoLocal, for a global-local option, is the local value (a Vim
	// expression such as -1, -123456 or "''") that means "use the global value".
	NoLocal string
}

// check refuses the call when the editor lacks the option; method is the
// method's name, for the error.
func (o Option) check(c vigor.Caller, method string) error {
	if o.Editor == "" {
		return nil
	}
	host := c.Meta().Host
	if host == o.Editor {
		return nil
	}
	return fmt.Errorf("%s.%s: '%s' is a %s option; %s does not have it",
		o.goName(), method, o.Name, editorName(o.Editor), editorName(host))
}

// editorName is how users call the editor whose Meta.Host is host.
func editorName(host string) string {
	if host == "nvim" {
		return "Neovim"
	}
	return "Vim"
}

// goName is the option's Go name, qualified by its package: the long name
// with its first letter upper-cased (see the package documentation).
func (o Option) goName() string {
	pkg := "opt"
	if o.Editor != "" {
		pkg = o.Editor + "opt"
	}
	return pkg + "." + strings.ToUpper(o.Name[:1]) + o.Name[1:]
}

// get evaluates what, an expression naming the option (such as "&l:ts" or
// "getbufvar(l:buf, '&ts')"), as a T. A Boolean option's value is a
// Number, turned into v:true or v:false; a String option's value goes
// through a concatenation, because one editor's String option may be the
// other's Number ('foldcolumn').
func get[T Value](ctx context.Context, c vigor.Caller, o Option, method, what string, vars map[string]any) (T, error) {
	var v T
	if err := o.check(c, method); err != nil {
		return v, err
	}
	expr := what
	switch any(v).(type) {
	case bool:
		expr = "(" + what + ") ? v:true : v:false"
	case string:
		expr = "'' . (" + what + ")"
	}
	if err := c.EvalInto(ctx, &v, expr, vars); err != nil {
		return v, fmt.Errorf("%s.%s: %w", o.goName(), method, err)
	}
	return v, nil
}

// cmd runs the Ex command line with vars as l: variables.
func (o Option) cmd(ctx context.Context, c vigor.Caller, method, line string, vars map[string]any) error {
	if err := o.check(c, method); err != nil {
		return err
	}
	if err := c.Cmd(ctx, line, vars); err != nil {
		return fmt.Errorf("%s.%s: %w", o.goName(), method, err)
	}
	return nil
}

// set assigns v with :let, whose scope prefix ("", "l:" or "g:") acts as
// :set, :setlocal and :setglobal do.
func set[T Value](ctx context.Context, c vigor.Caller, o Option, method, scope string, v T) error {
	return o.cmd(ctx, c, method, "let &"+scope+o.Name+" = l:v", map[string]any{"v": v})
}

// getIn returns the value of the option in buffer or window n, read with
// fn, getbufvar or getwinvar.
func getIn[T Value](ctx context.Context, c vigor.Caller, o Option, method, fn string, n int) (T, error) {
	return get[T](ctx, c, o, method, fn+"(l:n, '&"+o.Name+"')", map[string]any{"n": n})
}

// setIn sets the local value of the option in buffer or window n with fn,
// setbufvar or setwinvar.
func setIn[T Value](ctx context.Context, c vigor.Caller, o Option, method, fn string, n int, v T) error {
	if err := o.check(c, method); err != nil {
		return err
	}
	if err := c.CallInto(ctx, nil, fn, n, "&"+o.Name, v); err != nil {
		return fmt.Errorf("%s.%s: %w", o.goName(), method, err)
	}
	return nil
}

// Global is an option with one value for the whole editor.
type Global[T Value] struct{ Option }

// Get returns the option's value.
func (o Global[T]) Get(ctx context.Context, c vigor.Caller) (T, error) {
	return get[T](ctx, c, o.Option, "Get", "&"+o.Name, nil)
}

// Set sets the option's value, as :set does.
func (o Global[T]) Set(ctx context.Context, c vigor.Caller, v T) error {
	return set(ctx, c, o.Option, "Set", "", v)
}

// Reset sets the option to its default value, as :set {option}& does.
func (o Global[T]) Reset(ctx context.Context, c vigor.Caller) error {
	return o.cmd(ctx, c, "Reset", "set "+o.Name+"&", nil)
}

// Local has the methods that BufferLocal and WindowLocal share: an
// option with a value in each buffer (or window), the local value, and a
// global value that new buffers (or windows split from this one) start
// from. "Here" is the current buffer (or window).
type Local[T Value] struct{ Option }

// Get returns the value here.
func (o Local[T]) Get(ctx context.Context, c vigor.Caller) (T, error) {
	return get[T](ctx, c, o.Option, "Get", "&l:"+o.Name, nil)
}

// Set sets the value here and the global value, as :set does.
func (o Local[T]) Set(ctx context.Context, c vigor.Caller, v T) error {
	return set(ctx, c, o.Option, "Set", "", v)
}

// Reset sets the value here and the global value to the default, as
// :set {option}& does.
func (o Local[T]) Reset(ctx context.Context, c vigor.Caller) error {
	return o.cmd(ctx, c, "Reset", "set "+o.Name+"&", nil)
}

// GetLocal returns the value here, as Get does.
func (o Local[T]) GetLocal(ctx context.Context, c vigor.Caller) (T, error) {
	return get[T](ctx, c, o.Option, "GetLocal", "&l:"+o.Name, nil)
}

// SetLocal sets the value here only, as :setlocal does.
func (o Local[T]) SetLocal(ctx context.Context, c vigor.Caller, v T) error {
	return set(ctx, c, o.Option, "SetLocal", "l:", v)
}

// ResetLocal sets the value here to the default, as :setlocal {option}&
// does.
func (o Local[T]) ResetLocal(ctx context.Context, c vigor.Caller) error {
	return o.cmd(ctx, c, "ResetLocal", "setlocal "+o.Name+"&", nil)
}

// GetGlobal returns the global value (for a window option, the current
// window's).
func (o Local[T]) GetGlobal(ctx context.Context, c vigor.Caller) (T, error) {
	return get[T](ctx, c, o.Option, "GetGlobal", "&g:"+o.Name, nil)
}

// SetGlobal sets the global value only, as :setglobal does.
func (o Local[T]) SetGlobal(ctx context.Context, c vigor.Caller, v T) error {
	return set(ctx, c, o.Option, "SetGlobal", "g:", v)
}

// ResetGlobal sets the global value to the default, as
// :setglobal {option}& does.
func (o Local[T]) ResetGlobal(ctx context.Context, c vigor.Caller) error {
	return o.cmd(ctx, c, "ResetGlobal", "setglobal "+o.Name+"&", nil)
}

// BufferLocal is an option with a value in each buffer: it has the methods
// of Local, for the current buffer, and GetBuffer and SetBuffer for any.
type BufferLocal[T Value] struct{ Local[T] }

// GetBuffer returns the value in buffer buf (a buffer number; 0 is the
// current buffer).
func (o BufferLocal[T]) GetBuffer(ctx context.Context, c vigor.Caller, buf int) (T, error) {
	return getIn[T](ctx, c, o.Option, "GetBuffer", "getbufvar", buf)
}

// SetBuffer sets the value in buffer buf (a buffer number; 0 is the
// current buffer), as setbufvar() does.
func (o BufferLocal[T]) SetBuffer(ctx context.Context, c vigor.Caller, buf int, v T) error {
	return setIn(ctx, c, o.Option, "SetBuffer", "setbufvar", buf, v)
}

// WindowLocal is an option with a value in each window: it has the methods
// of Local, for the current window, and GetWindow and SetWindow for any.
type WindowLocal[T Value] struct{ Local[T] }

// GetWindow returns the value in window win (a window ID or number; 0 is
// the current window).
func (o WindowLocal[T]) GetWindow(ctx context.Context, c vigor.Caller, win int) (T, error) {
	return getIn[T](ctx, c, o.Option, "GetWindow", "getwinvar", win)
}

// SetWindow sets the local value in window win (a window ID or number; 0
// is the current window), as setwinvar() does.
func (o WindowLocal[T]) SetWindow(ctx context.Context, c vigor.Caller, win int, v T) error {
	return setIn(ctx, c, o.Option, "SetWindow", "setwinvar", win, v)
}

// GlobalLocal has the methods that GlobalOrBuffer and GlobalOrWindow
// share: a global-local option (:help global-local), with a global value
// that a buffer (or window) may override with a local value of its own.
// "Here" is the current buffer (or window).
type GlobalLocal[T Value] struct{ Option }

// Get returns the value in effect here: the local value if there is one
// (see HasLocal), else the global value.
func (o GlobalLocal[T]) Get(ctx context.Context, c vigor.Caller) (T, error) {
	return get[T](ctx, c, o.Option, "Get", "&"+o.Name, nil)
}

// Set sets the global value and removes the local value here, so that the
// new value is in effect here.
func (o GlobalLocal[T]) Set(ctx context.Context, c vigor.Caller, v T) error {
	return o.cmd(ctx, c, "Set", "let &g:"+o.Name+" = l:v | "+o.unsetLocal(), map[string]any{"v": v})
}

// Reset sets the global value to the default and removes the local value
// here.
func (o GlobalLocal[T]) Reset(ctx context.Context, c vigor.Caller) error {
	return o.cmd(ctx, c, "Reset", "set "+o.Name+"& | "+o.unsetLocal(), nil)
}

// HasLocal reports whether there is a local value here.
func (o GlobalLocal[T]) HasLocal(ctx context.Context, c vigor.Caller) (bool, error) {
	return get[bool](ctx, c, o.Option, "HasLocal", "&l:"+o.Name+" !=# "+o.NoLocal, nil)
}

// SetLocal sets a local value here, as :setlocal does.
func (o GlobalLocal[T]) SetLocal(ctx context.Context, c vigor.Caller, v T) error {
	return set(ctx, c, o.Option, "SetLocal", "l:", v)
}

// UnsetLocal removes the local value here, so that the global value
// applies.
func (o GlobalLocal[T]) UnsetLocal(ctx context.Context, c vigor.Caller) error {
	return o.cmd(ctx, c, "UnsetLocal", o.unsetLocal(), nil)
}

// GetGlobal returns the global value.
func (o GlobalLocal[T]) GetGlobal(ctx context.Context, c vigor.Caller) (T, error) {
	return get[T](ctx, c, o.Option, "GetGlobal", "&g:"+o.Name, nil)
}

// SetGlobal sets the global value only, as :setglobal does.
func (o GlobalLocal[T]) SetGlobal(ctx context.Context, c vigor.Caller, v T) error {
	return set(ctx, c, o.Option, "SetGlobal", "g:", v)
}

// unsetLocal is the command that removes the local value of o, a
// global-local option: it sets it to o.NoLocal. Vim 9.0's :set {option}<,
// and its :set and :set {option}&, copy the global value into the local
// value of a Number or Boolean option instead, where Neovim removes it.
func (o Option) unsetLocal() string {
	return "let &l:" + o.Name + " = " + o.NoLocal
}

// GlobalOrBuffer is a global-local option that a buffer may override: it
// has the methods of GlobalLocal, for the current buffer, and GetBuffer
// and SetBuffer for any.
type GlobalOrBuffer[T Value] struct{ GlobalLocal[T] }

// GetBuffer returns the value in effect in buffer buf (a buffer number; 0
// is the current buffer).
func (o GlobalOrBuffer[T]) GetBuffer(ctx context.Context, c vigor.Caller, buf int) (T, error) {
	return getIn[T](ctx, c, o.Option, "GetBuffer", "getbufvar", buf)
}

// SetBuffer gives buffer buf (a buffer number; 0 is the current buffer) a
// local value, as setbufvar() does.
func (o GlobalOrBuffer[T]) SetBuffer(ctx context.Context, c vigor.Caller, buf int, v T) error {
	return setIn(ctx, c, o.Option, "SetBuffer", "setbufvar", buf, v)
}

// GlobalOrWindow is a global-local option that a window may override: it
// has the methods of GlobalLocal, for the current window, and GetWindow
// and SetWindow for any.
type GlobalOrWindow[T Value] struct{ GlobalLocal[T] }

// GetWindow returns the value in effect in window win (a window ID or
// number; 0 is the current window).
func (o GlobalOrWindow[T]) GetWindow(ctx context.Context, c vigor.Caller, win int) (T, error) {
	return getIn[T](ctx, c, o.Option, "GetWindow", "getwinvar", win)
}

// SetWindow gives window win (a window ID or number; 0 is the current
// window) a local value, as setwinvar() does.
func (o GlobalOrWindow[T]) SetWindow(ctx context.Context, c vigor.Caller, win int, v T) error {
	return setIn(ctx, c, o.Option, "SetWindow", "setwinvar", win, v)
}
