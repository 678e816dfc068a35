package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// A hand-made piece of options.txt: a plain entry, one whose default runs
// over two lines, a global-local one, one that needs a feature, one with
// no scope line, prose that quotes an option, and a tab-page one.
const vimDocSample = `Some prose mentions 'tabstop' in passing.
'aleph' 'al'		number	(default 128 for MS-Windows, 224 otherwise)
			global
			{only available when compiled with the |+rightleft|
			feature}
	The ASCII code for the first letter of the Hebrew alphabet.

'backspace' 'bs'	string	(default "", set to "indent,eol,start"
							    in |defaults.vim|)
			global
	Influences the working of <BS>.

'autoread' 'ar'		boolean	(default off)
			global or local to buffer |global-local|
	When a file has been detected to have been changed...

'packpath' 'pp'		string	(default: see 'runtimepath')
	Directories used to find packages.

'cmdheight' 'ch'	number	(default 1)
			global or local to tab page
	Number of screen lines.

'bomb'			boolean	(default off)
			local to buffer

'list'			boolean	(default off)
			local to window
'scrolloff' 'so'	number	(default 0)
			global or local to window |global-local|
`

func TestParseVimDoc(t *testing.T) {
	got, err := parseVimDoc(vimDocSample)
	if err != nil {
		t.Fatal(err)
	}
	want := []vimDoc{
		{Name: "aleph", Short: "al", Type: "number", Scope: global, Features: []string{"+rightleft"}},
		{Name: "backspace", Short: "bs", Type: "string", Scope: global},
		{Name: "autoread", Short: "ar", Type: "boolean", Scope: globalBuffer},
		{Name: "packpath", Short: "pp", Type: "string", Scope: noScope},
		{Name: "cmdheight", Short: "ch", Type: "number", Scope: global},
		{Name: "bomb", Type: "boolean", Scope: buffer},
		{Name: "list", Type: "boolean", Scope: window},
		{Name: "scrolloff", Short: "so", Type: "number", Scope: globalWindow},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("parseVimDoc:\n got %+v\nwant %+v", got, want)
	}
	if _, err := parseVimDoc("no entries here\n"); err == nil {
		t.Fatal("parseVimDoc: no error for a text without entries")
	}
	if _, err := parseVimDoc("'bomb'\tboolean\n\t\t\tglobal\n'bomb'\tboolean\n"); err == nil || !strings.Contains(err.Error(), "twice") {
		t.Fatalf("parseVimDoc: a repeated entry: %v", err)
	}
}

func TestParseNvimInfo(t *testing.T) {
	got, err := parseNvimInfo([]byte(`{
		"tabstop": {"name": "tabstop", "shortname": "ts", "type": "number", "scope": "buf", "global_local": false, "default": 8},
		"winbar": {"name": "winbar", "shortname": "wbr", "type": "string", "scope": "win", "global_local": true},
		"wrap": {"name": "wrap", "shortname": "", "type": "boolean", "scope": "win", "global_local": false},
		"autoread": {"name": "autoread", "shortname": "ar", "type": "boolean", "scope": "buf", "global_local": true},
		"shada": {"name": "shada", "shortname": "sd", "type": "string", "scope": "global", "global_local": false}}`))
	if err != nil {
		t.Fatal(err)
	}
	want := []nvimOpt{
		{Name: "autoread", Short: "ar", Type: "boolean", Scope: globalBuffer},
		{Name: "shada", Short: "sd", Type: "string", Scope: global},
		{Name: "tabstop", Short: "ts", Type: "number", Scope: buffer},
		{Name: "winbar", Short: "wbr", Type: "string", Scope: globalWindow},
		{Name: "wrap", Type: "boolean", Scope: window},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("parseNvimInfo:\n got %+v\nwant %+v", got, want)
	}
	for _, bad := range []string{
		`[1]`,
		`{"x": {"name": "y", "type": "number", "scope": "global"}}`,
		`{"x": {"name": "x", "type": "float", "scope": "global"}}`,
		`{"x": {"name": "x", "type": "number", "scope": "tab"}}`,
	} {
		if _, err := parseNvimInfo([]byte(bad)); err == nil {
			t.Errorf("parseNvimInfo(%s): no error", bad)
		}
	}
}

