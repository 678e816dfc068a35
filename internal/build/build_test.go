package build

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// timeout only keeps a broken test from hanging; nothing here is timed.
const timeout = 2 * time.Minute

func TestValidName(t *testing.T) {
	for _, name := range []string{"hello", "my-plugin", "my_plugin2", "A", "0", "-_-"} {
		if !ValidName(name) {
			t.Errorf("ValidName(%q) = false, want true", name)
		}
	}
	for _, name := range []string{"", "bad.name", "a b", "a/b", `a\b`, "..", "../x", "é", "a\n", "a:b"} {
		if ValidName(name) {
			t.Errorf("ValidName(%q) = true, want false", name)
		}
	}
}

// writeFile writes a file under dir, making its directories.
func writeFile(t *testing.T, dir, rel, text string) string {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestFindModule(t *testing.T) {
	root := t.TempDir()
	if found, err := findModule(root); err == nil {
		t.Skipf("the temp dir %s is inside a module (%s)", root, found)
	}
	plugin := filepath.Join(root, "repo", "vigor", "p")
	if err := os.MkdirAll(plugin, 0o755); err != nil {
		t.Fatal(err)
	}

	_, err := findModule(plugin)
	if err == nil {
		t.Fatal("findModule found a module where there is none")
	}
	for _, want := range []string{"no go.mod in " + plugin, "go mod init"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q, want it to contain %q", err, want)
		}
	}

	writeFile(t, root, "repo/go.mod", "module example.com/repo\n")
	got, err := findModule(plugin)
	if err != nil || got != filepath.Join(root, "repo") {
		t.Fatalf("findModule = %q, %v; want %q", got, err, filepath.Join(root, "repo"))
	}
	writeFile(t, root, "repo/vigor/p/go.mod", "module example.com/p\n")
	if got, err := findModule(plugin); err != nil || got != plugin {
		t.Fatalf("findModule = %q, %v; want the plugin's own module %q", got, err, plugin)
	}
}

