// Package build turns plugin directories into cached executables. It owns
// the freshness check (cheap: it stats files and never runs the Go
// toolchain when nothing changed) and the parallel `go build` calls.
//
// Each plugin builds against the SDK in the Vigor checkout that the editor
// loaded, never a downloaded one: for a plugin in its own module, the build
// uses a copy of the plugin's go.mod (-modfile) that replaces the SDK's
// module with that checkout and requires the checkout's own requirements.
// The plugin's go.mod and go.sum are not touched, and are used as they are
// (-mod=readonly): the build looks no import up. It runs the Go that was
// found (GOTOOLCHAIN=local), never one that a go.mod asks for.
//
// Builders of the same plugin, in any number of processes, take turns
// through a lock file (lock), and the cache is the user's alone: what the
// build creates there is 0700 or 0600.
package build

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"
)

// SDKModule is the module path of the Vigor SDK.
const SDKModule = "github.com/vigorvim/vigor"

// Plugin is one plugin to build.
type Plugin struct {
	Name string // the plugin's name
	Dir  string // its directory (<repo>/vigor/<name>)
}

// Options configure a build.
type Options struct {
	Go    string // the go command; default "go"
	Cache string // the cache directory (binaries go under Cache/plugins); required
	SDK   string // the Vigor checkout that plugins build against
	Force bool   // rebuild even when the cached binary is fresh
	Jobs  int    // parallel builds; default GOMAXPROCS
	// Progress, if set, receives events as they happen. It is called from
	// several goroutines, never at the same time.
	Progress func(Event)
}

// Event is progress for one plugin.
type Event struct {
	Plugin string   `json:"plugin"`
	Status string   `json:"status"` // "cached", "building", "built" or "failed"; for the command itself (vigor build -self), "fresh" or "stale"
	Bin    string   `json:"bin,omitempty"`
	Ms     int64    `json:"ms,omitempty"`
	Error  string   `json:"error,omitempty"`  // one line: what failed
	Output []string `json:"output,omitempty"` // the compiler's full output
}

// Result is the outcome for one plugin.
type Result struct {
	Plugin string
	Bin    string // the executable, when Err is nil
	Cached bool
	Err    error
	Output []string
}

// Build builds every plugin (in parallel) and returns one Result each, in
// the order given.
func Build(ctx context.Context, opts Options, plugins []Plugin) []Result {
	if opts.Go == "" {
		opts.Go = "go"
	}
	if opts.Jobs <= 0 {
		opts.Jobs = runtime.GOMAXPROCS(0)
	}
	var mu sync.Mutex
	emit := func(e Event) {
		if opts.Progress != nil {
			mu.Lock()
			opts.Progress(e)
			mu.Unlock()
		}
	}
	b := &builder{opts: opts, emit: emit}
	results := make([]Result, len(plugins))
	sem := make(chan struct{}, opts.Jobs)
	var wg sync.WaitGroup
	for i, pl := range plugins {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			results[i] = b.one(ctx, pl)
		}()
	}
	wg.Wait()
	return results
}

type builder struct {
	opts Options
	emit func(Event)

	once    sync.Once
	goPath  string
	goErr   error
	sdkKey  string
	sdkErr  error
	sdkOnce sync.Once

	reqOnce   sync.Once
	sdkReq    []requirement // the SDK checkout's requirements
	sdkReqErr error
	proxyOnce sync.Once
	proxy     string // GOPROXY=..., see buildEnv
}

func (b *builder) goBinary() (string, error) {
	b.once.Do(func() {
		p, err := exec.LookPath(b.opts.Go)
		if err != nil {
			b.goErr = fmt.Errorf("the Go toolchain %q was not found (install Go 1.22 or newer, or set g:vigor#go): %w", b.opts.Go, err)
			return
		}
		b.goPath = p
	})
	return b.goPath, b.goErr
}

func (b *builder) sdkFingerprint() (string, error) {
	b.sdkOnce.Do(func() {
		h := sha256.New()
		b.sdkErr = hashTree(h, b.opts.SDK, true)
		b.sdkKey = hex.EncodeToString(h.Sum(nil))
	})
	return b.sdkKey, b.sdkErr
}

