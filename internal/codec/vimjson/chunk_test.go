package vimjson_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/vigorvim/vigor/internal/codec/vimjson"
)

// A frame of ChunkThreshold bytes goes as it is; one byte more goes in
// chunks, each at most ChunkSize bytes: so every frame fits in one write
// that a pipe takes whole.
func TestChunkThreshold(t *testing.T) {
	c := newCodec("")
	empty, _ := c.AppendRequest(nil, 1, "F", []any{""})
	fit := strings.Repeat("x", vimjson.ChunkThreshold-len(empty))
	out, err := c.AppendRequest(nil, 1, "F", []any{fit})
	if err != nil || len(out) != vimjson.ChunkThreshold || bytes.Count(out, []byte("\n")) != 1 {
		t.Fatalf("a request of %d bytes: %d bytes in %d frames (%v), want one frame", vimjson.ChunkThreshold, len(out), bytes.Count(out, []byte("\n")), err)
	}
	out, err = c.AppendRequest(nil, 1, "F", []any{fit + "x"})
	if err != nil {
		t.Fatal(err)
	}
	chunkFrames(t, out, "c1")
}

// Chunk keys start with KeyPrefix, which makes them unique to a plugin
// process in Vim's store.
func TestChunkKeyPrefix(t *testing.T) {
	c := newCodec("")
	c.KeyPrefix = "p:7:"
	big := strings.Repeat("y", 3*vimjson.ChunkSize)
	out, err := c.AppendNotification(nil, "F", []any{big})
	if err != nil {
		t.Fatal(err)
	}
	_, last, n := chunkFrames(t, out, "p:7:c1")
	if want := fmt.Sprintf(`["call","%s",["p:7:c1",%d]]`+"\n", vimjson.FuncChunked, n); last != want {
		t.Errorf("the call after the chunks is %q, want %q", last, want)
	}
	out, err = c.AppendRequest(nil, 2, "F", []any{big})
	if err != nil {
		t.Fatal(err)
	}
	chunkFrames(t, out, "p:7:c2")
}

// recorder keeps every write it gets.
type recorder struct{ writes []string }

func (r *recorder) Write(p []byte) (int, error) {
	r.writes = append(r.writes, string(p))
	return len(p), nil
}

// The Writer writes whole frames, as many as fit in PIPE_BUF bytes at a
// time; a longer frame goes alone, in one write.
func TestWriter(t *testing.T) {
	frame := func(n int) string { return strings.Repeat("a", n-1) + "\n" }
	small, half, long := frame(10), frame(vimjson.PipeBuf/2+1), frame(vimjson.PipeBuf+5)
	cases := []struct {
		name string
		in   []string // the frames of one Write
		want []string
	}{
		{"one", []string{small}, []string{small}},
		{"several that fit", []string{small, small, small}, []string{small + small + small}},
		{"exactly PIPE_BUF", []string{frame(vimjson.PipeBuf)}, []string{frame(vimjson.PipeBuf)}},
		{"split between frames", []string{half, half, small}, []string{half, half + small}},
		{"a longer frame alone", []string{small, long, small, small}, []string{small, long, small + small}},
		{"a long frame first", []string{long, long}, []string{long, long}},
	}
	for _, tc := range cases {
		var r recorder
		in := strings.Join(tc.in, "")
		n, err := vimjson.NewWriter(&r).Write([]byte(in))
		if err != nil || n != len(in) {
			t.Errorf("%s: wrote %d of %d (%v)", tc.name, n, len(in), err)
		}
		if strings.Join(r.writes, "|") != strings.Join(tc.want, "|") {
			t.Errorf("%s: writes of %v bytes, want %v", tc.name, lens(r.writes), lens(tc.want))
		}
	}
}

func lens(ss []string) []int {
	out := make([]int, len(ss))
	for i, s := range ss {
		out[i] = len(s)
	}
	return out
}