func treeHash(t *testing.T, root string, sdkOnly bool) string {
	t.Helper()
	h := sha256.New()
	if err := hashTree(h, root, sdkOnly); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// touch moves a file's modification time by d.
func touch(t *testing.T, p string, d time.Duration) {
	t.Helper()
	st, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	mt := st.ModTime().Add(d)
	if err := os.Chtimes(p, mt, mt); err != nil {
		t.Fatal(err)
	}
}

func TestHashTree(t *testing.T) {
	dir := t.TempDir()
	main := writeFile(t, dir, "main.go", "package main\n")
	writeFile(t, dir, "go.mod", "module example.com/p\n")
	writeFile(t, dir, "lib/lib.go", "package lib\n")
	base := treeHash(t, dir, false)
	if again := treeHash(t, dir, false); again != base {
		t.Fatal("the hash of an unchanged tree changed")
	}

	changes := []struct {
		name   string
		change func()
	}{
		{"mtime", func() { touch(t, main, time.Second) }},
		{"size", func() { writeFile(t, dir, "main.go", "package main\n\n") }},
		{"new file", func() { writeFile(t, dir, "lib/more.go", "package lib\n") }},
		{"data file", func() { writeFile(t, dir, "words.txt", "embedded\n") }},
	}
	prev := base
	for _, c := range changes {
		c.change()
		h := treeHash(t, dir, false)
		if h == prev {
			t.Errorf("%s: the hash did not change", c.name)
		}
		prev = h
	}

	ignored := []struct {
		name string
		rel  string
	}{
		{"hidden dir", ".git/HEAD"},
		{"underscore dir", "_scratch/x.go"},
		{"testdata", "testdata/in.txt"},
		{"node_modules", "node_modules/m/index.js"},
		{"nested module", "tools/go.mod"},
		{"file in a nested module", "tools/tool.go"},
	}
	for _, c := range ignored {
		writeFile(t, dir, c.rel, "x\n")
		if h := treeHash(t, dir, false); h != prev {
			t.Errorf("%s: %s changed the hash", c.name, c.rel)
			prev = h
		}
	}
}

func TestHashTreeSDKOnly(t *testing.T) {
	sdk := t.TempDir()
	writeFile(t, sdk, "go.mod", "module github.com/vigorvim/vigor\n")
	writeFile(t, sdk, "plugin.go", "package vigor\n")
	writeFile(t, sdk, "internal/rpc/rpc.go", "package rpc\n")
	base := treeHash(t, sdk, true)
	for _, rel := range []string{"plugin_test.go", "README.md", "doc/vigor.txt", "examples/x/main.go", "cmd/vigor/main.go", "e2e/e2e.go", "autoload/vigor.vim"} {
		writeFile(t, sdk, rel, "x\n")
		if h := treeHash(t, sdk, true); h != base {
			t.Errorf("%s changed the SDK's hash", rel)
			base = h
		}
	}
	for _, rel := range []string{"internal/rpc/rpc.go", "go.sum", "go.mod", "editor.go"} {
		writeFile(t, sdk, rel, "package x // changed\n")
		h := treeHash(t, sdk, true)
		if h == base {
			t.Errorf("%s did not change the SDK's hash", rel)
		}
		base = h
	}
}

// The freshness key: stable while nothing changes; new when the plugin's
// sources or the SDK change.
func TestKey(t *testing.T) {
	root := t.TempDir()
	sdk := filepath.Join(root, "sdk")
	writeFile(t, sdk, "go.mod", "module github.com/vigorvim/vigor\n")
	sdkFile := writeFile(t, sdk, "plugin.go", "package vigor\n")
	repo := filepath.Join(root, "repo")
	writeFile(t, repo, "go.mod", "module example.com/repo\n")
	writeFile(t, repo, "util/util.go", "package util\n")
	dir := filepath.Join(repo, "vigor", "p")
	main := writeFile(t, dir, "main.go", "package main\n")

	key := func() string {
		t.Helper()
		// A new builder each time: it fingerprints the SDK once.
		b := &builder{opts: Options{Go: "go", SDK: sdk}}
		k, err := b.key(dir, repo)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	base := key()
	if k := key(); k != base {
		t.Fatalf("key changed with nothing changed: %s, then %s", base, k)
	}
	steps := []struct {
		name   string
		change func()
	}{
		{"main.go mtime", func() { touch(t, main, time.Second) }},
		{"main.go size", func() { writeFile(t, dir, "main.go", "package main\n\nfunc init() {}\n") }},
		{"a package elsewhere in the module", func() { writeFile(t, repo, "util/util.go", "package util // v2\n") }},
		{"go.mod", func() { writeFile(t, repo, "go.mod", "module example.com/repo\n\ngo 1.22\n") }},
		{"SDK source mtime", func() { touch(t, sdkFile, time.Second) }},
		{"SDK source size", func() { writeFile(t, sdk, "plugin.go", "package vigor // v2\n") }},
		{"new SDK file", func() { writeFile(t, sdk, "internal/wire/wire.go", "package wire\n") }},
	}
	prev := base
	for _, s := range steps {
		s.change()
		k := key()
		if k == prev {
			t.Errorf("%s: the key did not change", s.name)
		}
		if k2 := key(); k2 != k {
			t.Errorf("%s: the key is not stable: %s, then %s", s.name, k, k2)
		}
		prev = k
	}
	// SDK tests do not go into the binary.
	writeFile(t, sdk, "plugin_test.go", "package vigor\n")
	if k := key(); k != prev {
		t.Errorf("an SDK _test.go file changed the key")
	}
}

func TestAbsolutize(t *testing.T) {
	dir := filepath.Join(string(filepath.Separator)+"home", "u", "repo", "vigor", "p")
	abs := filepath.Join(string(filepath.Separator)+"src", "lib.go") + ":1:1: z"
	in := []string{
		"# example.com/repo/vigor/p",
		"./main.go:3:2: x",
		"main.go:4: y",
		"../../util/util.go:7:1: w",
		abs,
		"note: module requires Go 1.99",
		"",
	}
	want := []string{
		"# example.com/repo/vigor/p",
		filepath.Join(dir, "main.go") + ":3:2: x",
		filepath.Join(dir, "main.go") + ":4: y",
		filepath.Join(dir, "..", "..", "util", "util.go") + ":7:1: w",
		abs,
		"note: module requires Go 1.99",
		"",
	}
	got := absolutize(dir, append([]string(nil), in...))
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("absolutize:\n got %q\nwant %q", got, want)
	}
}

func TestFirstError(t *testing.T) {
	fallback := errors.New("exit status 1")
	for _, tc := range []struct {
		name  string
		lines []string
		want  string
	}{
		{"compiler error first", []string{
			"go: downloading github.com/vmihailenco/msgpack/v5 v5.4.1",
			"# example.com/p",
			"/p/main.go:3:2: undefined: x",
			"/p/main.go:4:2: undefined: y",
		}, "/p/main.go:3:2: undefined: x"},
		{"go command error", []string{
			"go: downloading github.com/vmihailenco/msgpack/v5 v5.4.1",
			"go: finding module for package example.com/missing",
			"go: example.com/p: missing go.sum entry",
		}, "go: example.com/p: missing go.sum entry"},
		{"other output", []string{"# example.com/p", "", "link: something broke"}, "link: something broke"},
		{"only downloads", []string{"go: downloading x v1"}, "go: downloading x v1"},
		{"no output", nil, "exit status 1"},
	} {
		if got := firstError(tc.lines, fallback); got != tc.want {
			t.Errorf("%s: firstError = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestLockExcludes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "plugins", "p", "key.lock")
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	unlock, err := lock(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil || strings.TrimSpace(string(b)) != strconv.Itoa(os.Getpid()) {
		t.Fatalf("the lock file holds %q (%v), want our pid", b, err)
	}

	// A second taker waits; here, until its ctx ends.
	short, cancelShort := context.WithTimeout(ctx, 200*time.Millisecond)
	_, err = lock(short, path)
	cancelShort()
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("second lock: %v, want it to wait until its ctx ended", err)
	}

	// And gets the lock once the first lets go.
	type taken struct {
		unlock func()
		err    error
	}
	got := make(chan taken, 1)
	go func() {
		u, err := lock(ctx, path)
		got <- taken{u, err}
	}()
	unlock()
	tk := <-got // ctx bounds the wait
	if tk.err != nil {
		t.Fatalf("the waiting taker: %v", tk.err)
	}
	tk.unlock()
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("the lock file is still there after unlock: %v", err)
	}
}

func TestLockTakesOverStaleLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "key.lock")
	writeFile(t, filepath.Dir(path), filepath.Base(path), "99999\n")
	old := time.Now().Add(-2 * staleLock)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	unlock, err := lock(ctx, path)
	if err != nil {
		t.Fatalf("lock over a stale lock file: %v", err)
	}
	defer unlock()
	b, _ := os.ReadFile(path)
	if strings.TrimSpace(string(b)) != strconv.Itoa(os.Getpid()) {
		t.Fatalf("the lock file holds %q, want our pid", b)
	}
}

// ---------------------------------------------------------------------------
// End to end: real go builds against this checkout.

// sdkRoot is this checkout, the SDK that plugins build against.
func sdkRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("the SDK root %s has no go.mod: %v", root, err)
	}
	return root
}

