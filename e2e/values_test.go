package e2e

import (
	"strconv"
	"testing"

	"github.com/vigorvim/vigor/internal/editortest"
)

// Values go from the editor to Go and back unchanged, for every Vim type
// that JSON and msgpack can carry. Each case is a Vim expression; the
// plugin's echo method takes it as `any` and returns it.
func TestValuesRoundTrip(t *testing.T) {
	cases := []string{
		`0`, `42`, `-7`, `9007199254740993`, `-9223372036854775807`,
		`3.5`, `1.0`, `-0.25`, `1.0e20`,
		`''`, `'text'`, `"tab\tnewline\nquote\"backslash\\"`, `'ünïcødé 日本語 😀'`,
		`[]`, `[1, 'a', [2, [3]], {'k': 'v'}]`,
		`{}`, `{'a': 1, 'b': [1, 2], 'c': {'d': v:null}, 'with space': 1}`,
		`v:true`, `v:false`, `v:null`,
	}
	each(t, main1(), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "vtest")
		for _, c := range cases {
			expr := `[vigor#request('vtest', 'echo', [` + c + `]), ` + c + `]`
			got := ed.MustEval(t, `type(`+expr+`[0]) == type(`+expr+`[1]) && `+expr+`[0] ==# `+expr+`[1]`)
			if got != int64(1) {
				t.Errorf("%s: %s came back as %v", ed.Kind, c, ed.MustEval(t, `string(vigor#request('vtest', 'echo', [`+c+`]))`))
			}
		}
		// Two values at once, and typed parameters and results.
		mustEqual(t, ed, "echo2", ed.MustEval(t, `vigor#request('vtest', 'echo2', [1, 'x'])`), []any{int64(1), "x"})
		mustEqual(t, ed, "int", ed.MustEval(t, `vigor#request('vtest', 'int', [21])`), int64(42))
		mustEqual(t, ed, "float", ed.MustEval(t, `vigor#request('vtest', 'float', [1.25])`), 2.5)
		mustEqual(t, ed, "float from a Number", ed.MustEval(t, `vigor#request('vtest', 'float', [2])`), 4.0)
		mustEqual(t, ed, "bool", ed.MustEval(t, `vigor#request('vtest', 'bool', [v:true])`), false)
		mustEqual(t, ed, "strs", ed.MustEval(t, `vigor#request('vtest', 'strs', [['a', 'b']])`), "a+b")
		mustEqual(t, ed, "dict", ed.MustEval(t, `vigor#request('vtest', 'dict', [{'a': 1, 'b': 2}])`), int64(3))
		mustEqual(t, ed, "struct", ed.MustEval(t, `vigor#request('vtest', 'point', [{'x': 1, 'y': 2}])`),
			map[string]any{"x": int64(2), "y": int64(1), "label": "swapped"})
		// A struct: fields by json tag; a float field stays a Float; a nil
		// slice is v:null. A []byte is a List of Numbers on Vim (JSON has
		// no Blob) and a String on Neovim (its API has no Blob; it makes
		// one only of a string that holds a NUL byte, as below).
		mustEqual(t, ed, "struct fields", ed.MustEval(t, `map(vigor#request('vtest', 'record_value', []), {k, v -> type(v)})`),
			map[string]any{"f": int64(5), "bytes": map[string]int64{"vim": 3, "nvim": 1}[ed.Kind], "nil": int64(7), "inner": int64(4)})
		// A nil slice is an empty List (but in a struct, as above).
		mustEqual(t, ed, "nil []any", ed.MustEval(t, `vigor#request('vtest', 'nil_list', [])`), []any{})
		mustEqual(t, ed, "variadic", ed.MustEval(t, `vigor#request('vtest', 'sum', [1, 2, 3])`), int64(6))
		mustEqual(t, ed, "variadic, none", ed.MustEval(t, `vigor#request('vtest', 'sum', [])`), int64(0))
		mustEqual(t, ed, "no result", ed.MustEval(t, `vigor#request('vtest', 'nothing', [])`), nil)
		if ed.Kind == "vim" {
			// v:none (Vim only) arrives as null.
			mustEqual(t, ed, "v:none", ed.MustEval(t, `vigor#request('vtest', 'echo', [v:none]) is v:null`), int64(1))
		}
		// A Blob reaches Go as []byte. A Go []byte comes back as a List of
		// bytes on Vim (JSON has no Blob); on Neovim as a String, which
		// Neovim makes a Blob because this one holds a NUL byte.
		mustEqual(t, ed, "blob length", ed.MustEval(t, `vigor#request('vtest', 'bloblen', [0z00FF10])`), int64(3))
		wantBlob := map[string]string{"vim": "[0, 255, 16]", "nvim": "0z00FF10"}[ed.Kind]
		mustEqual(t, ed, "blob back", ed.MustEval(t, `string(vigor#request('vtest', 'blob', [0z00FF10]))`), wantBlob)
		mustEqual(t, ed, "blob through any", ed.MustEval(t, `string(vigor#request('vtest', 'echo', [0z00FF10]))`), wantBlob)
		// A Go string holding a NUL byte: Vim script strings cannot hold
		// NUL. Vim drops it (its JSON decoder does); Neovim makes the value
		// a Blob, as it does for any such string from a channel.
		wantNul := map[string]any{"vim": []any{int64(0), "'ab'"}, "nvim": []any{int64(1), "0z610062"}}[ed.Kind]
		mustEqual(t, ed, "NUL from Go", ed.MustEval(t, `[type(vigor#request('vtest', 'nul', [])) == v:t_blob, string(vigor#request('vtest', 'nul', []))]`), wantNul)
	})
}

