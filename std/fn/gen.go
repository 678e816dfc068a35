package fn

// The generator writes this package, vimfn and nvimfn from the pinned
// editors (Vim and Neovim on $PATH, or $VIGOR_TEST_VIM and
// $VIGOR_TEST_NVIM).
//go:generate go run ../../internal/gen/fn -out ..
