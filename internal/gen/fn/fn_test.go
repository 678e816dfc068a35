package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestParseUsage(t *testing.T) {
	for _, tc := range []struct {
		usage    string
		names    []string
		required int
		variadic bool
		elided   bool
	}{
		{"", nil, 0, false, false},
		{"{lnum}", []string{"lnum"}, 1, false, false},
		{"{lnum}, {end}", []string{"lnum", "end"}, 2, false, false},
		{"[{winnr} [, {tabnr}]]", []string{"winnr", "tabnr"}, 0, false, false},
		{"{name} [, {arglist}] [, {dict}]", []string{"name", "arglist", "dict"}, 1, false, false},
		{"[-1, {winid}]", []string{"", "winid"}, 0, false, false},
		{"{fmt}, {expr1}...", []string{"fmt"}, 1, true, false},
		{"{start}, {end} [, {flags} [...]]", []string{"start", "end", "flags"}, 2, false, true},
		{"[expr]", []string{"expr"}, 0, false, false},
		{"{object}, {expr} [, {opts}]]", []string{"object", "expr", "opts"}, 2, false, false},
		{"{fname-one}, {fname-two}", []string{"fname-one", "fname-two"}, 2, false, false},
	} {
		r, err := parseUsage("f", tc.usage)
		if err != nil {
			t.Fatalf("%q: %v", tc.usage, err)
		}
		var names []string
		for _, p := range r.params {
			names = append(names, p.name)
		}
		if !reflect.DeepEqual(names, tc.names) || r.required != tc.required || r.variadic != tc.variadic || r.elided != tc.elided {
			t.Errorf("%q: names %q required %d variadic %v elided %v; want %q %d %v %v",
				tc.usage, names, r.required, r.variadic, r.elided, tc.names, tc.required, tc.variadic, tc.elided)
		}
	}
	if _, err := parseUsage("f", "{a} [, {b}"); err == nil {
		t.Error("unbalanced brackets: no error")
	}
}

// A hand-made builtin.txt: rows on one line, a row whose result is on the
// next line, and a function with a row per arity.
const vimTable = `
USAGE				RESULT	DESCRIPTION	~

*builtin-function-list*
abs({expr})			Float or Number  absolute value of {expr}
argv({nr} [, {winid}])		String	{nr} entry of the argument list
argv([-1, {winid}])		List	the argument list
assert_equal({exp}, {act} [, {msg}])
				Number	assert {exp} is equal to {act}
ch_close({handle})		none	close {handle}
getline({lnum})			String	line {lnum} of current buffer
getline({lnum}, {end})		List	lines {lnum} to {end} of current buffer
popup_create({what}, {options}) Number	create a popup window
sound_stop({id})		none	stop playing sound {id}
printf({fmt}, {expr1}...)	String	format text
==============================================================================
2. Details					*builtin-function-details*
getline({lnum})	is not a row here
`

func TestParseVimTable(t *testing.T) {
	rows, err := parseVimTable(vimTable)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rows {
		got = append(got, r.name+"/"+r.result)
	}
	want := []string{"abs/Float or Number", "argv/String", "argv/List", "assert_equal/Number", "ch_close/none",
		"getline/String", "getline/List", "popup_create/Number", "sound_stop/none", "printf/String"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("rows %q, want %q", got, want)
	}
	if _, err := parseVimTable("no table"); err == nil {
		t.Error("no table: no error")
	}
}

// A hand-made vimfn.lua: plain definitions, an overload, a keyword name,
// a variadic one and a deprecated one.
const vimfnLua = `--- @meta _
error('Cannot require a meta file')

--- Prose that is not read.
---
--- @param expr number
--- @return number
function vim.fn.abs(expr) end

--- @param nr? integer
--- @param winid? integer
--- @return string|string[]
function vim.fn.argv(nr, winid) end

--- @param exp any
--- @param act any
--- @param msg? any
--- @return 0|1
function vim.fn.assert_equal(exp, act, msg) end

--- @param lnum integer|string
--- @param end_? nil|false
--- @return string
function vim.fn.getline(lnum, end_) end

--- @param lnum integer|string
--- @param end_ true|number|string|table
--- @return string|string[]
function vim.fn.getline(lnum, end_) end

--- @param expr number
--- @param expr1 number
--- @return integer
vim.fn['and'] = function(expr, expr1) end

--- @param fmt string
--- @param expr1? any
--- @return string
function vim.fn.printf(fmt, expr1) end

--- @param job integer
--- @param data string|string[]
--- @return integer
function vim.fn.chansend(job, data) end

--- @deprecated
--- @param ... any
--- @return any
function vim.fn.jobclose(...) end
`

