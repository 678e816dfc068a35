// Package variables reads, sets and removes the editor's variables: the
// g:, b:, w:, t: and v: variables, environment variables ($NAME) and
// registers (@r), the same way on Vim and Neovim.
//
//	n, err := variables.Get(ctx, p, variables.G, "myplugin_count", 0)
//	err = variables.Set(ctx, p, variables.B, "myplugin_lines", 42)
//	err = variables.Remove(ctx, p, variables.B, "myplugin_lines")
//	home, err := variables.Get(ctx, p, variables.Env, "HOME", "")
//	text, err := variables.Get(ctx, p, variables.Register, "a", "")
//
// b:, w: and t: are those of the current buffer, window and tab page.
// Those of a given one have functions of their own, and so has a key of
// a Dict variable:
//
//	err = variables.BufSet(ctx, p, bufnr, "myplugin_lines", 42)
//	lines, err := variables.BufGet(ctx, p, bufnr, "myplugin_lines", 0)
//	err = variables.WinRemove(ctx, p, winid, "myplugin_mark")
//	err = variables.DictSet(ctx, p, variables.G, "myplugin", "width", 80)
//	w, err := variables.DictGet(ctx, p, variables.G, "myplugin", "width", 40)
//
// # A given buffer, window or tab page
//
// BufGet, BufSet and BufRemove take a buffer number (bufnr()), WinGet,
// WinSet and WinRemove a window ID (win_getid(), of any tab page), and
// TabGet, TabSet and TabRemove a tab page number (tabpagenr()). They work
// as Get, Set and Remove do in B, W and T, through getbufvar(),
// setbufvar(), gettabwinvar(), settabwinvar(), gettabvar() and
// settabvar(); Remove removes the variable from the dictionary of them
// all that getbufvar() and the others return for an empty name, which the
// editors allow for every variable but b:changedtick (E795). A number below 1 is an error
// made without a call; one that names no buffer, window or tab page is
// an error too ("variables.BufGet: there is no buffer 99"), where the
// editor functions would return the default or do nothing.
//
// # A key of a Dict variable
//
// DictGet, DictSet and DictRemove read, set and remove one key of a Dict
// variable of G, B, W or T; the key is any String. DictGet returns def
// when the variable is not set or has no such key, DictSet of a variable
// that is not set sets it to a Dict that holds the key, and DictRemove of
// a key or a variable that is not there does nothing. A variable that is
// not a Dict is the editor's error.
//
// # Round trips and batches
//
// Each function is one call to the editor, so it works in a batch
// unchanged (pass the *vigor.Batch as c): there Get records the call and
// returns the zero value, and b.Into(&v) receives the value when the
// batch has run:
//
//	var n int
//	err := p.Batch(ctx, func(b *vigor.Batch) error {
//		variables.Set(ctx, b, variables.G, "x", 1)
//		_, err := variables.Get(ctx, b.Into(&n), variables.G, "x", 0)
//		return err
//	})
//
// Outside a batch an error from the editor comes back with the
// function's name first ("variables.Set: " and the editor's message);
// inside a batch it fails the batch, as every call's error does.
//
// # Names
//
// A name is given without its scope ("count" for g:count). The name of a
// variable (environment variables too) is a letter or '_' followed by
// letters, digits and '_', and a g: variable's may also have '#' after
// its first character (autoload variables such as g:plugin#opt, which
// the editors allow only in g:); a register's name is one of the characters of
// :help registers ("a" to "z", "A" to "Z" to append, "0" to "9", and
// "\"-*+_/:.%#="). Any other name is an error that names the function and
// the name, made without a call to the editor:
//
//	variables.Set: "1x" is not a variable name
//
// The names reach the editor only after this check, and values only as
// l: variables (see vigor.Caller's EvalInto), never inside the text of
// an expression.
//
// # Unset, removed and read-only
//
// Get returns def when the variable is not set: a g:, b:, w:, t: or v:
// variable that does not exist, an environment variable that is not set
// (both editors unset one that is set to "", so Get returns def for it),
// an empty register. Remove of a variable that is
// not set does nothing and is not an error; Remove of a register empties
// it, and v: variables cannot be removed (an error, without a call).
// Set of a read-only v: variable (v:version) or b: variable
// (b:changedtick) fails with the editor's error (E46). A register's value
// is a String (with "\n" between lines); Set also takes a []string of
// lines, as setreg() does.
package variables

