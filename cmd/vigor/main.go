// Command vigor is Vigor's tool: it builds plugins for the runtime and, for
// people, checks them.
//
// The runtime builds this command on first use and runs it on every
// startup; it prints machine-readable progress with -json.
//
//	vigor build -sdk DIR [-cache DIR] [-go GO] [-j N] [-force] [-json] NAME=DIR...
//	vigor version
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/vigorvim/vigor"
	"github.com/vigorvim/vigor/internal/build"
	"github.com/vigorvim/vigor/internal/inherited"
)

func main() {
	// Vim starts this command as a job, which inherits the editor's
	// descriptors (the plugins' pipes among them); the go commands that it
	// runs would inherit them in turn and keep the plugins' channels open.
	_, _ = inherited.CloseAll()
	// SIGTERM too: an editor that quits stops its jobs with it, and a
	// build must release its lock and remove its temporary files.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

const usage = `vigor: the Vigor tool (https://github.com/vigorvim/vigor)

Usage:
  vigor build -sdk DIR [-cache DIR] [-go GO] [-j N] [-force] [-json] NAME=DIR...
        build plugins, or find them fresh in the cache. -sdk is the Vigor
        checkout to build against; flags come before the plugins
  vigor version
        print the version

Vim and Neovim run this command for you; see :help vigor.
`

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "build":
		return runBuild(ctx, args[1:], stdout, stderr)
	case "bench":
		// The benchmark is a command of its own, so that the editors'
		// first build of this one compiles less.
		fmt.Fprintln(stderr, "vigor: the benchmark is its own command: run `make bench` in the Vigor checkout, or `go run ./cmd/vigor-bench` there")
		return 2
	case "version", "-version", "--version":
		fmt.Fprintf(stdout, "vigor %s\n", vigor.SDKVersion)
		return 0
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "vigor: unknown command %q\n\n%s", args[0], usage)
	return 2
}

func runBuild(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("vigor build", flag.ContinueOnError)
	fs.SetOutput(stderr)
	jsonOut := fs.Bool("json", false, "print one JSON object per event (for the runtime)")
	force := fs.Bool("force", false, "rebuild even when the cached binary is fresh")
	goCmd := fs.String("go", "go", "the go command")
	cache := fs.String("cache", "", "the cache directory (default: $XDG_CACHE_HOME/vigor or the user's cache directory; the editors pass theirs)")
	sdk := fs.String("sdk", "", "the Vigor checkout that plugins build against (required)")
	jobs := fs.Int("j", 0, "parallel builds (default: the number of CPUs)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	var plugins []build.Plugin
	for _, a := range fs.Args() {
		if strings.HasPrefix(a, "-") {
			fmt.Fprintf(stderr, "vigor build: flag %s comes after the plugins; put flags first\n", a)
			return 2
		}
		name, dir, ok := strings.Cut(a, "=")
		if !ok {
			dir = a
			name = filepath.Base(filepath.Clean(a))
		}
		plugins = append(plugins, build.Plugin{Name: name, Dir: dir})
	}
	if len(plugins) == 0 {
		fmt.Fprintln(stderr, "vigor build: name no plugins (NAME=DIR, or a plugin directory)")
		return 2
	}
	if *sdk == "" {
		fmt.Fprintln(stderr, "vigor build: -sdk is required: the path of the Vigor checkout")
		return 2
	}
	if *cache == "" {
		d, err := build.DefaultCache()
		if err != nil {
			fmt.Fprintf(stderr, "vigor build: %v\n", err)
			return 2
		}
		*cache = d
	}
	enc := json.NewEncoder(stdout)
	progress := func(e build.Event) {
		if *jsonOut {
			_ = enc.Encode(e)
			return
		}
		switch e.Status {
		case "cached":
			fmt.Fprintf(stdout, "%s: up to date (%s)\n", e.Plugin, e.Bin)
		case "building":
			fmt.Fprintf(stdout, "%s: building...\n", e.Plugin)
		case "built":
			fmt.Fprintf(stdout, "%s: built in %.1fs (%s)\n", e.Plugin, float64(e.Ms)/1000, e.Bin)
		case "failed":
			fmt.Fprintf(stderr, "%s: %s\n", e.Plugin, e.Error)
			for _, l := range e.Output {
				fmt.Fprintf(stderr, "    %s\n", l)
			}
		}
	}
	results := build.Build(ctx, build.Options{Go: *goCmd, Cache: *cache, SDK: *sdk, Force: *force, Jobs: *jobs, Progress: progress}, plugins)
	for _, r := range results {
		if r.Err != nil {
			return 1
		}
	}
	return 0
}
