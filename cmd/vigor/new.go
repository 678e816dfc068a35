package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"text/template"

	"github.com/vigorvim/vigor/internal/build"
)

const newUsage = `Usage: vigor new [-sdk DIR] NAME [DIR]

Creates a plugin repository in DIR (default: ./NAME) with the plugin NAME:
go.mod, vigor/NAME/main.go, a test that runs it in Vim and Neovim
(vigor/NAME/main_test.go), a README and a .gitignore, then sets it up
for the Go tools as "vigor dev" does. Its tests pass at once: go test ./...

Flags:
`

const devUsage = `Usage: vigor dev [-sdk DIR] [DIR]

Sets up the plugin repository DIR (default: .) for go build, go vet, go test
and gopls, offline: writes DIR/go.work, which uses DIR and the Vigor
checkout (so the SDK and vigortest resolve to it), and puts the modules
that the SDK needs into your module cache from the checkout. go.work names
paths on this machine: keep it out of version control.

Flags:
`

// sdkRequire finds the SDK's version in a go.mod's require lines.
var sdkRequire = regexp.MustCompile(`(?m)^\s*(?:require\s+)?` + regexp.QuoteMeta(build.SDKModule) + `\s+(v\S+)`)

func runNew(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs, sdk := sdkFlags("vigor new", newUsage, stderr)
	if code, done := parse(fs, args, stdout); done {
		return code
	}
	if fs.NArg() < 1 || fs.NArg() > 2 {
		fmt.Fprint(stderr, "vigor new: name the plugin, and optionally the directory\n\n")
		fs.Usage()
		return 2
	}
	name := fs.Arg(0)
	if !build.ValidName(name) {
		fmt.Fprintf(stderr, "vigor new: invalid plugin name %q: a name is letters, digits, - and _\n", name)
		return 2
	}
	dir := name
	if fs.NArg() == 2 {
		dir = fs.Arg(1)
	}
	if *sdk == "" {
		fmt.Fprintln(stderr, "vigor new: -sdk is needed: the path of the Vigor checkout (this command was built without one)")
		return 2
	}
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		fmt.Fprintf(stderr, "vigor new: %s exists and is not empty; name a new directory\n", dir)
		return 1
	}
	data := struct{ Name, Module string }{name, "example.com/" + strings.ToLower(name)}
	for path, text := range skeleton {
		path = filepath.Join(dir, strings.ReplaceAll(path, "NAME", name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			fmt.Fprintf(stderr, "vigor new: %v\n", err)
			return 1
		}
		var b strings.Builder
		if err := template.Must(template.New(path).Parse(text)).Execute(&b, data); err != nil {
			fmt.Fprintf(stderr, "vigor new: %v\n", err)
			return 1
		}
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			fmt.Fprintf(stderr, "vigor new: %v\n", err)
			return 1
		}
	}
	if err := setupDev(ctx, dir, *sdk); err != nil {
		fmt.Fprintf(stderr, "vigor new: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "created the plugin %s in %s\n  edit %s\n  test: cd %s && go test ./...\n  use:  add %s to 'runtimepath' next to Vigor, then :echo vigor#request('%s', 'greet', ['you'])\n",
		name, dir, filepath.Join(dir, "vigor", name, "main.go"), dir, dir, name)
	return 0
}

func runDev(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs, sdk := sdkFlags("vigor dev", devUsage, stderr)
	if code, done := parse(fs, args, stdout); done {
		return code
	}
	if fs.NArg() > 1 {
		fs.Usage()
		return 2
	}
	dir := "."
	if fs.NArg() == 1 {
		dir = fs.Arg(0)
	}
	if *sdk == "" {
		fmt.Fprintln(stderr, "vigor dev: -sdk is needed: the path of the Vigor checkout (this command was built without one)")
		return 2
	}
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		fmt.Fprintf(stderr, "vigor dev: %s has no go.mod: a plugin repository is a Go module (run 'go mod init' there)\n", dir)
		return 2
	}
	if err := setupDev(ctx, dir, *sdk); err != nil {
		fmt.Fprintf(stderr, "vigor dev: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "wrote %s: go build, go vet, go test and gopls now use the Vigor checkout %s\n",
		filepath.Join(dir, "go.work"), *sdk)
	return 0
}