import (
	"context"
	"fmt"
	"strings"

	"github.com/vigorvim/vigor"
)

// Scope is where a variable lives: G, B, W, T, V, Env or Register.
type Scope struct {
	// prefix is what Vim script writes before the name: "g:", "$", "@".
	prefix string
}

// The scopes.
var (
	G        = Scope{"g:"} // global variables
	B        = Scope{"b:"} // the current buffer's variables
	W        = Scope{"w:"} // the current window's variables
	T        = Scope{"t:"} // the current tab page's variables
	V        = Scope{"v:"} // Vim's predefined variables
	Env      = Scope{"$"}  // environment variables
	Register = Scope{"@"}  // registers
)

// String returns the scope as Vim script writes it before a name: "g:",
// "$" or "@".
func (s Scope) String() string { return s.prefix }

// registerNames are the names that a register can have.
const registerNames = `"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-*+_/:.%#=`

// check says what is wrong with name in s, for the function fn
// ("variables.Get"), if anything.
func (s Scope) check(fn, name string) error {
	switch s.prefix {
	case "":
		return fmt.Errorf("%s: the scope is the zero Scope; use variables.G, B, W, T, V, Env or Register", fn)
	case "@":
		if len(name) != 1 || strings.IndexByte(registerNames, name[0]) < 0 {
			return fmt.Errorf("%s: %q is not a register name", fn, name)
		}
		return nil
	}
	ok := name != ""
	for i := 0; ok && i < len(name); i++ {
		c := name[i]
		ok = c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' ||
			i > 0 && ('0' <= c && c <= '9' || c == '#' && s.prefix == "g:")
	}
	if !ok {
		if s.prefix == "$" {
			return fmt.Errorf("%s: %q is not an environment variable name", fn, name)
		}
		return fmt.Errorf("%s: %q is not a variable name", fn, name)
	}
	return nil
}

// Get returns the value of the variable name in scope s decoded into a
// T, or def when it is not set. In a batch it returns the zero T: pass
// b.Into(&v) as c to receive the value.
func Get[T any](ctx context.Context, c vigor.Caller, s Scope, name string, def T) (T, error) {
	var zero T
	if err := s.check("variables.Get", name); err != nil {
		return zero, err
	}
	var expr string
	switch s.prefix {
	case "$":
		expr = "getenv(l:n) is v:null ? l:d : getenv(l:n)"
	case "@":
		expr = "getreg(l:n) is# '' ? l:d : getreg(l:n)"
	default:
		expr = "get(" + s.prefix + ", l:n, l:d)"
	}
	v, err := vigor.EvalAs[T](ctx, c, expr, map[string]any{"n": name, "d": def})
	if err != nil {
		return zero, fmt.Errorf("variables.Get: %s%s: %w", s.prefix, name, err)
	}
	return v, nil
}

// Set sets the variable name in scope s to v, as :let does (setreg() for
// a register).
func Set(ctx context.Context, c vigor.Caller, s Scope, name string, v any) error {
	if err := s.check("variables.Set", name); err != nil {
		return err
	}
	var err error
	if s.prefix == "@" {
		err = c.CallInto(ctx, nil, "setreg", name, v)
	} else {
		// name has passed check: it is letters, digits, '_' and '#'.
		err = c.Cmd(ctx, "let "+s.prefix+name+" = l:v", map[string]any{"v": v})
	}
	if err != nil {
		return fmt.Errorf("variables.Set: %w", err)
	}
	return nil
}

// Remove removes the variable name from scope s, as :unlet! does; a
// variable that is not set is no error. Remove empties a register, and
// fails for a v: variable.
func Remove(ctx context.Context, c vigor.Caller, s Scope, name string) error {
	if err := s.check("variables.Remove", name); err != nil {
		return err
	}
	var err error
	switch s.prefix {
	case "v:":
		return fmt.Errorf("variables.Remove: v:%s: v: variables cannot be removed", name)
	case "@":
		err = c.CallInto(ctx, nil, "setreg", name, []string{})
	default:
		// name has passed check: it is letters, digits, '_' and '#'.
		err = c.Cmd(ctx, "unlet! "+s.prefix+name, nil)
	}
	if err != nil {
		return fmt.Errorf("variables.Remove: %w", err)
	}
	return nil
}