// pluginRepo writes a plugin repository in its own module, the way users
// have them, with main.go as the plugin's main file.
func pluginRepo(t *testing.T, name, mainGo string) string {
	t.Helper()
	repo := t.TempDir()
	writeFile(t, repo, "go.mod", "module example.com/"+name+"\n\ngo 1.22\n\nrequire "+SDKModule+" v0.1.0\n")
	writeFile(t, repo, "vigor/"+name+"/main.go", mainGo)
	return filepath.Join(repo, "vigor", name)
}

const tinyMain = `package main

import (
	"context"

	"github.com/vigorvim/vigor"
)

func main() {
	vigor.Main(func(ctx context.Context, p *vigor.Plugin) error {
		p.Handle("ping", func() string { return "pong" })
		return nil
	})
}
`

// The compile error is on line 11, column 28.
const brokenMain = `package main

import (
	"context"

	"github.com/vigorvim/vigor"
)

func main() {
	vigor.Main(func(ctx context.Context, p *vigor.Plugin) error {
		var n int = "not a number"
		_ = n
		return nil
	})
}
`

func buildOnce(t *testing.T, opts Options, pl Plugin) (Result, []Event) {
	t.Helper()
	var events []Event
	opts.Progress = func(e Event) { events = append(events, e) }
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	res := Build(ctx, opts, []Plugin{pl})
	if len(res) != 1 {
		t.Fatalf("Build returned %d results, want 1", len(res))
	}
	return res[0], events
}