// sampleFacts are hand-made facts that take every path of build: common
// options that agree, a type and a scope disagreement, a scope that only
// Neovim gives, one option for each editor alone, one Vim lacks for a
// feature that Neovim has, one that Neovim keeps but does not have, and
// one that neither has.
func sampleFacts() *facts {
	return &facts{
		VimVersion: "9.0.1378", NvimVersion: "0.11.4",
		VimDoc: []vimDoc{
			{Name: "tabstop", Short: "ts", Type: "number", Scope: buffer},
			{Name: "foldcolumn", Short: "fdc", Type: "number", Scope: window},
			{Name: "completeopt", Short: "cot", Type: "string", Scope: global},
			{Name: "packpath", Short: "pp", Type: "string"},
			{Name: "undolevels", Short: "ul", Type: "number", Scope: globalBuffer},
			{Name: "cryptmethod", Short: "cm", Type: "string", Scope: globalBuffer},
			{Name: "compatible", Short: "cp", Type: "boolean", Scope: global},
			{Name: "clipboard", Short: "cb", Type: "string", Scope: global, Features: []string{"+clipboard"}},
			{Name: "ballooneval", Short: "beval", Type: "boolean", Scope: global, Features: []string{"+balloon_eval"}},
		},
		VimLive: map[string]vimLive{
			"tabstop":     {Exists: true},
			"foldcolumn":  {Exists: true},
			"completeopt": {Exists: true, String: true},
			"packpath":    {Exists: true, String: true},
			"undolevels":  {Exists: true, NoLocal: "-123456"},
			"cryptmethod": {Exists: true, String: true, NoLocal: "''"},
			"compatible":  {Exists: true},
			"clipboard":   {},
			"ballooneval": {},
		},
		Nvim: []nvimOpt{
			{Name: "clipboard", Short: "cb", Type: "string", Scope: global},
			{Name: "compatible", Short: "cp", Type: "boolean", Scope: global},
			{Name: "completeopt", Short: "cot", Type: "string", Scope: globalBuffer},
			{Name: "foldcolumn", Short: "fdc", Type: "string", Scope: window},
			{Name: "packpath", Short: "pp", Type: "string", Scope: global},
			{Name: "tabstop", Short: "ts", Type: "number", Scope: buffer},
			{Name: "undolevels", Short: "ul", Type: "number", Scope: globalBuffer},
			{Name: "winbar", Short: "wbr", Type: "string", Scope: globalWindow},
		},
		NvimNoLocal: map[string]string{"completeopt": "''", "undolevels": "-123456", "winbar": "''"},
		NvimHidden:  map[string]bool{"compatible": true},
	}
}

func names(list []option) []string {
	var out []string
	for _, o := range list {
		out = append(out, o.Name)
	}
	return out
}

func TestBuild(t *testing.T) {
	m, err := build(sampleFacts())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		what      string
		got, want []string
	}{
		{"common", names(m.Common), []string{"completeopt", "foldcolumn", "packpath", "tabstop", "undolevels"}},
		{"Vim-only", names(m.VimOnly), []string{"compatible", "cryptmethod"}},
		{"Neovim-only", names(m.Nvim), []string{"clipboard", "winbar"}},
	} {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("%s: %v, want %v", c.what, c.got, c.want)
		}
	}
	want := []skipped{{"ballooneval", "Vim: needs +balloon_eval; Neovim: does not have it"}}
	if !reflect.DeepEqual(m.Skipped, want) {
		t.Errorf("skipped: %+v, want %+v", m.Skipped, want)
	}
	if len(m.Disagree) != 3 {
		t.Errorf("disagreements: %q, want 3", m.Disagree)
	}
	byName := map[string]option{}
	for _, l := range [][]option{m.Common, m.VimOnly, m.Nvim} {
		for _, o := range l {
			byName[o.Name] = o
		}
	}
	if o := byName["foldcolumn"]; o.Type != "string" || o.Scope != window {
		t.Errorf("foldcolumn: %+v, want a String local to window", o)
	}
	if o := byName["completeopt"]; o.Scope != global || o.NoLocal != "" {
		t.Errorf("completeopt: %+v, want global", o)
	}
	if o := byName["packpath"]; o.Scope != global {
		t.Errorf("packpath: %+v, want global", o)
	}
	if o := byName["undolevels"]; o.NoLocal != "-123456" {
		t.Errorf("undolevels: %+v, want NoLocal -123456", o)
	}

	// A disagreement with no rule is an error.
	f := sampleFacts()
	f.Nvim[5].Scope = window // tabstop
	if _, err := build(f); err == nil || !strings.Contains(err.Error(), "'tabstop' is local to buffer in Vim and local to window in Neovim") {
		t.Errorf("build with tabstop local to window in Neovim: %v", err)
	}
	f = sampleFacts()
	f.VimLive["tabstop"] = vimLive{Exists: true, String: true}
	if _, err := build(f); err == nil {
		t.Error("build with a Number option whose value is a String: no error")
	}
}

