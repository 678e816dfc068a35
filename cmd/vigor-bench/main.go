// Command vigor-bench is Vigor's main benchmark: it measures call() and
// batch() in headless Vim and Neovim through the normal runtime, as
// denops-benchmark does, and the same round trips made by minimal C
// clients, the limit lines, in the same run (internal/bench, BENCHMARKS.md).
// A third workload, parallel(), makes call()'s count calls from 8
// goroutines at once (several in flight on the channel); the report gives
// its ratio to Vigor's own call() and batch() of the same run.
//
//	vigor-bench [-editor vim|nvim|all] [-size N] [-count N] [-n N] [-rounds N] [-limit=false] [-cpus N] [-json]
//
// It is a command of its own, not part of the vigor command, which every
// user's editor builds on first start.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"

	"github.com/vigorvim/vigor/internal/bench"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return runBench(ctx, args, stdout, stderr)
}

func runBench(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("vigor-bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	editor := fs.String("editor", "all", "vim, nvim or all")
	size := fs.Int("size", 64, "characters per call")
	count := fs.Int("count", 1000, "calls per iteration (and per batch; parallel makes them from 8 goroutines)")
	n := fs.Int("n", 100, "iterations")
	limit := fs.Bool("limit", true, "also run the limit clients (minimal C clients, built with $CC or cc),\nand print Vigor/limit")
	rounds := fs.Int("rounds", 0, "with -limit, split the n iterations into this many rounds in which Vigor\nand the limit clients run in turns, each in fresh editors (default: 10, or fewer when n is small)")
	cpus := fs.Int("cpus", 0, "run the editors and all their jobs on this many CPUs (the last ones), with taskset")
	jsonOut := fs.Bool("json", false, "print one JSON object")
	vimBin := fs.String("vim", envOr("VIGOR_TEST_VIM", "vim"), "the vim binary")
	nvimBin := fs.String("nvim", envOr("VIGOR_TEST_NVIM", "nvim"), "the nvim binary")
	root := fs.String("root", "", "the Vigor checkout (default: the one this command was built from)")
	cache := fs.String("cache", "", "g:vigor#cache_dir for the editors (default: their own)")
	startup := fs.Bool("startup", false, "measure startup as a user sees it instead: the editor alone against Vigor with 0, 1, 10 eager and 10 lazy plugins, in tmux (-n is the rounds, default 7)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "vigor-bench: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	var editors []string
	switch *editor {
	case "all":
		editors = []string{"vim", "nvim"}
	case "vim", "nvim":
		editors = []string{*editor}
	default:
		fmt.Fprintf(stderr, "vigor-bench: -editor is vim, nvim or all, not %q\n", *editor)
		return 2
	}
	if *size < 0 || *count <= 0 || *n <= 0 || *rounds < 0 || *rounds > *n || *cpus < 0 {
		fmt.Fprintln(stderr, "vigor-bench: -count and -n must be positive, -size and -cpus not negative, and -rounds at most -n")
		return 2
	}
	bins := map[string]*string{"vim": vimBin, "nvim": nvimBin}
	for _, e := range editors {
		p, err := exec.LookPath(*bins[e])
		if err != nil {
			fmt.Fprintf(stderr, "vigor-bench: %s not found (%v); install it or pass -%s PATH (scripts/setup-editors.sh installs both)\n", e, err, e)
			return 1
		}
		*bins[e] = p
	}
	if *root == "" {
		*root = sourceRoot()
	}
	if *startup {
		return runStartup(ctx, fs, editors, *vimBin, *nvimBin, *root, *jsonOut, stdout, stderr)
	}
	if _, err := os.Stat(filepath.Join(*root, "benchmark", "vigor", "vigor-benchmark")); err != nil {
		fmt.Fprintf(stderr, "vigor-bench: %s is not a Vigor checkout with the benchmark plugin; pass -root\n", *root)
		return 1
	}
	limitCache, err := os.UserCacheDir()
	if err != nil {
		fmt.Fprintf(stderr, "vigor-bench: %v\n", err)
		return 1
	}
	opts := bench.Options{
		Editors: editors, Vim: *vimBin, Nvim: *nvimBin, Root: *root, Cache: *cache,
		Size: *size, Count: *count, N: *n, Rounds: *rounds, CPUs: *cpus,
		Limit: *limit, LimitCache: filepath.Join(limitCache, "vigor-bench"),
		Progress: func(s string) { fmt.Fprintln(stderr, "vigor-bench: "+s) },
	}
	reps, err := bench.Run(ctx, opts)
	if err != nil {
		fmt.Fprintf(stderr, "vigor-bench: %v\n", err)
		return 1
	}
	if *jsonOut {
		if err := bench.WriteJSON(stdout, reps); err != nil {
			fmt.Fprintf(stderr, "vigor-bench: %v\n", err)
			return 1
		}
		return 0
	}
	bench.WriteText(stdout, reps)
	return 0
}

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

// sourceRoot is the checkout this file was compiled from, or the working
// directory.
func sourceRoot() string {
	_, file, _, ok := runtime.Caller(0)
	if ok && strings.HasSuffix(filepath.ToSlash(file), "cmd/vigor-bench/main.go") {
		return filepath.Dir(filepath.Dir(filepath.Dir(file)))
	}
	wd, _ := os.Getwd()
	return wd
}