// sdkFlags is a flag set with -sdk and usage.
func sdkFlags(name, usage string, stderr io.Writer) (*flag.FlagSet, *string) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), usage)
		fs.PrintDefaults()
	}
	return fs, fs.String("sdk", sourceCheckout(), "the Vigor checkout")
}

// parse parses args; done means the command ends with code (-h, or a
// usage error).
func parse(fs *flag.FlagSet, args []string, stdout io.Writer) (code int, done bool) {
	if len(args) > 0 && isHelp(args[0]) {
		fs.SetOutput(stdout)
		fs.Usage()
		return 0, true
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0, true
		}
		return 2, true
	}
	return 0, false
}

// setupDev writes dir/go.work (dir and the checkout sdk) and downloads
// the SDK's modules into the module cache from the checkout's proxy.
func setupDev(ctx context.Context, dir, sdk string) error {
	sdk, err := filepath.Abs(sdk)
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(sdk, "go.mod")); err != nil {
		return fmt.Errorf("%s is not a Vigor checkout (no go.mod): pass -sdk", sdk)
	}
	work := fmt.Sprintf("// Written by vigor dev: the Vigor checkout for the Go tools. It names\n// paths on this machine; keep it out of version control.\ngo 1.22\n\nuse (\n\t.\n\t%s\n)\n", quotePath(sdk))
	// The go command reads the go.mod of the SDK version that the plugin
	// requires even though the checkout takes its place: point that
	// version at the checkout too, so that nothing is looked up.
	mod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return err
	}
	if m := sdkRequire.FindSubmatch(mod); m != nil {
		work += fmt.Sprintf("\nreplace %s %s => %s\n", build.SDKModule, m[1], quotePath(sdk))
	}
	if err := os.WriteFile(filepath.Join(dir, "go.work"), []byte(work), 0o644); err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, "go", "mod", "download")
	cmd.Dir = sdk
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOTOOLCHAIN=local", "GOFLAGS=-mod=mod",
		"GOPROXY="+build.ProxyURL(sdk)+",off")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("cannot put the SDK's modules into the module cache: %v: %s", err, strings.TrimSpace(string(out)))
	}
	return nil
}

// quotePath quotes p for go.work when it needs quoting.
func quotePath(p string) string {
	if strings.ContainsAny(p, " \t\"'`\\()") {
		return fmt.Sprintf("%q", p)
	}
	return p
}

// skeleton is what vigor new writes; NAME in a path is the plugin's name.
var skeleton = map[string]string{
	"go.mod": `module {{.Module}}

go 1.22

require github.com/vigorvim/vigor v0.1.0
`,
	".gitignore": `# Written by vigor dev for this machine's Go tools.
go.work
go.work.sum
`,
	"README.md": `# {{.Name}}

A Vim and Neovim plugin written in Go with [Vigor](https://github.com/vigorvim/vigor).

Install it next to Vigor with any plugin manager, then:

    :echo vigor#request('{{.Name}}', 'greet', ['you'])

Develop: run ` + "`vigor dev`" + ` once (it writes go.work for the Go tools), then
` + "`go test ./...`" + ` runs the tests in Vim and in Neovim.
`,
	"vigor/NAME/main.go": `// Command {{.Name}} is a Vigor plugin.
package main

import (
	"context"

	"github.com/vigorvim/vigor"
)

func main() {
	vigor.Main(func(ctx context.Context, p *vigor.Plugin) error {
		p.Handle("greet", func(ctx context.Context, name string) (string, error) {
			return "Hello, " + name + "!", nil
		})
		return nil
	})
}
`,
	"vigor/NAME/main_test.go": `package main

import (
	"testing"

	"github.com/vigorvim/vigor/vigortest"
)

// The plugin answers in Vim and in Neovim, loaded as a user's editor
// loads it.
func TestGreet(t *testing.T) {
	vigortest.Each(t, vigortest.Options{}, func(t *testing.T, ed *vigortest.Editor) {
		if got := ed.Request(t, "{{.Name}}", "greet", "you"); got != "Hello, you!" {
			t.Fatalf("%s: greet = %v", ed.Kind, got)
		}
	})
}
`,
}
