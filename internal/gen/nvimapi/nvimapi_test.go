package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/vmihailenco/msgpack/v5"
)

var update = flag.Bool("update", false, "rewrite the golden file")

func TestGoType(t *testing.T) {
	for _, tc := range []struct{ in, want, why string }{
		{"Integer", "int", ""}, {"Float", "float64", ""}, {"Boolean", "bool", ""}, {"String", "string", ""},
		{"Array", "[]any", ""}, {"Dict", "map[string]any", ""}, {"Dictionary", "map[string]any", ""},
		{"Object", "any", ""}, {"Buffer", "Buffer", ""}, {"Window", "Window", ""}, {"Tabpage", "Tabpage", ""},
		{"ArrayOf(String)", "[]string", ""}, {"ArrayOf(Integer, 2)", "[]int", ""}, {"ArrayOf(Window)", "[]Window", ""},
		{"LuaRef", "", "a Lua function, which a Go value cannot be"}, {"Mystery", "", "a type the generator does not know"},
	} {
		got, why := goType(tc.in)
		if got != tc.want || why != tc.why {
			t.Errorf("goType(%q) = %q, %q; want %q, %q", tc.in, got, why, tc.want, tc.why)
		}
	}
}

// handMade is a small api-info, as msgpack, with a function of each kind:
// typed, void, deprecated, RPC-only, taking a LuaRef, an old name.
func handMade(t *testing.T) []byte {
	t.Helper()
	info := map[string]any{
		"version": map[string]any{"major": 0, "minor": 11, "patch": 4, "api_level": 13},
		"functions": []map[string]any{
			{"name": "nvim_buf_get_lines", "since": 1, "return_type": "ArrayOf(String)",
				"parameters": [][]string{{"Buffer", "buffer"}, {"Integer", "start"}, {"Integer", "end"}, {"Boolean", "strict_indexing"}}},
			{"name": "nvim_command", "since": 1, "return_type": "void", "parameters": [][]string{{"String", "command"}}},
			{"name": "nvim_get_current_win", "since": 1, "return_type": "Window", "parameters": [][]string{}},
			{"name": "nvim_exec", "since": 7, "deprecated_since": 11, "return_type": "String",
				"parameters": [][]string{{"String", "src"}, {"Boolean", "output"}}},
			{"name": "nvim_ui_attach", "since": 1, "return_type": "void", "parameters": [][]string{{"Integer", "width"}}},
			{"name": "nvim_buf_call", "since": 7, "return_type": "Object", "parameters": [][]string{{"Buffer", "buffer"}, {"LuaRef", "fun"}}},
			{"name": "buffer_get_line", "since": 0, "return_type": "String", "parameters": [][]string{{"Buffer", "buffer"}, {"Integer", "index"}}},
		},
	}
	data, err := msgpack.Marshal(info)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestGolden(t *testing.T) {
	info, err := parseAPIInfo(handMade(t))
	if err != nil {
		t.Fatal(err)
	}
	has := map[string]bool{"nvim_buf_get_lines": true, "nvim_command": true, "nvim_get_current_win": true, "nvim_exec": true, "nvim_buf_call": true}
	src, err := emit(build(info, has))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", "nvimapi.golden")
	if *update {
		if err := os.WriteFile(path, src, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(src, want) {
		t.Errorf("the output differs from %s:\n%s", path, src)
	}
}

func TestParseAPIInfoRefusesGarbage(t *testing.T) {
	if _, err := parseAPIInfo([]byte("not msgpack")); err == nil {
		t.Error("no error")
	}
	empty, _ := msgpack.Marshal(map[string]any{"functions": []any{}})
	if _, err := parseAPIInfo(empty); err == nil {
		t.Error("no functions: no error")
	}
}

// The committed package is what the generator makes from the installed
// pinned Neovim; a missing Neovim fails the test.
func TestGeneratedIsCurrent(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	src, a, err := generate(ctx)
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join("..", "..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	row := fmt.Sprintf("| `std/nvimapi` | every `nvim_*` API function that Vim script can call | %d (%d deprecated), %d skipped", len(a.funcs), a.deprecated(), len(a.skipped))
	if !bytes.Contains(readme, []byte(row)) {
		t.Errorf("README.md does not have the row %q", row)
	}
	path := filepath.Join("..", "..", "..", "std", "nvimapi", "nvimapi_gen.go")
	old, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(old, src) {
		t.Errorf("%s is stale: run go generate ./std/nvimapi", path)
	}
}
