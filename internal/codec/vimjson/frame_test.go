package vimjson

import (
	"bytes"
	"encoding/json"
	"io"
	"testing"
	"testing/iotest"
)

// checkFrames reads a stream of JSON Lists, Dicts and Strings with
// readFrame, whole and in pieces: where encoding/json reads the stream, the
// frames must be its values.
func checkFrames(t *testing.T, b []byte) {
	t.Helper()
	var want []json.RawMessage
	d := json.NewDecoder(bytes.NewReader(b))
	for {
		var v json.RawMessage
		if err := d.Decode(&v); err == io.EOF {
			break
		} else if err != nil {
			return // not JSON: the frames are checked by FuzzReadMessage
		}
		if v[0] != '[' && v[0] != '{' && v[0] != '"' {
			// A bare number or word is no message: readFrame reads it up
			// to a delimiter (so "00" is one frame, not two), and
			// ReadMessage reports it as malformed.
			return
		}
		want = append(want, v)
	}
	readers := map[string]io.Reader{
		"whole":       bytes.NewReader(b),
		"byte a time": iotest.OneByteReader(bytes.NewReader(b)),
		"halves":      iotest.HalfReader(bytes.NewReader(b)),
	}
	for how, r := range readers {
		c := New(r)
		for i := 0; ; i++ {
			f, err := c.readFrame()
			if i == len(want) {
				if err != io.EOF {
					t.Fatalf("%q, read %s: after the last value: %q, %v", b, how, f, err)
				}
				break
			}
			if err != nil || !bytes.Equal(f, want[i]) {
				t.Fatalf("%q, read %s: frame %d = %q, %v; encoding/json: %q", b, how, i, f, err, want[i])
			}
		}
	}
}

func TestReadFrameMatchesEncodingJSON(t *testing.T) {
	big := bytes.Repeat([]byte(`"x\"y\\z",`), 20000) // longer than the read buffer
	for _, s := range []string{
		`[-1,[1,null]]` + "\n",
		`[1,["m",[{"a":[1,2,{}]},"s\"]",-3.5e2,true,false,null]]]` + "\n" + `[0,["n",[]]]`,
		` [2,["m",["\u00e9\\",[]]]] ` + "\n\n" + `[-3,["r",null]]`,
		`"a string" {"k":"v"}[]"s"`,
		`[-4,[[` + string(big) + `1],null]]`,
	} {
		checkFrames(t, []byte(s))
	}
}

func FuzzReadFrame(f *testing.F) {
	for _, s := range []string{`[-1,[1,null]]`, `[1,["m",["a\"b",{"k":[1]}]]]` + "\n" + `[0,["n",[]]]`, `1 2 "x"`, `[`, `{"a":"]"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) { checkFrames(t, b) })
}