func statuses(events []Event) []string {
	var out []string
	for _, e := range events {
		out = append(out, e.Status)
	}
	return out
}

func TestBuildAndCache(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go build")
	}
	opts := Options{Cache: t.TempDir(), SDK: sdkRoot(t)}
	pl := Plugin{Name: "tiny", Dir: pluginRepo(t, "tiny", tinyMain)}

	res, events := buildOnce(t, opts, pl)
	if res.Err != nil {
		t.Fatalf("build: %v\n%s", res.Err, strings.Join(res.Output, "\n"))
	}
	if got := statuses(events); !reflect.DeepEqual(got, []string{"building", "built"}) {
		t.Fatalf("events %v, want building, built", got)
	}
	if res.Cached || res.Bin == "" || events[1].Bin != res.Bin || res.Plugin != "tiny" {
		t.Fatalf("result %+v, event %+v", res, events[1])
	}
	if !strings.HasPrefix(res.Bin, filepath.Join(opts.Cache, "plugins", "tiny")+string(filepath.Separator)) {
		t.Fatalf("the binary %s is not under the cache", res.Bin)
	}
	if st, err := os.Stat(res.Bin); err != nil || !st.Mode().IsRegular() {
		t.Fatalf("the binary: %v", err)
	}
	// The plugin's go.mod is not touched, and no go.sum appears.
	repo := filepath.Dir(filepath.Dir(pl.Dir))
	if b, _ := os.ReadFile(filepath.Join(repo, "go.mod")); !strings.HasSuffix(string(b), "require "+SDKModule+" v0.1.0\n") {
		t.Fatalf("the plugin's go.mod changed:\n%s", b)
	}
	if _, err := os.Stat(filepath.Join(repo, "go.sum")); !os.IsNotExist(err) {
		t.Fatalf("the build wrote a go.sum into the plugin's repository")
	}

	res2, events2 := buildOnce(t, opts, pl)
	if res2.Err != nil {
		t.Fatal(res2.Err)
	}
	if got := statuses(events2); !reflect.DeepEqual(got, []string{"cached"}) {
		t.Fatalf("second build: events %v, want cached", got)
	}
	if !res2.Cached || res2.Bin != res.Bin || events2[0].Bin != res.Bin {
		t.Fatalf("second build: %+v, want the cached %s", res2, res.Bin)
	}
}

func TestBuildFails(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go build")
	}
	opts := Options{Cache: t.TempDir(), SDK: sdkRoot(t)}
	pl := Plugin{Name: "broken", Dir: pluginRepo(t, "broken", brokenMain)}
	res, events := buildOnce(t, opts, pl)
	if res.Err == nil {
		t.Fatal("a plugin that does not compile built")
	}
	if got := statuses(events); !reflect.DeepEqual(got, []string{"building", "failed"}) {
		t.Fatalf("events %v, want building, failed", got)
	}
	fail := events[1]
	want := filepath.Join(pl.Dir, "main.go") + ":11:"
	if !strings.Contains(fail.Error, want) || !strings.HasPrefix(fail.Error, "build failed: ") {
		t.Fatalf("error %q, want the build failure at %s", fail.Error, want)
	}
	if fail.Error != res.Err.Error() || !reflect.DeepEqual(fail.Output, res.Output) || len(res.Output) == 0 {
		t.Fatalf("the event (%q, %q) and the result (%q, %q) differ", fail.Error, fail.Output, res.Err, res.Output)
	}
	if res.Bin != "" || fail.Bin != "" {
		t.Fatalf("a failed build has a binary: %q", res.Bin)
	}
}

