package buffer

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/vigorvim/vigor"
)

func TestOpenOptionsCheck(t *testing.T) {
	for _, c := range []struct {
		o    OpenOptions
		want string // "" for valid
	}{
		{OpenOptions{}, ""},
		{OpenOptions{Opener: "tabedit", Mods: "silent! keepalt 2tab", Cmdarg: "++enc=cp1252 ++ff=dos ++bin ++bad=X ++bad=drop", Bang: true}, ""},
		{OpenOptions{Opener: "e"}, `"e" is not an opener`},
		{OpenOptions{Opener: "edit!"}, `"edit!" is not an opener`},
		{OpenOptions{Mods: "botright|echo"}, `"botright|echo" is not a command modifier`},
		{OpenOptions{Mods: "tab9"}, `"tab9" is not a command modifier`},
		{OpenOptions{Cmdarg: "++enc="}, `"++enc=" is not a ++opt argument`},
		{OpenOptions{Cmdarg: "++bin=1"}, `"++bin=1" is not a ++opt argument`},
		{OpenOptions{Cmdarg: "++bad="}, `"++bad=" is not a ++opt argument`},
		{OpenOptions{Cmdarg: "++ff=dos|x"}, `"++ff=dos|x" is not a ++opt argument`},
		{OpenOptions{Cmdarg: "++enc=x\\"}, `"++enc=x\\" is not a ++opt argument`},
		{OpenOptions{Cmdarg: "enc=utf-8"}, `"enc=utf-8" is not a ++opt argument`},
	} {
		err := c.o.check()
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%+v: check() = %v, want %q", c.o, err, c.want)
		}
	}
}

func TestDecodeInGo(t *testing.T) {
	for _, c := range []struct {
		data string
		o    DecodeOptions
		want Decoded
	}{
		{"", DecodeOptions{}, Decoded{Lines: []string{}, Encoding: "utf-8", Fileformat: "unix"}},
		{"a\nb", DecodeOptions{}, Decoded{Lines: []string{"a", "b"}, Encoding: "utf-8", Fileformat: "unix"}},
		{"a\r\nb\n", DecodeOptions{}, Decoded{Lines: []string{"a\r", "b"}, Encoding: "utf-8", Fileformat: "unix"}},
		{"a\r\nb\r\n", DecodeOptions{}, Decoded{Lines: []string{"a", "b"}, Encoding: "utf-8", Fileformat: "dos"}},
		{"a\rb\r", DecodeOptions{}, Decoded{Lines: []string{"a", "b"}, Encoding: "utf-8", Fileformat: "mac"}},
		{"a\r\n", DecodeOptions{Fileformat: "unix"}, Decoded{Lines: []string{"a\r"}, Encoding: "utf-8", Fileformat: "unix"}},
		{"\xef\xbb\xbfé\n", DecodeOptions{}, Decoded{Lines: []string{"é"}, Encoding: "utf-8", BOM: true, Fileformat: "unix"}},
		{"\xfe\xff\x00a\x00\n\xd8\x3d\xde\x00", DecodeOptions{}, Decoded{Lines: []string{"a", "😀"}, Encoding: "utf-16", BOM: true, Fileformat: "unix"}},
		{"a\x00", DecodeOptions{Encoding: "UCS-2LE"}, Decoded{Lines: []string{"a"}, Encoding: "utf-16le", Fileformat: "unix"}},
		{"caf\xe9", DecodeOptions{Encoding: "latin1"}, Decoded{Lines: []string{"café"}, Encoding: "latin1", Fileformat: "unix"}},
		{"x\xff", DecodeOptions{Encoding: "utf-8"}, Decoded{Lines: []string{"x\uFFFD"}, Encoding: "utf-8", Fileformat: "unix"}},
	} {
		// A nil Caller: the call would panic, so none is made.
		got, err := Decode(context.Background(), nil, []byte(c.data), c.o)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("Decode(%q, %+v) = %+v, %v, want %+v", c.data, c.o, got, err, c.want)
		}
	}
	if _, err := Decode(context.Background(), nil, nil, DecodeOptions{Fileformat: "DOS"}); err == nil ||
		err.Error() != `buffer.Decode: "DOS" is not a fileformat (unix, dos or mac)` {
		t.Errorf("Decode with a bad fileformat: %v", err)
	}
}

// failCaller fails the test on any call: the functions check their input
// before they call.
type failCaller struct{ t *testing.T }

func (f failCaller) CallInto(ctx context.Context, result any, fn string, args ...any) error {
	f.t.Errorf("unexpected call of %s", fn)
	return nil
}
func (f failCaller) EvalInto(ctx context.Context, result any, expr string, vars map[string]any) error {
	f.t.Errorf("unexpected evaluation of %s", expr)
	return nil
}
func (f failCaller) Cmd(ctx context.Context, cmd string, vars map[string]any) error {
	f.t.Errorf("unexpected command %s", cmd)
	return nil
}
func (failCaller) Meta() vigor.Meta                        { return vigor.Meta{Host: "vim"} }
func (failCaller) Batching() (*vigor.Plugin, *vigor.Batch) { return nil, nil }

func TestBadInputWithoutCall(t *testing.T) {
	ctx, c := context.Background(), failCaller{t}
	nop := func(context.Context) error { return nil }
	_, openErr := Open(ctx, c, "x", OpenOptions{Opener: "x"})
	_, decoErr := Decorations(ctx, c, 1, "a.b")
	for _, e := range []struct {
		err  error
		want string
	}{
		{openErr, `buffer.Open: "x" is not an opener`},
		{Reload(ctx, c, -1), "buffer.Reload: -1 is not a buffer number"},
		{Replace(ctx, c, -2, nil), "buffer.Replace: -2 is not a buffer number"},
		{Append(ctx, c, 1, -2, []string{"x"}), "buffer.Append: -2 is not a line number"},
		{Append(ctx, c, 1, 0, nil), ""}, // nothing to append: no call
		{Ensure(ctx, c, -1, nop), "buffer.Ensure: -1 is not a buffer number"},
		{Ensure(ctx, c, 1, nil), "buffer.Ensure: the function is nil"},
		{Modifiable(ctx, c, -1, nop), "buffer.Modifiable: -1 is not a buffer number"},
		{Decorate(ctx, c, 1, "ns", []Decoration{{Line: 1, Col: 1, Highlight: ""}}), `buffer.Decorate: decoration 0: "" is not a highlight group name`},
		{Decorate(ctx, c, 1, "ns", nil), ""},
		{decoErr, `buffer.Decorations: "a.b" is not a namespace name`},
		{Clear(ctx, c, 1, "é"), `buffer.Clear: "é" is not a namespace name`},
	} {
		if e.want == "" && e.err != nil || e.want != "" && (e.err == nil || !strings.HasPrefix(e.err.Error(), e.want)) {
			t.Errorf("got %v, want %q", e.err, e.want)
		}
	}
}
