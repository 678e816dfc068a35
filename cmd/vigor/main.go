// Command vigor is Vigor's tool: it builds plugins for the runtime and, for
// plugin authors, creates plugin repositories and sets them up for the Go
// tools.
//
// The runtime builds this command on first use and runs it on every
// startup; it prints machine-readable progress with -json.
//
//	vigor build [-sdk DIR] [-cache DIR] [-go GO] [-j N] [-force] [-json] [-self FILE] NAME=DIR...
//	vigor new [-sdk DIR] NAME [DIR]
//	vigor dev [-sdk DIR] [DIR]
//	vigor version
//	vigor help [COMMAND]
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
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
  vigor build [flags] NAME=DIR...   build plugins, or find them fresh in the cache
  vigor new NAME [DIR]              create a plugin repository whose tests pass
  vigor dev [DIR]                   set a plugin repository up for the Go tools
  vigor version                     print the version
  vigor help [COMMAND]              print this, or the usage of COMMAND

Vim and Neovim run this command for you; see :help vigor.
`

const buildUsage = `Usage: vigor build [flags] NAME=DIR...

Builds each plugin NAME from DIR, its vigor/NAME directory in a plugin
repository (a plain DIR means NAME=DIR with NAME its last element), or
finds it fresh in the cache. Flags come before the plugins.

Flags:
`

const versionUsage = `Usage: vigor version

Prints the version of Vigor that this command was built from.
`

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "build":
		return runBuild(ctx, args[1:], stdout, stderr)
	case "new":
		return runNew(ctx, args[1:], stdout, stderr)
	case "dev":
		return runDev(ctx, args[1:], stdout, stderr)
	case "bench":
		// The benchmark is a command of its own, so that the editors'
		// first build of this one compiles less.
		fmt.Fprintln(stderr, "vigor: the benchmark is its own command: run `make bench` in the Vigor checkout, or `go run ./cmd/vigor-bench` there")
		return 2
	case "version", "-version", "--version":
		if len(args) > 1 && isHelp(args[1]) {
			fmt.Fprint(stdout, versionUsage)
			return 0
		}
		fmt.Fprintf(stdout, "vigor %s\n", vigor.SDKVersion)
		return 0
	case "help", "-h", "-help", "--help":
		if len(args) == 1 {
			fmt.Fprint(stdout, usage)
			return 0
		}
		switch args[1] {
		case "build":
			return runBuild(ctx, []string{"-h"}, stdout, stderr)
		case "new":
			return runNew(ctx, []string{"-h"}, stdout, stderr)
		case "dev":
			return runDev(ctx, []string{"-h"}, stdout, stderr)
		case "version":
			fmt.Fprint(stdout, versionUsage)
			return 0
		}
		fmt.Fprintf(stderr, "vigor help: unknown command %q\n\n%s", args[1], usage)
		return 2
	}
	fmt.Fprintf(stderr, "vigor: unknown command %q\n\n%s", args[0], usage)
	return 2
}

func isHelp(arg string) bool {
	return arg == "-h" || arg == "-help" || arg == "--help"
}

func runBuild(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("vigor build", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), buildUsage)
		fs.PrintDefaults()
	}
	jsonOut := fs.Bool("json", false, "print one JSON object per event (for the runtime)")
	force := fs.Bool("force", false, "rebuild even when the cached binary is fresh")
	goCmd := fs.String("go", "go", "the go command")
	cache := fs.String("cache", "", "the cache directory (default: $XDG_CACHE_HOME/vigor or the user's cache directory; the editors pass theirs)")
	sdk := fs.String("sdk", sourceCheckout(), "the Vigor checkout that plugins build against")
	jobs := fs.Int("j", 0, "parallel builds (default: the number of CPUs)")
	self := fs.String("self", "", "first check that this command's sources in -sdk are those that FILE lists (the runtime's\nlist, written where it built this command): say \"fresh\", or say \"stale\" and exit 3 without building")
	if len(args) > 0 && isHelp(args[0]) {
		fs.SetOutput(stdout)
		fs.Usage()
		return 0
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
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
		if names := repoPlugins(dir); names != nil {
			fmt.Fprintf(stderr, "vigor build: %s is a plugin repository, not a plugin: name its plugins, such as %s\n",
				dir, filepath.Join(dir, "vigor", names[0]))
			return 2
		}
		plugins = append(plugins, build.Plugin{Name: name, Dir: dir})
	}
	if len(plugins) == 0 {
		fmt.Fprint(stderr, "vigor build: name the plugins to build, as NAME=DIR or DIR (a repository's vigor/NAME)\n\n")
		fs.Usage()
		return 2
	}
	if *sdk == "" {
		fmt.Fprintln(stderr, "vigor build: -sdk is needed: the path of the Vigor checkout (this command was built without one)")
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
		case "fresh", "stale":
			fmt.Fprintf(stdout, "the vigor command is %s\n", e.Status)
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
	if *self != "" {
		status := "fresh"
		if !build.SourcesFresh(*sdk, *self) {
			status = "stale"
		}
		progress(build.Event{Status: status})
		if status == "stale" {
			return 3
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

// repoPlugins returns the plugin names under dir/vigor/ when dir is a
// plugin repository rather than a plugin (it has no .go files of its own),
// or nil.
func repoPlugins(dir string) []string {
	if goFiles, _ := filepath.Glob(filepath.Join(dir, "*.go")); len(goFiles) > 0 {
		return nil
	}
	entries, err := os.ReadDir(filepath.Join(dir, "vigor"))
	if err != nil {
		return nil
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() {
			names = append(names, e.Name())
		}
	}
	return names
}

// sourceCheckout is the Vigor checkout that this command was built from,
// or "" when that is not known (a -trimpath build, or a checkout since
// moved): the path that the compiler recorded for this file, if it still
// holds Vigor's go.mod.
func sourceCheckout() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok || !filepath.IsAbs(file) {
		return ""
	}
	root := filepath.Dir(filepath.Dir(filepath.Dir(file)))
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil || !strings.HasPrefix(string(mod), "module github.com/vigorvim/vigor\n") {
		return ""
	}
	return root
}
