// Package archtest checks the module's layering, in the style of the Go
// tree's go/build/deps_test.go: every package of the module has a rule that
// lists what it may import, and a package without a rule fails the test.
//
// The layers, from the bottom:
//
//	internal/protocol                 the contract with the runtime; no imports at all
//	internal/wire                     the message model; standard library only
//	internal/codec/*, internal/rpc    wire (and, for msgpackrpc, the msgpack library)
//	internal/host                     wire, rpc, the codecs, protocol
//	internal/inherited                standard library only
//	github.com/vigorvim/vigor (SDK)   wire (its errors), host, protocol, inherited
//	internal/build                    standard library (and protocol); no SDK, no RPC
//	internal/editortest, cmd, e2e     on top
//	internal/fakeeditor               the editor's side of both protocols, for tests: protocol and msgpack only
//	vigortest                         the authors' test kit: on editortest, and the fake editor over the SDK
//
// Only non-test imports count: tests may import what they need.
//
// Imports cannot tell everything: TestEditorKnowledgeStaysOut also looks
// for string literals that carry editor knowledge (an editor's name, a
// Neovim API method, a function of Vim's transport, encoded bytes) in the
// packages that must not hold it (literalRules).
package archtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

const module = "github.com/vigorvim/vigor"

// rule says what one package of the module may import directly. Paths are
// relative to the module ("" is the SDK root package) unless their first
// element has a dot (another module); "x/..." means x and the packages
// under it. The standard library is allowed unless noStd is set.
type rule struct {
	pkg   string
	allow []string
	noStd bool
}

var rules = []rule{
	{pkg: "internal/protocol", noStd: true},
	{pkg: "internal/wire"},
	{pkg: "internal/rpc", allow: []string{"internal/wire"}},
	{pkg: "internal/codec/vimjson", allow: []string{"internal/wire"}},
	{pkg: "internal/codec/msgpackrpc", allow: []string{"internal/wire", "github.com/vmihailenco/msgpack/v5/..."}},
	{pkg: "internal/host", allow: []string{"internal/wire", "internal/rpc", "internal/codec/...", "internal/protocol"}},
	{pkg: "", allow: []string{"internal/wire", "internal/host", "internal/protocol", "internal/inherited"}},
	{pkg: "internal/inherited"},
	{pkg: "internal/build", allow: []string{"internal/protocol"}},
	// The typed options and their generator (which runs the editors).
	{pkg: "std/opt", allow: []string{""}},
	{pkg: "std/vimopt", allow: []string{"std/opt"}},
	{pkg: "std/nvimopt", allow: []string{"std/opt"}},
	{pkg: "internal/gen/opt"},
	{pkg: "internal/editortest", allow: []string{"", "internal/wire", "internal/rpc", "internal/codec/...", "internal/protocol", "internal/host"}},
	{pkg: "cmd/vigor", allow: []string{"", "internal/build", "internal/inherited"}},
	{pkg: "internal/fakeeditor", allow: []string{"internal/protocol", "github.com/vmihailenco/msgpack/v5/..."}},
	{pkg: "vigortest", allow: []string{"", "internal/editortest", "internal/fakeeditor", "internal/protocol"}},
	{pkg: "cmd/vigor-bench", allow: []string{"internal/bench"}},
	{pkg: "internal/benchstat"},
	{pkg: "internal/bench", allow: []string{"internal/benchstat"}},
	{pkg: "benchmark/vigor/vigor-benchmark", allow: []string{"", "internal/benchstat"}},
	// The standard library: generated wrappers over the SDK's Caller, and
	// their generators (which run the editors, so they may use os/exec).
	{pkg: "std/internal/avail", allow: []string{""}},
	{pkg: "std/fn", allow: []string{"", "std/internal/avail"}},
	{pkg: "std/vimfn", allow: []string{"", "std/internal/avail"}},
	{pkg: "std/nvimfn", allow: []string{"", "std/internal/avail"}},
	{pkg: "std/nvimapi", allow: []string{"", "std/internal/avail"}},
	// Topic packages over the SDK's Caller.
	{pkg: "std/variables", allow: []string{""}},
	{pkg: "std/lambda", allow: []string{""}},
	{pkg: "std/popup", allow: []string{"", "std/lambda"}},
	{pkg: "std/autocmd", allow: []string{""}},
	{pkg: "std/helper", allow: []string{"", "std/lambda"}},
	{pkg: "std/buffer", allow: []string{""}},
	{pkg: "std/mapping", allow: []string{""}},
	{pkg: "std/command", allow: []string{"", "std/lambda", "std/argument"}},
	// Parsers with no editor state: standard library only.
	{pkg: "std/argument"},
	{pkg: "std/bufname"},
	{pkg: "internal/gen/internal/gen"},
	{pkg: "internal/gen/fn", allow: []string{"internal/gen/internal/gen"}},
	{pkg: "internal/gen/nvimapi", allow: []string{"internal/gen/internal/gen", "github.com/vmihailenco/msgpack/v5/..."}},
	// Test-only packages.
	{pkg: "e2e", allow: []string{"internal/editortest"}},
	{pkg: "internal/archtest"},
}

