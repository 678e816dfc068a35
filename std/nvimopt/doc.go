// Package nvimopt has a typed Go variable for every option that Neovim
// 0.11.4 has and the pinned Vim 9.0.1378 does not: 31 options. 9 of them
// Vim documents too, behind a build feature that the pinned Vim lacks
// ('clipboard' needs +xterm_clipboard, for one); their doc comments say so.
// The options both editors have are in package opt (310), those only Vim
// has in vimopt (60); the options neither has are listed in opt. The facts
// come from the running Neovim's nvim_get_all_options_info().
//
// The variables have the types and methods of package opt (see there).
// Used in Vim, every method fails without a round trip:
//
//	nvimopt.Winbar.Get: 'winbar' is a Neovim option; Vim does not have it
package nvimopt