func (b *builder) one(ctx context.Context, pl Plugin) Result {
	start := time.Now()
	fail := func(err error, output []string) Result {
		b.emit(Event{Plugin: pl.Name, Status: "failed", Error: err.Error(), Output: output})
		return Result{Plugin: pl.Name, Err: err, Output: output}
	}
	if b.opts.Cache == "" {
		return fail(errors.New("no cache directory given"), nil)
	}
	if !ValidName(pl.Name) {
		return fail(fmt.Errorf("invalid plugin name %q: a name is letters, digits, - and _", pl.Name), nil)
	}
	dir, err := filepath.Abs(pl.Dir)
	if err != nil {
		return fail(err, nil)
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return fail(fmt.Errorf("the plugin directory %s does not exist", dir), nil)
	}
	modRoot, err := findModule(dir)
	if err != nil {
		return fail(err, nil)
	}
	key, err := b.key(dir, modRoot)
	if err != nil {
		return fail(err, nil)
	}
	pdir := filepath.Join(b.opts.Cache, "plugins", pl.Name)
	bin := filepath.Join(pdir, key, exeName(pl.Name))
	if !b.opts.Force {
		if st, err := os.Stat(bin); err == nil && st.Mode().IsRegular() && b.sameGo(bin) {
			b.emit(Event{Plugin: pl.Name, Status: "cached", Bin: bin})
			return Result{Plugin: pl.Name, Bin: bin, Cached: true}
		}
	}
	if _, err := b.goBinary(); err != nil {
		return fail(err, nil)
	}
	b.emit(Event{Plugin: pl.Name, Status: "building"})
	// Another editor may be building the same plugin right now: take turns,
	// and use its result.
	unlock, err := lock(ctx, filepath.Join(pdir, key+".lock"))
	if err != nil {
		return fail(b.cacheErr(err), nil)
	}
	defer unlock()
	if st, err := os.Stat(bin); err == nil && st.Mode().IsRegular() && !b.opts.Force && b.sameGo(bin) {
		b.emit(Event{Plugin: pl.Name, Status: "built", Bin: bin, Ms: time.Since(start).Milliseconds()})
		return Result{Plugin: pl.Name, Bin: bin}
	}
	output, err := b.compile(ctx, pl, dir, modRoot, pdir, bin)
	if err != nil {
		return fail(b.cacheErr(err), output)
	}
	prune(pdir, key)
	ms := time.Since(start).Milliseconds()
	b.emit(Event{Plugin: pl.Name, Status: "built", Bin: bin, Ms: ms})
	return Result{Plugin: pl.Name, Bin: bin}
}

// cacheErr says what to do about err when it is a file in the cache that
// could not be made or written (a cache made read-only, as a packaged one
// is, that lacks this plugin's build); other errors, among them a file
// outside the cache that cannot be read (the plugin's go.mod), it returns
// as they are.
func (b *builder) cacheErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) && (errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS)) && within(pe.Path, b.opts.Cache) {
		return fmt.Errorf("the plugin must be built, and the cache %s cannot be written (%w): make it writable, or use a cache of your own (:help vigor-cache)", b.opts.Cache, err)
	}
	return err
}

// within reports whether path is dir or lies under it.
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// key fingerprints the plugin's inputs: its module (file names, sizes and
// times), the SDK, and the environment that changes what it builds. The
// toolchain is not in the key but in a stamp beside the binary (sameGo), so
// that a cached plugin still starts where Go is no longer installed.
func (b *builder) key(dir, modRoot string) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "vigor-build-1\x00%s\x00%s\x00", dir, modRoot)
	for _, k := range []string{"GOOS", "GOARCH", "GOFLAGS", "CGO_ENABLED", "GOEXPERIMENT", "GOAMD64", "GOARM64"} {
		fmt.Fprintf(h, "%s=%s\x00", k, os.Getenv(k))
	}
	sdk, err := b.sdkFingerprint()
	if err != nil {
		return "", fmt.Errorf("cannot read the Vigor SDK at %s: %w", b.opts.SDK, err)
	}
	fmt.Fprintf(h, "sdk %s\x00", sdk)
	if err := hashTree(h, modRoot, false); err != nil {
		return "", err
	}
	// The plugin's own directory, even where the module walk skips it (a
	// plugin under testdata/, say).
	if err := hashTree(h, dir, false); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil))[:20], nil
}

// hashTree writes the name, size and modification time of each file under
// root that can change a build. Hidden directories, testdata, _dirs and
// nested modules are skipped. With sdkOnly, only the SDK's Go sources and
// module files count.
func hashTree(h interface{ Write([]byte) (int, error) }, root string, sdkOnly bool) error {
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root {
				if strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" || name == "node_modules" {
					return filepath.SkipDir
				}
				if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
					return filepath.SkipDir // a nested module
				}
				if sdkOnly && (name == "examples" || name == "cmd" || name == "e2e" || name == "benchmark") {
					return filepath.SkipDir
				}
			}
			return nil
		}
		if sdkOnly && !(strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") || name == "go.mod" || name == "go.sum") {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		fmt.Fprintf(h, "%s %d %d\x00", rel, info.Size(), info.ModTime().UnixNano())
		return nil
	})
}

// goStamp names the toolchain at goPath: its path, size and time.
func goStamp(goPath string) string {
	st, err := os.Stat(goPath)
	if err != nil {
		return goPath
	}
	return fmt.Sprintf("%s %d %d", goPath, st.Size(), st.ModTime().UnixNano())
}