// forbiddenDeps are dependencies that a package must not have even
// indirectly: deny holds patterns as in rule, denyStd standard packages.
var forbiddenDeps = []struct {
	pkg     string
	deny    []string
	denyStd []string
	why     string
}{
	{"", []string{"internal/build", "internal/editortest", "cmd/..."}, []string{"testing", "os/exec"},
		"the SDK is linked into every plugin: no build tool, no test helpers"},
	{"internal/build", []string{"", "internal/rpc", "internal/host", "internal/codec/...", "internal/wire"}, nil,
		"the build tool runs before any plugin: it needs neither the SDK nor RPC"},
	{"cmd/vigor", []string{"internal/bench", "internal/benchstat", "cmd/vigor-bench"}, nil,
		"every user's editor builds the vigor command on first start: the benchmark is cmd/vigor-bench"},
	{"internal/wire", []string{"..."}, nil, "the message model is the bottom layer"},
	{"internal/fakeeditor", []string{"", "internal/rpc", "internal/host", "internal/codec/...", "internal/wire"}, nil,
		"the fake editor checks the SDK from the outside, and the SDK's own tests use it"},
	{"internal/rpc", []string{"", "internal/host", "internal/codec/...", "internal/protocol"}, nil,
		"the RPC session is editor-neutral"},
}

// literalRules keep editor knowledge out of the layers that must not have
// it, where imports cannot tell: a string literal in a package's non-test
// files is forbidden if bad says so. An editor's name or its API belongs
// in internal/host, the functions of Vim's transport in the table of
// internal/codec/vimjson (transport.go), and what an encoding looks like
// in its codec (behind wire.Codec).
var literalRules = []struct {
	pkgs []string
	bad  func(lit string) bool
	what string
}{
	{[]string{"", "internal/rpc", "internal/wire"}, func(s string) bool { return s == "vim" || s == "nvim" },
		"an editor's name: what depends on the editor belongs in internal/host"},
	{[]string{"", "internal/rpc", "internal/wire"}, func(s string) bool { return strings.Contains(s, "nvim_") },
		"a name of Neovim's API: it belongs in internal/host"},
	{[]string{"", "internal/rpc", "internal/wire", "internal/host"}, func(s string) bool { return strings.Contains(s, "#api#vim#") },
		"a function of Vim's transport: it belongs in internal/codec/vimjson/transport.go (or internal/protocol)"},
	{[]string{"", "internal/rpc", "internal/wire", "internal/host"}, func(s string) bool { return !utf8.ValidString(s) || s == "null" },
		"encoded bytes: how a codec encodes values belongs in the codec, behind wire.Codec (IsNull, TypeName...)"},
}

