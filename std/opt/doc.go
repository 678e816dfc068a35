// Package opt has a typed Go variable for every option that both pinned
// editors, Vim 9.0.1378 and Neovim 0.11.4, have: 310 options. The options
// only Vim has are in package vimopt (60), those only Neovim has in
// package nvimopt (31). 41 options that an editor names but neither has
// are not wrapped; they are listed, with the reason, at the variables. The
// variables are generated from the editors themselves (internal/gen/opt):
// an editor has an option when exists('+name') is true in it, so an option
// that the pinned Vim lacks for want of a build feature, and one that
// Neovim keeps by name but that does nothing there ('compatible'), count as
// missing from that editor.
//
//	ts, err := opt.Tabstop.Get(ctx, p)             // &l:tabstop, an int
//	err = opt.Expandtab.SetLocal(ctx, p, true)     // :setlocal expandtab
//	err = opt.Wrap.SetWindow(ctx, p, winid, false) // setwinvar()
//	err = opt.Scrolloff.Reset(ctx, p)              // :set scrolloff&
//
// # Names and types
//
// An option's Go name is its long name with the first letter upper-cased
// ('tabstop' is Tabstop, 'nrformats' is Nrformats); option names are
// lower-case letters, so the rule gives no keyword, and the generator fails
// if one would collide with the package's own names. A Boolean option's
// value is a bool, a Number option's an int and a String option's a string
// (comma-separated lists included).
//
// # Scopes and methods
//
// Each variable's type says where the option's value lives, and has a
// method for each way to reach it:
//
//   - Global (one value): Get, Set, Reset.
//   - BufferLocal and WindowLocal (a value in each buffer or window, and
//     a global value that new ones start from; their shared methods are
//     those of Local, which they embed): Get and GetLocal (the
//     current buffer's or window's value), Set (:set: local and global),
//     Reset (:set {option}&), SetLocal and ResetLocal (:setlocal),
//     GetGlobal, SetGlobal and ResetGlobal (:setglobal), and GetBuffer and
//     SetBuffer, or GetWindow and SetWindow, for a buffer number or a
//     window ID.
//   - GlobalOrBuffer and GlobalOrWindow (global-local options, :help
//     global-local: a global value that a buffer or window may override;
//     their shared methods are those of GlobalLocal, which they embed):
//     Get (the value in effect), Set and Reset (the global value, removing
//     the current buffer's or window's local value), GetGlobal, SetGlobal,
//     SetLocal, HasLocal (whether there is a local value), UnsetLocal
//     (remove it), and GetBuffer and SetBuffer, or GetWindow and SetWindow.
//
// A global-local option's local value, when it has none, reads as -1 (a
// Number or a Boolean; 'undolevels' -123456) or as an empty String in both
// editors; Get and GetBuffer/GetWindow return the value in effect instead,
// and HasLocal says which it is. UnsetLocal, Set and Reset set the local
// value to that mark themselves, so that both editors end the same: for a
// Number or a Boolean, Vim 9.0's :set {option}<, :set and :set {option}&
// copy the global value into the local value, where Neovim removes it.
// SetBuffer and
// SetWindow set the local value in that buffer or window (setbufvar(),
// setwinvar()), also when it is not the current one.
//
// # Callers and batches
//
// Every method takes a vigor.Caller: a *vigor.Plugin, or a *vigor.Batch,
// where the call is recorded and sent with the rest of the batch. Each
// method is one editor call (an expression, an Ex command or
// setbufvar()/setwinvar()), so it works in a batch unchanged; as with every
// function that returns a value, inside a batch Get returns the zero value
// and b.Into(&v) receives the value once the batch has run:
//
//	var ts int
//	err := p.Batch(ctx, func(b *vigor.Batch) error {
//		opt.Tabstop.Set(ctx, b, 4)
//		opt.Tabstop.Get(ctx, b.Into(&ts))
//		return nil
//	})
//
// A vimopt option used in Neovim, or an nvimopt option in Vim, fails at
// once, without a round trip, with an error such as
//
//	vimopt.Compatible.Get: 'compatible' is a Vim option; Neovim does not have it
//
// and an error from the editor (a value the option refuses) is wrapped
// with the option and the method: `opt.Tabstop.Set: ...`. In a batch, the
// editor's error is the batch's *vigor.BatchError, whose Index is the
// failed call's.
//
// # Where the editors disagree
//
// Three common options differ between the editors, and use what works in
// both (the generated list is at the variables): 'foldcolumn' is a Number
// in Vim and a String in Neovim, so it is a String here; 'completeopt' is
// global in Vim and global-local in Neovim, so it is Global here; and Vim's
// options.txt gives no scope for 'packpath', which is global as in Neovim.
// Vim's 'cmdheight' is "global or local to tab page": Global here, as in
// Neovim (:set acts on the current tab page).
package opt
