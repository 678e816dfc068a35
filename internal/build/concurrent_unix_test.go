//go:build unix

package build

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// builderEnv makes the test binary a builder process (TestBuilderProcess):
// its value is the cache, then the SDK, then the go command, each on a line.
const builderEnv = "VIGOR_BUILD_TEST_BUILDER"

// TestBuilderProcess is not a test: run with builderEnv set, it builds the
// plugin p of the SDK named there once, as one editor's vigor command
// would, and prints "ok BIN" or the error.
func TestBuilderProcess(t *testing.T) {
	spec := os.Getenv(builderEnv)
	if spec == "" {
		return
	}
	f := strings.Split(spec, "\n")
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	res := Build(ctx, Options{Cache: f[0], SDK: f[1], Go: f[2]}, []Plugin{{Name: "p", Dir: filepath.Join(f[1], "vigor", "p")}})
	if res[0].Err != nil {
		fmt.Println("error", res[0].Err)
		os.Exit(1)
	}
	fmt.Println("ok", res[0].Bin)
	os.Exit(0)
}

// Eight builder processes that start at once on the same plugin, over a
// lock file left by a builder that died (issue 9, item 9), build it
// exactly once, every round: one of them compiles, and the others use its
// result. The compiler is a script that logs each build and takes 50 ms.
func TestConcurrentBuildersBuildOnce(t *testing.T) {
	const rounds, builders = 20, 8
	dead := deadPid(t)
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	for round := range rounds {
		dir := t.TempDir()
		sdk := filepath.Join(dir, "sdk")
		writeFile(t, sdk, "go.mod", "module "+SDKModule+"\n\ngo 1.22\n")
		writeFile(t, sdk, "vigor/p/main.go", "package main\n\nfunc main() {}\n")
		log := filepath.Join(dir, "builds.log")
		goCmd := writeFile(t, dir, "go", `#!/bin/sh
echo "$*" >> '`+log+`'
out=
prev=
for a in "$@"; do
  if [ "$prev" = -o ]; then out=$a; fi
  prev=$a
done
sleep 0.05
echo program > "$out"
`)
		if err := os.Chmod(goCmd, 0o755); err != nil {
			t.Fatal(err)
		}
		cache := filepath.Join(dir, "cache")
		b := &builder{opts: Options{Cache: cache, SDK: sdk, Go: goCmd}}
		key, err := b.key(filepath.Join(sdk, "vigor", "p"), sdk)
		if err != nil {
			t.Fatal(err)
		}
		// A left-over lock: of a dead builder, or (every other round) of a
		// live process but older than staleLock.
		stale := filepath.Join(cache, "plugins", "p", key+".lock")
		pid := dead
		if round%2 == 1 {
			pid = os.Getpid()
		}
		writeFile(t, filepath.Dir(stale), filepath.Base(stale), strconv.Itoa(pid)+"\n")
		if round%2 == 1 {
			old := time.Now().Add(-2 * staleLock)
			if err := os.Chtimes(stale, old, old); err != nil {
				t.Fatal(err)
			}
		}

		var wg sync.WaitGroup
		outs := make([]string, builders)
		errs := make([]error, builders)
		for i := range builders {
			wg.Add(1)
			go func() {
				defer wg.Done()
				c := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestBuilderProcess$", "-test.count=1")
				c.Env = append(os.Environ(), builderEnv+"="+cache+"\n"+sdk+"\n"+goCmd)
				out, err := c.Output()
				outs[i], errs[i] = string(out), err
			}()
		}
		wg.Wait()
		var bin string
		for i := range builders {
			first, _, _ := strings.Cut(outs[i], "\n")
			if errs[i] != nil || !strings.HasPrefix(first, "ok ") {
				t.Fatalf("round %d: builder %d: %v: %s", round, i, errs[i], outs[i])
			}
			if bin == "" {
				bin = strings.TrimPrefix(first, "ok ")
			} else if got := strings.TrimPrefix(first, "ok "); got != bin {
				t.Fatalf("round %d: builders got %s and %s, want one program", round, bin, got)
			}
		}
		calls, _ := os.ReadFile(log)
		if n := strings.Count(string(calls), "build "); n != 1 {
			t.Fatalf("round %d: %d builds, want exactly 1:\n%s", round, n, calls)
		}
	}
}
