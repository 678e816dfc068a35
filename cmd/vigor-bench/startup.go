package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"

	"github.com/vigorvim/vigor/internal/bench"
)

// runStartup is vigor-bench -startup, which measures startup in a terminal
// instead of the calls:
//
//	vigor-bench -startup [-editor vim|nvim|all] [-n N] [-json]
//
// It is the startup measurement of internal/bench (startup.go), with -n
// rounds (default 7). Its plugins, vimrc files and warm cache are kept in
// the checkout's .cache.
func runStartup(ctx context.Context, fs *flag.FlagSet, editors []string, vim, nvim, root string, jsonOut bool, stdout, stderr io.Writer) int {
	n := 7
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "n" {
			n = f.Value.(flag.Getter).Get().(int)
		}
	})
	opts := bench.StartupOptions{
		Editors: editors, Vim: vim, Nvim: nvim, Root: root, N: n,
		Work:     filepath.Join(root, ".cache", "bench-startup"),
		Progress: func(s string) { fmt.Fprintln(stderr, "vigor-bench: "+s) },
	}
	reps, err := bench.RunStartup(ctx, opts)
	if err != nil {
		fmt.Fprintf(stderr, "vigor-bench: %v\n", err)
		return 1
	}
	if jsonOut {
		if err := bench.WriteStartupJSON(stdout, reps); err != nil {
			fmt.Fprintf(stderr, "vigor-bench: %v\n", err)
			return 1
		}
		return 0
	}
	bench.WriteStartupText(stdout, reps)
	return 0
}