func TestParseVimfnLua(t *testing.T) {
	rows, err := parseVimfnLua(vimfnLua)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rows {
		got = append(got, r.name)
	}
	want := []string{"abs", "argv", "assert_equal", "getline", "getline", "and", "printf", "chansend", "jobclose"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("rows %q, want %q", got, want)
	}
	if r := rows[1]; r.required != 0 || len(r.params) != 2 || r.params[1].typ != "integer" || r.result != "string|string[]" {
		t.Errorf("argv: %+v", r)
	}
	if r := rows[4]; r.required != 2 {
		t.Errorf("getline's second overload: %+v", r)
	}
	if r := rows[8]; !r.variadic || !r.noted || len(r.params) != 0 {
		t.Errorf("jobclose: %+v", r)
	}
}

func TestTypes(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Number", "int"}, {"Float", "float64"}, {"String", "string"}, {"List", "[]any"},
		{"Dict", "map[string]any"}, {"Blob", "[]byte"}, {"Bool", "bool"}, {"none", ""},
		{"any", "any"}, {"Funcref", "any"}, {"Float or Number", "float64"}, {"List/Blob", "any"},
		{"Number or List", "any"},
	} {
		if got := vimResult(tc.in); got != tc.want {
			t.Errorf("vimResult(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	for _, tc := range []struct {
		in           string
		result, para string
	}{
		{"integer", "int", "int"}, {"number", "float64", "any"}, {"string", "string", "string"},
		{"boolean", "bool", "bool"}, {"0|1", "bool", "int"}, {"0|-1", "int", "int"},
		{"string[]", "[]string", "[]string"}, {"integer[][]", "[][]int", "[][]int"},
		{"any[]", "[]any", "any"}, {"table", "any", "any"}, {"table<string,any>", "map[string]any", "map[string]any"},
		{"vim.fn.getbufinfo.ret.item[]", "[]map[string]any", "[]map[string]any"},
		{"[integer, integer]", "[]int", "[]int"}, {"[integer, string, integer]", "[]any", "any"},
		{"'file'|'dir'", "string", "string"}, {"integer|string", "any", "any"}, {"string|string[]", "any", "any"},
		{"fun(a: T): any", "any", "any"}, {"T", "any", "any"}, {"(0|-1)[]", "[]int", "[]int"},
	} {
		if got := luaType(tc.in, true); got != tc.result {
			t.Errorf("luaType(%q, result) = %q, want %q", tc.in, got, tc.result)
		}
		if got := paramType(tc.in); got != tc.para {
			t.Errorf("paramType(%q) = %q, want %q", tc.in, got, tc.para)
		}
	}
	for _, tc := range []struct {
		vim, nvim, want string
		agree           bool
	}{
		{"int", "0|1", "bool", true}, {"[]any", "string[]", "[]string", true}, {"[]any", "string|string[]", "[]string", true},
		{"int", "number", "int", true}, {"any", "integer", "int", true}, {"float64", "integer", "float64", false},
		{"[]any", "vim.fn.undotree.ret", "any", false}, {"string", "string", "string", true},
	} {
		got, agree := mergeAlts(tc.vim, tc.nvim)
		if got != tc.want || agree != tc.agree {
			t.Errorf("mergeAlts(%q, %q) = %q, %v; want %q, %v", tc.vim, tc.nvim, got, agree, tc.want, tc.agree)
		}
	}
}

// handMade is the inputs of the golden test: the hand-made sources, with
// exists() as a Vim (without sound) and a Neovim would give.
func handMade() inputs {
	vim := map[string]bool{"abs": true, "argv": true, "assert_equal": true, "ch_close": true, "getline": true, "popup_create": true, "printf": true, "and": true, "undocumented": true, "sound_stop": false}
	nvim := map[string]bool{"abs": true, "argv": true, "assert_equal": true, "getline": true, "and": true, "printf": true, "chansend": true, "jobclose": true, "nvim_buf_get_lines": true, "MatchDisable": false}
	// What Vim's compiler accepts: as the table says, except that ch_close
	// takes a second argument the table does not show, and printf any
	// number (all up to the most tried, 4); abs is inconclusive (nothing
	// refused), as for a function that Vim9 script refuses altogether.
	args := map[string][]int{"abs": {0, 1, 2, 3, 4}, "argv": {0, 1, 2}, "assert_equal": {2, 3}, "ch_close": {1, 2},
		"getline": {1, 2}, "popup_create": {2}, "printf": {1, 2, 3, 4}}
	return inputs{builtinTxt: vimTable, vimfnLua: vimfnLua, vimHas: vim, nvimHas: nvim, vimArgs: args,
		vimAll: []string{"abs", "and", "getline", "undocumented"}, nvimAll: []string{"nvim_buf_get_lines"}}
}

// The generated code for the hand-made sources, against
// testdata/*.golden (go test -run TestGolden -update rewrites them).
func TestGolden(t *testing.T) {
	pkgs, err := build(handMade())
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pkgs {
		src, err := p.emit()
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join("testdata", p.name+".golden")
		if *update {
			if err := os.WriteFile(path, src, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(src, want) {
			t.Errorf("%s differs from %s:\n%s", p.name, path, src)
		}
	}
}

// The committed packages are what the generator makes from the installed
// pinned editors. Editors are always installed where the tests run
// (scripts/setup-editors.sh): a missing one fails the test.
func TestGeneratedIsCurrent(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	std := filepath.Join("..", "..", "..", "std")
	files, pkgs, err := generate(ctx, std)
	if err != nil {
		t.Fatal(err)
	}
	// README's table gives the counts too.
	readme, err := os.ReadFile(filepath.Join("..", "..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pkgs {
		n, wrapped := len(p.funcs), len(p.wrappers)
		row := fmt.Sprintf("| `std/%s` | %s | %d functions (%d wrappers", p.name, "builtin functions both editors have", n, wrapped)
		if p.only != "" {
			row = fmt.Sprintf("| `std/%s` | builtin functions only %s has | %d (%d wrappers), %d skipped", p.name, map[string]string{"vim": "Vim", "nvim": "Neovim"}[p.only], n, wrapped, len(p.skipped))
		} else {
			row += fmt.Sprintf(", one per number of arguments), %d skipped", len(p.skipped))
		}
		if !strings.Contains(string(readme), row) {
			t.Errorf("README.md does not have the row %q", row)
		}
	}
	for path, src := range files {
		old, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(old, src) {
			t.Errorf("%s is stale: run go generate ./std/fn (it differs near %q)", path, firstDiff(old, src))
		}
	}
}

func firstDiff(a, b []byte) string {
	al, bl := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			return bl[i]
		}
	}
	return "the end"
}

// A fix corrects the types of the function it names, and one that names
// a function or a parameter the sources lack is reported, so that the
// table cannot outlive the editors' functions.
func TestFixes(t *testing.T) {
	funcs := map[string]*function{
		"char2nr":  {params: []param{{name: "string", typ: "string"}}, results: map[int]string{1: "bool"}},
		"globpath": {params: []param{{name: "path"}, {name: "expr"}, {name: "nosuf"}, {name: "list"}}, results: map[int]string{2: "string", 3: "string", 4: "string"}},
		"abs":      {params: []param{{name: "expr", typ: anyType}}, results: map[int]string{1: "float64"}, arityNotes: map[int]string{1: "Vim's result is float64"}},
		"getbufline": {params: []param{{name: "buf", typ: anyType}, {name: "lnum", typ: "int"}, {name: "end", typ: "int"}},
			results: map[int]string{2: "[]string", 3: "[]string"}},
		"setcharsearch": {params: []param{{name: "dict", typ: "string"}}, results: map[int]string{1: "map[string]any"}},
	}
	stale := applyFixes(funcs)
	if got := funcs["char2nr"].results[1]; got != "int" {
		t.Errorf("char2nr: %s", got)
	}
	if g := funcs["globpath"].results; g[3] != "string" || g[4] != anyType {
		t.Errorf("globpath: %v", g)
	}
	if f := funcs["abs"]; f.typeParam != numericParam || f.params[0].typ != "T" || f.results[1] != "T" || f.arityNotes[1] != "" {
		t.Errorf("abs: %+v", f)
	}
	if p := funcs["getbufline"].params; p[1].typ != anyType || p[2].typ != anyType {
		t.Errorf("getbufline: %+v", p)
	}
	if f := funcs["setcharsearch"]; f.results[1] != voidType || f.params[0].typ != "map[string]any" {
		t.Errorf("setcharsearch: %+v", f)
	}
	if !reflect.DeepEqual(stale[:2], []string{"append()", "appendbufline()"}) {
		t.Errorf("stale: %q", stale)
	}
	funcs["appendbufline"] = &function{params: []param{{name: "buf"}, {name: "lnum"}}, results: map[int]string{2: "bool"}}
	if stale := applyFixes(funcs); !slices.Contains(stale, "appendbufline(): parameter text") {
		t.Errorf("a missing parameter is not stale: %q", stale)
	}
}
