package protocol

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// The runtime's side of the contract lives in Vim script; these tests keep
// the two sides in step.

// autoload is the runtime's autoload directory in this checkout.
var autoload = filepath.Join("..", "..", "autoload")

// readAll returns every file of the runtime's autoload directory, one
// after the other, so that a check finds its line in whichever file holds
// it.
func readAll(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(autoload, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".vim") {
			return err
		}
		src, err := os.ReadFile(path)
		b.Write(src)
		b.WriteString("\n")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func readRuntime(t *testing.T, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(autoload, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// constants returns the string constants of protocol.go whose names start
// with prefix, by name, so that a constant added later is checked too.
func constants(t *testing.T, prefix string) map[string]string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "protocol.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := make(map[string]string)
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST {
			continue
		}
		for _, spec := range gd.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, name := range vs.Names {
				if !strings.HasPrefix(name.Name, prefix) || i >= len(vs.Values) {
					continue
				}
				lit, ok := vs.Values[i].(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					t.Fatalf("%s is not a string literal", name.Name)
				}
				v, err := strconv.Unquote(lit.Value)
				if err != nil {
					t.Fatal(err)
				}
				out[name.Name] = v
			}
		}
	}
	if len(out) == 0 {
		t.Fatalf("protocol.go has no %s constants", prefix)
	}
	return out
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func TestVersionMatchesRuntime(t *testing.T) {
	src := readAll(t)
	m := regexp.MustCompile(`(?m)^let s:PROTOCOL = (\d+)\s*$`).FindStringSubmatch(src)
	if m == nil {
		t.Fatal("the runtime (autoload/) has no `let s:PROTOCOL = N` line")
	}
	if n, _ := strconv.Atoi(m[1]); n != Version {
		t.Fatalf("s:PROTOCOL is %d in the runtime (autoload/) but protocol.Version is %d: change both together", n, Version)
	}
}

func TestStderrInLogMatchesRuntime(t *testing.T) {
	src := readAll(t)
	m := regexp.MustCompile(`(?m)^let s:STDERR_IN_LOG = '([^']*)'\s*$`).FindStringSubmatch(src)
	if m == nil {
		t.Fatal("the runtime (autoload/) has no `let s:STDERR_IN_LOG = '...'` line")
	}
	if m[1] != StderrInLog {
		t.Fatalf("s:STDERR_IN_LOG is %q in the runtime (autoload/) but protocol.StderrInLog is %q: change both together", m[1], StderrInLog)
	}
}

// runtimeFile returns the autoload file that defines the autoload function
// name: a#b#c lives in autoload/a/b.vim.
func runtimeFile(name string) string {
	parts := strings.Split(name, "#")
	return filepath.Join(append([]string{autoload}, parts[:len(parts)-1]...)...) + ".vim"
}

func TestRuntimeFile(t *testing.T) {
	got := runtimeFile("vigor#_internal#api#vim#on_call")
	if want := filepath.Join(autoload, "vigor", "_internal", "api", "vim.vim"); got != want {
		t.Fatalf("runtimeFile = %s, want %s", got, want)
	}
}

// Every editor function that the SDK calls exists in the runtime.
func TestFunctionsExist(t *testing.T) {
	funcs := constants(t, "Func")
	// The parse found the real constants.
	for name, want := range map[string]string{"FuncReady": FuncReady, "FuncVimOnCall": FuncVimOnCall, "FuncBatch": FuncBatch} {
		if funcs[name] != want {
			t.Fatalf("parsed %s = %q, want %q", name, funcs[name], want)
		}
	}
	for _, c := range sortedKeys(funcs) {
		name := funcs[c]
		if !strings.HasPrefix(name, "vigor#") || !strings.Contains(name, "#_internal#") {
			t.Errorf("%s = %q: the SDK calls only the runtime's internal functions (vigor#_internal#...)", c, name)
			continue
		}
		file := runtimeFile(name)
		src, err := os.ReadFile(file)
		if err != nil {
			t.Errorf("%s = %q: %v", c, name, err)
			continue
		}
		def := regexp.MustCompile(`(?m)^\s*(?:function!?|(?:export\s+)?def)\s+` + regexp.QuoteMeta(name) + `\(`)
		if !def.Match(src) {
			t.Errorf("%s = %q: %s defines no `function! %s(` or `def %s(`", c, name, file, name, name)
		}
	}
}

// The runtime sets exactly the environment variables that the SDK reads.
func TestEnvMatchesSpawn(t *testing.T) {
	src := readAll(t)
	start := strings.Index(src, "function! s:spawn(")
	if start < 0 {
		t.Fatal("the runtime (autoload/) has no s:spawn()")
	}
	body := src[start:]
	body = body[:strings.Index(body, "\nendfunction")]
	dict := regexp.MustCompile(`(?s)let l:env = \{(.*?)\\\}`).FindStringSubmatch(body)
	if dict == nil {
		t.Fatal("s:spawn() has no `let l:env = {...}`")
	}
	spawned := make(map[string]bool)
	for _, m := range regexp.MustCompile(`'(\w+)'\s*:`).FindAllStringSubmatch(dict[1], -1) {
		spawned[m[1]] = true
	}

	env := constants(t, "Env")
	if env["EnvPlugin"] != EnvPlugin {
		t.Fatalf("parsed EnvPlugin = %q, want %q", env["EnvPlugin"], EnvPlugin)
	}
	want := make(map[string]bool)
	for _, c := range sortedKeys(env) {
		want[env[c]] = true
		if !spawned[env[c]] {
			t.Errorf("protocol.%s = %q, but s:spawn() in the runtime (autoload/) does not set it", c, env[c])
		}
	}
	for name := range spawned {
		if !want[name] {
			t.Errorf("s:spawn() sets %s, which has no protocol.Env* constant", name)
		}
	}
}

// The runtime sends the reserved methods by the names the SDK expects.
func TestMethodsSentByRuntime(t *testing.T) {
	src := readAll(t)
	methods := constants(t, "Method")
	for _, c := range sortedKeys(methods) {
		m := methods[c]
		if !strings.HasPrefix(m, ReservedPrefix) {
			t.Errorf("protocol.%s = %q does not start with the reserved prefix %q", c, m, ReservedPrefix)
		}
		if !strings.Contains(src, "'"+m+"'") {
			t.Errorf("protocol.%s = %q, but no file under autoload/ sends '%s'", c, m, m)
		}
	}
}

// The runtime gives an unloading plugin the budget that the SDK assumes
// when it gets none, kills it UnloadGrace after the budget, and gives the
// processes left in its group as long between SIGTERM and SIGKILL.
func TestUnloadBudgetMatchesRuntime(t *testing.T) {
	conf := readRuntime(t, "vigor/_internal/conf.vim")
	m := regexp.MustCompile(`(?m)^\s*\\ 'unload_timeout': (\d+),`).FindStringSubmatch(conf)
	if m == nil {
		t.Fatal("autoload/vigor/_internal/conf.vim has no 'unload_timeout' default")
	}
	if n, _ := strconv.Atoi(m[1]); n != UnloadBudget {
		t.Errorf("the default of g:vigor#unload_timeout is %d in autoload/vigor/_internal/conf.vim but protocol.UnloadBudget is %d: change both together", n, UnloadBudget)
	}
	plugin := readAll(t)
	m = regexp.MustCompile(`(?m)^let s:UNLOAD_GRACE = (\d+)\s*$`).FindStringSubmatch(plugin)
	if m == nil {
		t.Fatal("the runtime (autoload/) has no `let s:UNLOAD_GRACE = N` line")
	}
	if n, _ := strconv.Atoi(m[1]); n != UnloadGrace {
		t.Errorf("s:UNLOAD_GRACE is %d in the runtime (autoload/) but protocol.UnloadGrace is %d: change both together", n, UnloadGrace)
	}
	job := readRuntime(t, "vigor/_internal/job.vim")
	m = regexp.MustCompile(`(?m)^let s:GROUP_GRACE = (\d+)\s*$`).FindStringSubmatch(job)
	if m == nil {
		t.Fatal("autoload/vigor/_internal/job.vim has no `let s:GROUP_GRACE = N` line")
	}
	if n, _ := strconv.Atoi(m[1]); n != UnloadGrace {
		t.Errorf("s:GROUP_GRACE is %d in autoload/vigor/_internal/job.vim but protocol.UnloadGrace is %d: change both together", n, UnloadGrace)
	}
	// The budget goes with the message, and the kill waits for it and the
	// grace.
	for _, want := range []string{`'` + MethodUnload + `', [l:budget]`, `timer_start(l:budget + s:UNLOAD_GRACE,`} {
		if !strings.Contains(plugin, want) {
			t.Errorf("the runtime (autoload/) lacks %s", want)
		}
	}
}

// The runtime reads the SDK's lines about a closed channel by their text.
func TestClosedLinesMatchRuntime(t *testing.T) {
	plugin := readAll(t)
	for name, line := range map[string]string{"s:CLOSED_BY_EDITOR": ClosedByEditor, "s:CLOSED_BY_PLUGIN": ClosedByPlugin} {
		if want := "let " + name + " = '" + line + "'"; !strings.Contains(plugin, want) {
			t.Errorf("the runtime (autoload/) lacks %s: change it with internal/protocol", want)
		}
	}
}