// badLiterals returns the string literals of src (a Go file) that bad
// flags, with their positions.
func badLiterals(fset *token.FileSet, name string, src any, bad func(string) bool) ([]string, error) {
	f, err := parser.ParseFile(fset, name, src, 0)
	if err != nil {
		return nil, err
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		lit, ok := n.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return true
		}
		if v, err := strconv.Unquote(lit.Value); err == nil && bad(v) {
			out = append(out, fmt.Sprintf("%s: %s", fset.Position(lit.Pos()), lit.Value))
		}
		return true
	})
	return out, nil
}

func TestEditorKnowledgeStaysOut(t *testing.T) {
	all, _ := listPackages(t)
	for _, r := range literalRules {
		for _, pkg := range r.pkgs {
			p := all[strings.TrimSuffix(module+"/"+pkg, "/")]
			if p == nil {
				t.Errorf("literalRules: no package %q", pkg)
				continue
			}
			fset := token.NewFileSet()
			for _, file := range p.GoFiles {
				found, err := badLiterals(fset, filepath.Join(p.Dir, file), nil, r.bad)
				if err != nil {
					t.Fatal(err)
				}
				for _, f := range found {
					t.Errorf("%s in %s: %s", f, show(p.ImportPath), r.what)
				}
			}
		}
	}
}

// The rules flag what they are for.
func TestLiteralRulesCatch(t *testing.T) {
	src := `package x
const a, b, c, d, e = "nvim_error_event", "\xc0", "nvim", "vigor#_internal#api#vim#legacy", "null"
const ok = "Vim or Neovim starts it"
`
	flagged := map[string]bool{}
	for _, r := range literalRules {
		found, err := badLiterals(token.NewFileSet(), "x.go", src, r.bad)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range found {
			flagged[f[strings.LastIndex(f, " ")+1:]] = true
		}
	}
	for _, lit := range []string{`"nvim_error_event"`, `"\xc0"`, `"nvim"`, `"vigor#_internal#api#vim#legacy"`, `"null"`} {
		if !flagged[lit] {
			t.Errorf("no rule flags %s", lit)
		}
	}
	if flagged[`"Vim or Neovim starts it"`] {
		t.Error("a message that names the editors is flagged")
	}
}

// sdkHidden are the names that the SDK's non-test files must not use, by
// the import path of their package: the SDK reaches the editor through
// host.Conn, and sees what the editor sends only as host.Value and
// host.Values, never encoded, never with the codec that reads it.
var sdkHidden = map[string][]string{
	module + "/internal/wire": {"Raw", "Codec"},
	module + "/internal/host": {"Codec", "NewCodec", "Adapter", "New", "NewAdapter", "NewValue", "NewValues", "Caller"},
}

// hiddenUses returns the uses in src (a Go file) of the names of hidden,
// with their positions.
func hiddenUses(fset *token.FileSet, name string, src any, hidden map[string][]string) ([]string, error) {
	f, err := parser.ParseFile(fset, name, src, 0)
	if err != nil {
		return nil, err
	}
	local := map[string][]string{} // the file's name of a package -> its hidden names
	for _, imp := range f.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		names, ok := hidden[path]
		if !ok {
			continue
		}
		as := path[strings.LastIndex(path, "/")+1:]
		if imp.Name != nil {
			as = imp.Name.Name
		}
		local[as] = names
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		if x, ok := sel.X.(*ast.Ident); ok && slices.Contains(local[x.Name], sel.Sel.Name) {
			out = append(out, fmt.Sprintf("%s: %s.%s", fset.Position(sel.Pos()), x.Name, sel.Sel.Name))
		}
		return true
	})
	return out, nil
}

// The SDK decodes what the editor sends only through host.Value: it holds
// no encoded value and no codec, and does not reach past host.Conn.
func TestSDKSeesNoEncodedValues(t *testing.T) {
	all, _ := listPackages(t)
	p := all[module]
	fset := token.NewFileSet()
	for _, file := range p.GoFiles {
		found, err := hiddenUses(fset, filepath.Join(p.Dir, file), nil, sdkHidden)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range found {
			t.Errorf("%s: the SDK reads the editor's values through host.Value and host.Values, and calls it through host.Conn", f)
		}
	}
}