func TestLargePayloads(t *testing.T) {
	each(t, main1(), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "vtest")
		const n = 10 << 20 // 10 MiB each way
		mustEqual(t, ed, "to Go", ed.MustEval(t, `vigor#request('vtest', 'strlen', [repeat('x', `+strconv.Itoa(n)+`)])`), int64(n))
		mustEqual(t, ed, "from Go", ed.MustEval(t, `strlen(vigor#request('vtest', 'big', [`+strconv.Itoa(n)+`]))`), int64(n))
		mustEqual(t, ed, "list", ed.MustEval(t, `len(vigor#request('vtest', 'echo', [range(200000)]))`), int64(200000))
		mustEqual(t, ed, "still serving", ed.MustEval(t, `vigor#request('vtest', 'greet', ['x'])`), "Hello, x!")
	})
}

// NaN and the infinities travel both ways on both editors. Vim writes them
// as bare words, which JSON lacks: they must decode, and must not break the
// channel.
func TestNonFiniteFloats(t *testing.T) {
	each(t, main1(), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "vtest")
		mustEqual(t, ed, "Infinity", ed.MustEval(t, `isinf(vigor#request('vtest', 'echo', [1.0/0]))`), int64(1))
		mustEqual(t, ed, "-Infinity", ed.MustEval(t, `isinf(vigor#request('vtest', 'echo', [-1.0/0]))`), int64(-1))
		mustEqual(t, ed, "NaN", ed.MustEval(t, `isnan(vigor#request('vtest', 'echo', [0.0/0]))`), int64(1))
		mustEqual(t, ed, "into a float64", ed.MustEval(t, `isinf(vigor#request('vtest', 'float', [1.0/0]))`), int64(1))
		mustEqual(t, ed, "inside a List and a Dict",
			ed.MustEval(t, `map(vigor#request('vtest', 'echo', [[1.0/0, 0.0/0, {'k': -1.0/0}]]), {_, v -> type(v) == v:t_dict ? isinf(v.k) : isinf(v) + 10 * isnan(v)})`),
			[]any{int64(1), int64(10), int64(-1)})
		// The plugin calls the editor, which answers with Infinity.
		mustEqual(t, ed, "a result from the editor", ed.MustEval(t, `isinf(vigor#request('vtest', 'call', ['eval', ['1.0 / 0']]))`), int64(1))
		mustEqual(t, ed, "still serving", ed.MustEval(t, `vigor#request('vtest', 'greet', ['x'])`), "Hello, x!")
	})
}
