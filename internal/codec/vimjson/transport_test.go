package vimjson_test

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"testing"

	"github.com/vigorvim/vigor/internal/codec/vimjson"
)

func TestParseTransport(t *testing.T) {
	for in, want := range map[string]vimjson.Transport{"": {}, "callback": {}, "command": {Command: true}} {
		if got, err := vimjson.ParseTransport(in); err != nil || got != want {
			t.Errorf("ParseTransport(%q) = %+v, %v; want %+v", in, got, err, want)
		}
	}
	if _, err := vimjson.ParseTransport("carrier-pigeon"); err == nil {
		t.Error("ParseTransport of an unknown way: no error")
	}
}

// What is sent for a call of fn in each way, and in a batch.
func TestTransportNames(t *testing.T) {
	args := []any{1}
	for _, tt := range []struct {
		fn       string
		callback []any // name and args in the callback way
		command  []any // in the command way
		batch    string
		legacy   bool // in a batch
	}{
		{"Foo", []any{"g:Foo", args}, []any{"g:Foo", args}, "g:Foo", false},
		{"strftime", []any{vimjson.FuncLegacy, []any{"strftime", args}}, []any{"strftime", args}, "strftime", true},
		{"g:Foo", []any{"g:Foo", args}, []any{"g:Foo", args}, "g:Foo", false},
		{"s:Foo", []any{"s:Foo", args}, []any{"s:Foo", args}, "s:Foo", false},
		{"vigor#x#Foo", []any{"vigor#x#Foo", args}, []any{"vigor#x#Foo", args}, "vigor#x#Foo", false},
		{"Dict.Method", []any{"Dict.Method", args}, []any{"Dict.Method", args}, "Dict.Method", false},
	} {
		for _, way := range []struct {
			t    vimjson.Transport
			want []any
		}{{vimjson.Transport{}, tt.callback}, {vimjson.Transport{Command: true}, tt.command}} {
			name, params := way.t.Call(tt.fn, args)
			if got := []any{name, params}; !reflect.DeepEqual(got, way.want) {
				t.Errorf("%+v.Call(%q) = %v, want %v", way.t, tt.fn, got, way.want)
			}
			if name, legacy := way.t.BatchCall(tt.fn); name != tt.batch || legacy != tt.legacy {
				t.Errorf("%+v.BatchCall(%q) = %q, %v; want %q, %v", way.t, tt.fn, name, legacy, tt.batch, tt.legacy)
			}
		}
	}
	for _, tt := range []struct{ fn, msg, want string }{
		{"Foo", "E117: Unknown function: g:Foo", "E117: Unknown function: Foo"},
		{"Foo", "in g:FooBar: E117: Unknown function: g:Foo", "in g:FooBar: E117: Unknown function: Foo"},
		{"strftime", "E116: Invalid arguments for function strftime", "E116: Invalid arguments for function strftime"},
	} {
		if got := vimjson.Message(tt.fn, tt.msg); got != tt.want {
			t.Errorf("Message(%q, %q) = %q, want %q", tt.fn, tt.msg, got, tt.want)
		}
	}
}

// The runtime defines the functions that the table names.
func TestTransportFunctionsExist(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "..", "autoload", "vigor", "_internal", "api", "vim.vim"))
	if err != nil {
		t.Fatal(err)
	}
	for _, fn := range []string{vimjson.FuncCall, vimjson.FuncLegacy, vimjson.FuncChunk, vimjson.FuncChunked} {
		def := regexp.MustCompile(`(?m)^\s*(?:function!?|(?:export\s+)?def)\s+` + regexp.QuoteMeta(fn) + `\(`)
		if !def.Match(src) {
			t.Errorf("autoload/vigor/_internal/api/vim.vim does not define %s", fn)
		}
	}
}