// The check flags what it is for.
func TestHiddenUsesCatch(t *testing.T) {
	src := `package x
import (
	w "github.com/vigorvim/vigor/internal/wire"
	"github.com/vigorvim/vigor/internal/host"
)
var a w.Raw
var b host.Codec
var c host.Value
var d w.ValueError
`
	found, err := hiddenUses(token.NewFileSet(), "x.go", src, sdkHidden)
	if err != nil {
		t.Fatal(err)
	}
	if len(found) != 2 || !strings.HasSuffix(found[0], "w.Raw") || !strings.HasSuffix(found[1], "host.Codec") {
		t.Errorf("found %q, want w.Raw and host.Codec", found)
	}
}

// mayImportSDK are the packages under internal/ that may import the SDK
// root package.
var mayImportSDK = []string{"internal/editortest"}

type pkgInfo struct {
	ImportPath string
	Dir        string
	GoFiles    []string // non-test files of the build
	Standard   bool
	DepOnly    bool
	Imports    []string
	Deps       []string
	Error      *struct{ Err string }
}

var (
	listOnce sync.Once
	listAll  map[string]*pkgInfo
	listOwn  []string
	listErr  error
)

// listPackages runs go list on the module (once) and returns every package
// it depends on, by import path, and the module's own packages.
func listPackages(t *testing.T) (map[string]*pkgInfo, []string) {
	t.Helper()
	listOnce.Do(func() { listAll, listOwn, listErr = goList() })
	if listErr != nil {
		t.Fatal(listErr)
	}
	return listAll, listOwn
}

func goList() (map[string]*pkgInfo, []string, error) {
	cmd := exec.Command("go", "list", "-e", "-deps", "-json", module+"/...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, nil, fmt.Errorf("go list: %v\n%s", err, stderr.Bytes())
	}
	all := make(map[string]*pkgInfo)
	var own []string
	var errs []string
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		p := new(pkgInfo)
		if err := dec.Decode(p); err == io.EOF {
			break
		} else if err != nil {
			return nil, nil, fmt.Errorf("reading go list output: %v", err)
		}
		if p.Error != nil {
			errs = append(errs, p.ImportPath+": "+p.Error.Err)
		}
		all[p.ImportPath] = p
		if !p.DepOnly && inModule(p.ImportPath) {
			own = append(own, p.ImportPath)
		}
	}
	sort.Strings(own)
	if len(errs) > 0 {
		return nil, nil, fmt.Errorf("go list:\n\t%s", strings.Join(errs, "\n\t"))
	}
	if len(own) == 0 {
		return nil, nil, fmt.Errorf("go list found no packages in %s", module)
	}
	return all, own, nil
}

func inModule(path string) bool { return path == module || strings.HasPrefix(path, module+"/") }

// rel returns path relative to the module ("" for the root).
func rel(path string) string { return strings.TrimPrefix(strings.TrimPrefix(path, module), "/") }

// show names a package for messages.
func show(path string) string {
	if path == module {
		return module + " (the SDK)"
	}
	if inModule(path) {
		return rel(path)
	}
	return path
}

// matches reports whether import path imp matches pattern (see rule).
func matches(pattern, imp string) bool {
	full := pattern
	if first, _, _ := strings.Cut(pattern, "/"); !strings.Contains(first, ".") && pattern != "..." {
		full = strings.TrimSuffix(module+"/"+pattern, "/")
	}
	if pattern == "..." {
		return true
	}
	if base, ok := strings.CutSuffix(full, "/..."); ok {
		return imp == base || strings.HasPrefix(imp, base+"/")
	}
	return imp == full
}

func matchesAny(patterns []string, imp string) bool {
	for _, p := range patterns {
		if matches(p, imp) {
			return true
		}
	}
	return false
}