// The rendered source of the sample facts, one golden file per package.
func TestRenderGolden(t *testing.T) {
	m, err := build(sampleFacts())
	if err != nil {
		t.Fatal(err)
	}
	for _, pkg := range packages() {
		got, err := render(m, pkg)
		if err != nil {
			t.Fatal(err)
		}
		golden := filepath.Join("testdata", pkg+".golden")
		if *update {
			if err := os.WriteFile(golden, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: the rendered source differs from %s (go test -run TestRenderGolden -update):\n%s", pkg, golden, got)
		}
	}
	m.Common = append(m.Common, option{Name: "value", Type: "int", Scope: global})
	if _, err := render(m, "opt"); err == nil || !strings.Contains(err.Error(), "taken") {
		t.Errorf("render of an option named 'value': %v", err)
	}
}

// editorPath is the editor that the generator would read: $env or name on
// $PATH. A missing editor fails the test.
func editorPath(t *testing.T, env, name string) string {
	t.Helper()
	p, err := exec.LookPath(editor(env, name))
	if err != nil {
		t.Fatalf("%s: %v (set $%s, or run scripts/setup-editors.sh)", name, err, env)
	}
	return p
}

// The committed std/opt, std/vimopt and std/nvimopt are what the installed
// pinned editors generate now.
func TestGeneratedIsCurrent(t *testing.T) {
	files, m, err := generate(context.Background(), editorPath(t, "VIGOR_TEST_VIM", "vim"), editorPath(t, "VIGOR_TEST_NVIM", "nvim"))
	if err != nil {
		t.Fatal(err)
	}
	if m.VimVersion != "9.0.1378" || m.NvimVersion != "0.11.4" {
		t.Fatalf("the editors are Vim %s and Neovim %s, not the pinned Vim 9.0.1378 and Neovim 0.11.4", m.VimVersion, m.NvimVersion)
	}
	for _, pkg := range packages() {
		path := outPath("../../..", pkg)
		committed, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(committed, files[pkg]) {
			t.Errorf("%s is stale: run go generate ./std/opt", path)
		}
	}
}

// publishedCounts are the files that give the counts, with what each must
// say for m; a comment's line breaks read as spaces.
func publishedCounts(m *model) map[string][]string {
	c, v, n, s := len(m.Common), len(m.VimOnly), len(m.Nvim), len(m.Skipped)
	return map[string][]string{
		"std/opt/doc.go": {
			fmt.Sprintf("have: %d options.", c), fmt.Sprintf("vimopt (%d)", v),
			fmt.Sprintf("nvimopt (%d)", n), fmt.Sprintf("%d options that an editor names but neither has", s),
		},
		"std/vimopt/doc.go":  {fmt.Sprintf("does not: %d options", v), fmt.Sprintf("opt (%d)", c), fmt.Sprintf("nvimopt (%d)", n)},
		"std/nvimopt/doc.go": {fmt.Sprintf("does not: %d options", n), fmt.Sprintf("opt (%d)", c), fmt.Sprintf("vimopt (%d)", v)},
		"README.md":          {fmt.Sprintf("Options: %d common, %d Vim-only, %d Neovim-only, %d skipped", c, v, n, s)},
		"doc/vigor.txt": {
			fmt.Sprintf("opt for the %d options", c), fmt.Sprintf("vimopt for the %d", v),
			fmt.Sprintf("nvimopt for the %d", n), fmt.Sprintf("%d options that an editor names", s),
		},
	}
}

// The counts in the package documentation, README and the help are those
// of the committed code.
func TestCountsPublished(t *testing.T) {
	var m model
	for _, pkg := range packages() {
		src, err := os.ReadFile(outPath("../../..", pkg))
		if err != nil {
			t.Fatal(err)
		}
		n := strings.Count(string(src), "Option{Name: ")
		switch pkg {
		case "opt":
			m.Common = make([]option, n)
			if _, err := fmt.Sscanf(string(src[strings.Index(string(src), "Not wrapped: "):]), "Not wrapped: %d", &n); err != nil {
				t.Fatalf("std/opt/options.go: the count of the options not wrapped: %v", err)
			}
			m.Skipped = make([]skipped, n)
		case "vimopt":
			m.VimOnly = make([]option, n)
		case "nvimopt":
			m.Nvim = make([]option, n)
		}
	}
	for file, want := range publishedCounts(&m) {
		data, err := os.ReadFile(filepath.Join("../../..", file))
		if err != nil {
			t.Fatal(err)
		}
		text := regexp.MustCompile(`\s*\n\s*(// )?`).ReplaceAllString(string(data), " ")
		for _, w := range want {
			if !strings.Contains(text, w) {
				t.Errorf("%s does not say %q", file, w)
			}
		}
	}
}
