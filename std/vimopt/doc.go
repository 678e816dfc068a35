// Package vimopt has a typed Go variable for every option that Vim
// 9.0.1378 has and Neovim 0.11.4 does not: 60 options, 14 of which Neovim
// keeps by name though they do nothing there ('compatible'; their doc
// comments say so). The options both editors have are in package opt
// (310), those only Neovim has in nvimopt (31); the options neither has are
// listed in opt.
//
// The variables have the types and methods of package opt (see there).
// Used in Neovim, every method fails without a round trip:
//
//	vimopt.Compatible.Get: 'compatible' is a Vim option; Neovim does not have it
package vimopt