func TestImportRules(t *testing.T) {
	all, own := listPackages(t)
	byPkg := make(map[string]rule)
	for _, r := range rules {
		byPkg[r.pkg] = r
	}
	for _, path := range own {
		r, ok := byPkg[rel(path)]
		if !ok {
			t.Errorf("package %s has no import rule: add it to rules in internal/archtest/archtest_test.go, with what it may import", show(path))
			continue
		}
		for _, imp := range all[path].Imports {
			std := all[imp] != nil && all[imp].Standard
			if std && !r.noStd || matchesAny(r.allow, imp) {
				continue
			}
			allowed := append([]string(nil), r.allow...)
			for i, a := range allowed {
				if a == "" {
					allowed[i] = module
				}
			}
			if !r.noStd {
				allowed = append([]string{"the standard library"}, allowed...)
			}
			if len(allowed) == 0 {
				allowed = []string{"nothing"}
			}
			t.Errorf("forbidden import: %s -> %s\n\t%s may import only: %s",
				show(path), show(imp), show(path), strings.Join(allowed, ", "))
		}
	}
}

func TestForbiddenDependencies(t *testing.T) {
	all, _ := listPackages(t)
	for _, f := range forbiddenDeps {
		path := strings.TrimSuffix(module+"/"+f.pkg, "/")
		p := all[path]
		if p == nil {
			t.Errorf("package %s is gone: update forbiddenDeps", show(path))
			continue
		}
		for _, dep := range p.Deps {
			var bad bool
			if all[dep] != nil && all[dep].Standard {
				bad = slices.Contains(f.denyStd, dep)
			} else {
				bad = matchesAny(f.deny, dep)
			}
			if bad {
				t.Errorf("forbidden dependency: %s\n\t(%s)", strings.Join(chain(all, path, dep), " -> "), f.why)
			}
		}
	}
}

// chain returns the shortest import chain from one package to another.
func chain(all map[string]*pkgInfo, from, to string) []string {
	prev := map[string]string{from: ""}
	queue := []string{from}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		if cur == to {
			var out []string
			for p := to; p != ""; p = prev[p] {
				out = append([]string{show(p)}, out...)
			}
			return out
		}
		if all[cur] == nil {
			continue
		}
		for _, imp := range all[cur].Imports {
			if _, seen := prev[imp]; !seen {
				prev[imp] = cur
				queue = append(queue, imp)
			}
		}
	}
	return []string{show(from), "...", show(to)}
}

// Nothing under internal/ builds on the SDK, except the test harness.
func TestInternalDoesNotImportSDK(t *testing.T) {
	all, own := listPackages(t)
	for _, path := range own {
		r := rel(path)
		if !strings.HasPrefix(r, "internal/") || matchesAny(mayImportSDK, path) {
			continue
		}
		for _, imp := range all[path].Imports {
			if imp == module {
				t.Errorf("forbidden import: %s -> %s\n\tonly %s may import the SDK root package",
					r, show(module), strings.Join(mayImportSDK, ", "))
			}
		}
	}
}

// The rules name packages that exist: a pattern that matches nothing is
// probably a typo, or a package that moved.
func TestRulesAreCurrent(t *testing.T) {
	all, _ := listPackages(t)
	exists := func(pattern string) bool {
		for path := range all {
			if matches(pattern, path) {
				return true
			}
		}
		return false
	}
	for _, r := range rules {
		if !exists(r.pkg) {
			t.Errorf("rules: no package %q in the module", r.pkg)
		}
		for _, a := range r.allow {
			if !exists(a) {
				t.Errorf("rules: %q allows %q, which does not exist", r.pkg, a)
			}
		}
	}
	for _, f := range forbiddenDeps {
		for _, d := range f.deny {
			if !exists(d) {
				t.Errorf("forbiddenDeps: %q denies %q, which does not exist", f.pkg, d)
			}
		}
	}
	for _, p := range mayImportSDK {
		if !exists(p) {
			t.Errorf("mayImportSDK: no package %q", p)
		}
	}
}
