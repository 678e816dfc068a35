package nvimapi

// The generator writes this package from the pinned Neovim (nvim on
// $PATH, or $VIGOR_TEST_NVIM).
//go:generate go run ../../internal/gen/nvimapi -out .
