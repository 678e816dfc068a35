// Command opt generates the typed options of std/opt, std/vimopt and
// std/nvimopt from the pinned editors: Vim's runtime/doc/options.txt
// (name, short name, type, scope, build features) checked against the
// running Vim (exists('+name'), the type of the value), and Neovim's
// nvim_get_all_options_info() (name, short name, type, scope, global-local).
// The local value that means "use the global value" of each global-local
// option is read from a fresh editor (&l:name).
//
// Neovim's lua/vim/_meta/options.lua has the same facts; the running
// Neovim's own table is used because it is what the editor does, with no
// annotations to parse.
//
// It runs from std/opt (go generate):
//
//	go run ../../internal/gen/opt [-vim vim] [-nvim nvim] [-root ../..]
//
// The editors default to $VIGOR_TEST_VIM and $VIGOR_TEST_NVIM, or vim and
// nvim on $PATH.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
)

// packages are the packages the generator writes, each to
// std/<name>/options.go.
func packages() []string { return []string{"opt", "vimopt", "nvimopt"} }

func main() {
	vim := flag.String("vim", editor("VIGOR_TEST_VIM", "vim"), "the Vim to read")
	nvim := flag.String("nvim", editor("VIGOR_TEST_NVIM", "nvim"), "the Neovim to read")
	root := flag.String("root", "../..", "the module's root directory")
	flag.Parse()
	if err := run(context.Background(), *vim, *nvim, *root); err != nil {
		fmt.Fprintln(os.Stderr, "gen/opt:", err)
		os.Exit(1)
	}
}

// editor is the editor named by the environment variable env, or name.
func editor(env, name string) string {
	if p := os.Getenv(env); p != "" {
		return p
	}
	return name
}

func run(ctx context.Context, vim, nvim, root string) error {
	files, m, err := generate(ctx, vim, nvim)
	if err != nil {
		return err
	}
	for _, pkg := range packages() {
		if err := os.WriteFile(outPath(root, pkg), files[pkg], 0o644); err != nil {
			return err
		}
	}
	fmt.Printf("options: %d common, %d Vim-only, %d Neovim-only, %d skipped\n", len(m.Common), len(m.VimOnly), len(m.Nvim), len(m.Skipped))
	return nil
}

// generate reads the editors and returns the source of each package.
func generate(ctx context.Context, vim, nvim string) (map[string][]byte, *model, error) {
	f, err := collect(ctx, vim, nvim)
	if err != nil {
		return nil, nil, err
	}
	m, err := build(f)
	if err != nil {
		return nil, nil, err
	}
	files := map[string][]byte{}
	for _, pkg := range packages() {
		if files[pkg], err = render(m, pkg); err != nil {
			return nil, nil, err
		}
	}
	return files, m, nil
}

func outPath(root, pkg string) string {
	return filepath.Join(root, "std", pkg, "options.go")
}
