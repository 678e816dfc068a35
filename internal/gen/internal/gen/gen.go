// Package gen holds what the generators of the std packages share: finding
// and running the pinned editors, Go names, and writing gofmt'd output.
package gen

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/format"
	"go/scanner"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"unicode"
)

// The pinned editors whose functions the std packages wrap.
const (
	VimVersion  = "9.0.1378"
	NvimVersion = "0.11.4"
)

// Editor is an editor binary and what kind it is ("vim" or "nvim").
type Editor struct {
	Kind string
	Path string
}

// Find returns the editor of kind: $VIGOR_TEST_VIM or $VIGOR_TEST_NVIM when
// set, else vim or nvim on $PATH.
func Find(kind string) (Editor, error) {
	env := "VIGOR_TEST_VIM"
	if kind == "nvim" {
		env = "VIGOR_TEST_NVIM"
	}
	if p := os.Getenv(env); p != "" {
		return Editor{Kind: kind, Path: p}, nil
	}
	p, err := exec.LookPath(kind)
	if err != nil {
		return Editor{}, fmt.Errorf("%s not found: set $%s or put %s on $PATH (scripts/setup-editors.sh installs it): %w", kind, env, kind, err)
	}
	return Editor{Kind: kind, Path: p}, nil
}

// Run sources script, legacy Vim script, in a clean headless editor, with
// env (NAME=value) added to its environment. The script finds the path of
// a file in $VIGOR_GEN_OUT, writes one JSON value there, and quits; Run
// returns that value decoded into out.
func (e Editor) Run(ctx context.Context, script string, env []string, out any) error {
	dir, err := os.MkdirTemp("", "vigor-gen-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	src := filepath.Join(dir, "script.vim")
	res := filepath.Join(dir, "out.json")
	if err := os.WriteFile(src, []byte(script), 0o600); err != nil {
		return err
	}
	var cmd *exec.Cmd
	if e.Kind == "nvim" {
		cmd = exec.CommandContext(ctx, e.Path, "--clean", "--headless", "-n", "-S", src)
	} else {
		cmd = exec.CommandContext(ctx, e.Path, "-N", "-u", "NONE", "-i", "NONE", "-n", "-es", "-S", src)
	}
	cmd.Env = append(append(os.Environ(), env...), "VIGOR_GEN_OUT="+res, "HOME="+dir, "XDG_CONFIG_HOME="+dir, "XDG_DATA_HOME="+dir, "XDG_STATE_HOME="+dir, "XDG_CACHE_HOME="+dir)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s: %w: %s", e.Path, err, strings.TrimSpace(stderr.String()))
	}
	data, err := os.ReadFile(res)
	if err != nil {
		return fmt.Errorf("%s wrote no result: %w", e.Path, err)
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("%s: the result: %w", e.Path, err)
	}
	return nil
}

// CheckPinned returns an error unless the editor is the pinned version,
// so that output generated from another version is never committed.
// version is what the editor reports: for Vim, v:version and whether it
// has the pinned patch and not the next one; for Neovim, its build.
func CheckPinned(e Editor, version string) error {
	want := VimVersion
	if e.Kind == "nvim" {
		want = NvimVersion
	}
	if version != want {
		return fmt.Errorf("%s is %s %s; the std packages are generated from %s %s", e.Path, e.Kind, version, e.Kind, want)
	}
	return nil
}

// VersionScript is legacy Vim script for an expression that gives the
// editor's version as CheckPinned wants it.
const VersionScript = `has('nvim') ? printf('%d.%d.%d', api_info().version.major, api_info().version.minor, api_info().version.patch) : (has('patch-9.0.1378') && !has('patch-9.0.1379') ? '9.0.1378' : string(v:version))`

// GoName is the exported Go name of an editor name: the first letter
// upper case, and each underscore removed with the letter after it made
// upper case (popup_create is PopupCreate, hlID is HlID).
func GoName(name string) string {
	var b strings.Builder
	up := true
	for _, r := range name {
		switch {
		case r == '_' || r == '-':
			up = true
		case up:
			b.WriteRune(unicode.ToUpper(r))
			up = false
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// reserved are names a parameter may not have: Go's predeclared
// identifiers and the names the wrappers use themselves.
var reserved = map[string]bool{
	"any": true, "bool": true, "byte": true, "error": true, "float64": true, "int": true,
	"string": true, "len": true, "cap": true, "new": true, "make": true, "nil": true,
	"true": true, "false": true, "append": true, "copy": true, "delete": true, "max": true,
	"min": true, "print": true, "close": true, "clear": true, "complex": true, "real": true,
	"imag": true, "panic": true, "recover": true, "rune": true, "uint": true, "iota": true,
	"ctx": true, "c": true, "v": true, "err": true, "vigor": true, "context": true, "avail": true,
}

// ParamName is the Go name of a parameter: lower camel case, with "Arg"
// appended to a Go keyword, a predeclared identifier or a name the
// wrappers use (ctx, c, v, err).
func ParamName(name string) string {
	name = strings.Trim(name, "_")
	if name == "" {
		return "arg"
	}
	g := GoName(name)
	g = strings.ToLower(g[:1]) + g[1:]
	if token.IsKeyword(g) || reserved[g] {
		g += "Arg"
	}
	return g
}

// Format gofmts src, and on failure returns the error with the lines of
// src around it, so that a generator's mistake can be found.
func Format(src []byte) ([]byte, error) {
	out, err := format.Source(src)
	if err != nil {
		var b strings.Builder
		line := 0
		var se scanner.ErrorList
		if errors.As(err, &se) && len(se) > 0 {
			line = se[0].Pos.Line
		}
		for i, l := range strings.Split(string(src), "\n") {
			if i+1 >= line-3 && i+1 <= line+3 {
				fmt.Fprintf(&b, "%5d %s\n", i+1, l)
			}
		}
		return nil, fmt.Errorf("gofmt: %w\n%s", err, b.String())
	}
	return out, nil
}

// Write writes files (path to content) and reports the paths it changed.
func Write(files map[string][]byte) error {
	var errs []error
	for path, data := range files {
		if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, data) {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			errs = append(errs, err)
			continue
		}
		errs = append(errs, os.WriteFile(path, data, 0o644))
	}
	return errors.Join(errs...)
}

// Comment is lines as a Go comment: each paragraph line wrapped at 77
// columns, an empty line or one that starts with two spaces (a list item)
// as it is.
func Comment(lines []string) string {
	var b strings.Builder
	for _, l := range lines {
		if l == "" || strings.HasPrefix(l, "  ") {
			b.WriteString(strings.TrimRight("// "+l, " ") + "\n")
			continue
		}
		for _, w := range wrap(l, 74) {
			b.WriteString("// " + w + "\n")
		}
	}
	return b.String()
}

// wrap breaks a paragraph into lines of at most width characters.
func wrap(s string, width int) []string {
	var out []string
	line := ""
	for _, w := range strings.Fields(s) {
		switch {
		case line == "":
			line = w
		case len(line)+1+len(w) > width:
			out = append(out, line)
			line = w
		default:
			line += " " + w
		}
	}
	return append(out, line)
}

// Zero is the Go literal of the zero value of the Go type t: "" for no
// type (a function without a result), nil for a slice, map or interface.
func Zero(t string) string {
	switch t {
	case "":
		return ""
	case "int", "float64":
		return "0"
	case "string":
		return `""`
	case "bool":
		return "false"
	}
	if t != "" && t[0] >= 'A' && t[0] <= 'Z' { // a named integer type (Buffer)
		return "0"
	}
	return "nil"
}
