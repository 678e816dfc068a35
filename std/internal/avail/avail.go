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
// no call.
func Vim(c vigor.Caller, wrapper, fn string) error {
	if c.Meta().Host == "nvim" {
		return fmt.Errorf("%s: %s() is a Vim function; Neovim does not have it", wrapper, fn)
	}
	return nil
}

// Nvim returns an error when c's editor is Vim: wrapper wraps fn, a
// builtin function that only Neovim has. It makes no call.
func Nvim(c vigor.Caller, wrapper, fn string) error {
	if c.Meta().Host == "vim" {
		return fmt.Errorf("%s: %s() is a Neovim function; Vim does not have it", wrapper, fn)
	}
	return nil
}

// NvimAPI returns an error when c's editor is Vim: wrapper wraps fn, a
// function of Neovim's API. It makes no call.
func NvimAPI(c vigor.Caller, wrapper, fn string) error {
	if c.Meta().Host == "vim" {
		return fmt.Errorf("%s: %s() is a Neovim API function; Vim does not have it", wrapper, fn)
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