// Plugins that cannot be built fail before the go command runs.
func TestBuildRejects(t *testing.T) {
	opts := Options{Cache: t.TempDir(), SDK: t.TempDir()}
	for _, tc := range []struct {
		name string
		pl   Plugin
		want string
	}{
		{"bad name", Plugin{Name: "bad.name", Dir: t.TempDir()}, `invalid plugin name "bad.name"`},
		{"no dir", Plugin{Name: "gone", Dir: filepath.Join(t.TempDir(), "gone")}, "does not exist"},
	} {
		res, events := buildOnce(t, opts, tc.pl)
		if res.Err == nil || !strings.Contains(res.Err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error with %q", tc.name, res.Err, tc.want)
		}
		if got := statuses(events); !reflect.DeepEqual(got, []string{"failed"}) {
			t.Errorf("%s: events %v, want failed", tc.name, got)
		}
	}
}

// moduleRepo writes a plugin repository with the go.mod given.
func moduleRepo(t *testing.T, name, goMod, mainGo string) (repo, dir string) {
	t.Helper()
	repo = t.TempDir()
	writeFile(t, repo, "go.mod", goMod)
	writeFile(t, repo, "vigor/"+name+"/main.go", mainGo)
	return repo, filepath.Join(repo, "vigor", name)
}

// offline keeps the go command from the network, and asks it, as a user's
// GOFLAGS may, to update go.mod as it pleases: the build must not.
func offline(t *testing.T) {
	t.Setenv("GOPROXY", "off")
	t.Setenv("GOFLAGS", "-mod=mod")
}

const absentMain = `package main

import (
	"context"

	"example.com/absent/lib"
	"github.com/vigorvim/vigor"
)

func main() {
	lib.Use()
	vigor.Main(func(ctx context.Context, p *vigor.Plugin) error { return nil })
}
`

// An import that no requirement of the plugin's go.mod provides fails the
// build, as a plain go build does, and the error says what to run: the build
// never looks the import up.
func TestBuildMissingRequirement(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go build")
	}
	offline(t)
	repo, dir := moduleRepo(t, "absent", "module example.com/absent-plugin\n\ngo 1.22\n\nrequire "+SDKModule+" v0.1.0\n", absentMain)
	res, _ := buildOnce(t, Options{Cache: t.TempDir(), SDK: sdkRoot(t)}, Plugin{Name: "absent", Dir: dir})
	if res.Err == nil {
		t.Fatal("a plugin with an import missing from its go.mod built")
	}
	msg := res.Err.Error()
	for _, want := range []string{
		filepath.Join(dir, "main.go") + ":6:",
		"example.com/absent/lib",
		"run `go mod tidy` in " + repo,
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q, want it to contain %q", msg, want)
		}
	}
	if strings.Contains(msg, "\n") {
		t.Errorf("error %q is more than one line", msg)
	}
	for _, l := range res.Output {
		if strings.Contains(l, "finding module") || strings.Contains(l, "lookup disabled by GOPROXY") {
			t.Errorf("the build looked the import up: %q", l)
		}
	}
}