// sameGo reports whether bin was built by the toolchain found now. With no
// toolchain found, the cached binary is used as it is.
func (b *builder) sameGo(bin string) bool {
	goPath, err := b.goBinary()
	if err != nil {
		return true
	}
	stamp, err := os.ReadFile(bin + ".go")
	return err == nil && string(stamp) == goStamp(goPath)
}

func findModule(dir string) (string, error) {
	for d := dir; ; {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", fmt.Errorf("no go.mod in %s or above it: a Vigor plugin is a Go module (run 'go mod init' at the root of its repository)", dir)
		}
		d = parent
	}
}

func (b *builder) compile(ctx context.Context, pl Plugin, dir, modRoot, pdir, bin string) ([]string, error) {
	if err := os.MkdirAll(pdir, 0o700); err != nil {
		return nil, err
	}
	work, err := os.MkdirTemp(pdir, "build-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(work)
	partial := filepath.Join(work, exeName(pl.Name))

	sdk, _ := filepath.Abs(b.opts.SDK)
	// -mod=readonly: the module's requirements and sums are used as they
	// are, whatever GOFLAGS says; an import they do not cover fails, as in
	// a plain go build, instead of being looked up now.
	args := []string{"build", "-buildvcs=false", "-mod=readonly", "-o", partial}
	if !sameDir(modRoot, sdk) {
		modfile, out, err := b.modfile(ctx, modRoot, sdk, work)
		if err != nil {
			return out, err
		}
		args = append(args, "-modfile="+modfile)
	}
	args = append(args, ".")
	cmd := exec.CommandContext(ctx, b.goPath, args...)
	cmd.Dir = dir
	cmd.Env = b.buildEnv(ctx, sdk)
	out, err := cmd.CombinedOutput()
	lines := absolutize(dir, splitLines(out))
	if err != nil {
		return lines, fmt.Errorf("build failed: %s", explain(lines, modRoot, err))
	}
	if err := os.MkdirAll(filepath.Dir(bin), 0o700); err != nil {
		return lines, err
	}
	if err := os.WriteFile(bin+".go", []byte(goStamp(b.goPath)), 0o600); err != nil {
		return lines, err
	}
	if err := os.Rename(partial, bin); err != nil {
		return lines, err
	}
	return lines, nil
}

var relErr = regexp.MustCompile(`^(\./|\.\./)?[^\s:]+\.(go|s|c|mod):\d+`)

// absolutize makes the file names in compiler output absolute, so that the
// user can jump to them from anywhere.
func absolutize(dir string, lines []string) []string {
	for i, l := range lines {
		if relErr.MatchString(l) && !filepath.IsAbs(l) {
			lines[i] = filepath.Join(dir, l[:strings.IndexByte(l, ':')]) + l[strings.IndexByte(l, ':'):]
		}
	}
	return lines
}

var goLine = regexp.MustCompile(`\.go:\d+`)

func firstError(lines []string, err error) string {
	for _, l := range lines {
		if goLine.MatchString(l) {
			return l
		}
	}
	for _, l := range lines {
		if strings.HasPrefix(l, "go: ") && !strings.HasPrefix(l, "go: downloading") && !strings.HasPrefix(l, "go: finding") {
			return l
		}
	}
	for _, l := range lines {
		if !strings.HasPrefix(l, "#") && strings.TrimSpace(l) != "" {
			return l
		}
	}
	return err.Error()
}

func splitLines(b []byte) []string {
	var out []string
	s := bufio.NewScanner(bytes.NewReader(b))
	s.Buffer(make([]byte, 64<<10), 1<<20)
	for s.Scan() {
		out = append(out, s.Text())
	}
	return out
}

// prune removes the plugin's older builds.
func prune(pdir, keep string) {
	entries, err := os.ReadDir(pdir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if info, err := e.Info(); err == nil && e.IsDir() && strings.HasPrefix(e.Name(), "build-") && time.Since(info.ModTime()) > staleLock {
			// The work directory of a build that was killed.
			_ = os.RemoveAll(filepath.Join(pdir, e.Name()))
			continue
		}
		if e.IsDir() && e.Name() != keep && !strings.HasPrefix(e.Name(), "build-") && !fileExists(filepath.Join(pdir, e.Name()+".lock")) {
			_ = os.RemoveAll(filepath.Join(pdir, e.Name()))
		}
	}
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

func sameDir(a, b string) bool {
	a, _ = filepath.Abs(a)
	b, _ = filepath.Abs(b)
	if a == b {
		return true
	}
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(sa, sb)
}

func exeName(name string) string {
	if runtime.GOOS == "windows" {
		return name + ".exe"
	}
	return name
}

var validName = regexp.MustCompile(`^[-_0-9a-zA-Z]+$`)

// ValidName reports whether name is a valid plugin name.
func ValidName(name string) bool { return validName.MatchString(name) }
