// Package avail holds what the generated std packages share: the check
// that the editor has a function before calling it, and the truth of a
// Boolean result.
package avail

import (
	"fmt"

	"github.com/vigorvim/vigor"
)

// Vim returns an error when c's editor is Neovim: wrapper (such as
// "vimfn.PopupCreate") wraps fn, a function that only Vim has. It makes
// no call; in a batch the error fails the batch too (missing).
func Vim(c vigor.Caller, wrapper, fn string) error {
	if c.Meta().Host == "nvim" {
		return missing(c, fmt.Errorf("%s: %s() is a Vim function; Neovim does not have it", wrapper, fn))
	}
	return nil
}

// missing returns err, the error of a wrapper whose function c's editor
// does not have, and fails the batch that records c's calls, if any: the
// batch then sends nothing, even if its record func ignores err.
func missing(c vigor.Caller, err error) error {
	if _, b := c.Batching(); b != nil {
		b.Fail(err)
	}
	return err
}

// Nvim returns an error when c's editor is Vim: wrapper wraps fn, a
// builtin function that only Neovim has. It makes no call, and fails c's
// batch, as Vim does.
func Nvim(c vigor.Caller, wrapper, fn string) error {
	if c.Meta().Host == "vim" {
		return missing(c, fmt.Errorf("%s: %s() is a Neovim function; Vim does not have it", wrapper, fn))
	}
	return nil
}

// NvimAPI returns an error when c's editor is Vim: wrapper wraps fn, a
// function of Neovim's API. It makes no call, and fails c's batch, as Vim
// does.
func NvimAPI(c vigor.Caller, wrapper, fn string) error {
	if c.Meta().Host == "vim" {
		return missing(c, fmt.Errorf("%s: %s() is a Neovim API function; Vim does not have it", wrapper, fn))
	}
	return nil
}

// Truth is the Boolean that a result stands for: a Number is true when it
// is not zero, as Vim's conditions take it, and v:true is true.
func Truth(v any) bool {
	switch x := v.(type) {
	case bool:
		return x
	case int64:
		return x != 0
	case int:
		return x != 0
	case float64:
		return x != 0
	}
	return false
}