// A requirement whose checksum go.sum lacks fails with what to run.
func TestBuildIncompleteGoSum(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go build")
	}
	offline(t)
	goMod := "module example.com/absent-plugin\n\ngo 1.22\n\nrequire (\n\texample.com/absent v1.0.0\n\t" + SDKModule + " v0.1.0\n)\n"
	repo, dir := moduleRepo(t, "nosum", goMod, absentMain)
	res, _ := buildOnce(t, Options{Cache: t.TempDir(), SDK: sdkRoot(t)}, Plugin{Name: "nosum", Dir: dir})
	if res.Err == nil {
		t.Fatal("a plugin whose go.sum lacks a requirement built")
	}
	msg := res.Err.Error()
	for _, want := range []string{filepath.Join(repo, "go.sum"), "run `go mod tidy` in " + repo} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q, want it to contain %q", msg, want)
		}
	}
	if strings.Contains(msg, "\n") {
		t.Errorf("error %q is more than one line", msg)
	}
	for _, l := range res.Output {
		if strings.Contains(l, "downloading") {
			t.Errorf("the build downloaded: %q", l)
		}
	}
}

// A toolchain line in the plugin's go.mod does not make the build fetch
// another Go: it builds with the one installed.
func TestBuildToolchainLine(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go build")
	}
	offline(t)
	t.Setenv("GOTOOLCHAIN", "auto") // as a user may have it: Go may fetch a newer Go
	_, dir := moduleRepo(t, "toolchain", "module example.com/toolchain\n\ngo 1.22\n\ntoolchain go1.99.0\n\nrequire "+SDKModule+" v0.1.0\n", tinyMain)
	res, _ := buildOnce(t, Options{Cache: t.TempDir(), SDK: sdkRoot(t)}, Plugin{Name: "toolchain", Dir: dir})
	if res.Err != nil {
		t.Fatalf("build: %v\n%s", res.Err, strings.Join(res.Output, "\n"))
	}
}

// A go line newer than the installed Go fails with what to do, and does
// not fetch that Go.
func TestBuildNewerGo(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go build")
	}
	offline(t)
	t.Setenv("GOTOOLCHAIN", "auto") // as a user may have it: Go may fetch a newer Go
	repo, dir := moduleRepo(t, "newer", "module example.com/newer\n\ngo 1.99\n\nrequire "+SDKModule+" v0.1.0\n", tinyMain)
	res, _ := buildOnce(t, Options{Cache: t.TempDir(), SDK: sdkRoot(t)}, Plugin{Name: "newer", Dir: dir})
	if res.Err == nil {
		t.Fatal("a plugin that needs Go 1.99 built")
	}
	msg := res.Err.Error()
	for _, want := range []string{filepath.Join(repo, "go.mod"), "Go 1.99", "install"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q, want it to contain %q", msg, want)
		}
	}
}

// Only a file in the cache that cannot be written is blamed on the cache;
// any other file (the plugin's own go.mod, unreadable) keeps its error.
func TestCacheErr(t *testing.T) {
	cache := filepath.Join(t.TempDir(), "cache")
	b := &builder{opts: Options{Cache: cache}}
	tests := []struct {
		path  string
		err   error
		cache bool
	}{
		{filepath.Join(cache, "plugins", "p-1", "p"), fs.ErrPermission, true},
		{filepath.Join(cache, "plugins"), syscall.EROFS, true},
		{cache, fs.ErrPermission, true},
		{filepath.Join(filepath.Dir(cache), "repo", "go.mod"), fs.ErrPermission, false},
		{cache + "2", syscall.EROFS, false},
		{filepath.Join(cache, "..", "go.mod"), fs.ErrPermission, false},
		{filepath.Join(cache, "plugins"), fs.ErrNotExist, false},
	}
	for _, tt := range tests {
		err := fmt.Errorf("compiling: %w", &fs.PathError{Op: "open", Path: tt.path, Err: tt.err})
		got := b.cacheErr(err)
		if blamed := strings.Contains(got.Error(), "cannot be written"); blamed != tt.cache {
			t.Errorf("%s (%v): %v, want the cache blamed: %v", tt.path, tt.err, got, tt.cache)
		}
		if !errors.Is(got, tt.err) {
			t.Errorf("%s: %v does not wrap %v", tt.path, got, tt.err)
		}
	}
}
