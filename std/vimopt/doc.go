// Package vimopt has a typed Go variable for every option that Vim
// 9.0.1378 has and Neovim 0.11.4 does not: 46 options. It lists, at its
// variables, the 33 options that Vim's options.txt documents but that the
// pinned Vim does not have (exists('+name') is false: they need a build
// feature, a GUI or another system) and Neovim does not have either; they
// are not wrapped. The options both editors have are in package opt
// (324), those only Neovim has in nvimopt (39).
//
// The variables have the types and methods of package opt (see there).
// Used in Neovim, every method fails without a round trip:
//
//	vimopt.Compatible.Get: 'compatible' is a Vim option; Neovim does not have it
package vimopt
