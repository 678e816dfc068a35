package msgpackrpc_test

import (
	"strings"
	"testing"

	"github.com/vmihailenco/msgpack/v5"

	"github.com/vigorvim/vigor/internal/codec/msgpackrpc"
	"github.com/vigorvim/vigor/internal/wire"
)

var arg64 = strings.Repeat("abcdefgh", 8)

// repeatReader yields the same frame forever.
type repeatReader struct {
	frame []byte
	off   int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		c := copy(p[n:], r.frame[r.off:])
		n += c
		r.off = (r.off + c) % len(r.frame)
	}
	return n, nil
}

func BenchmarkAppendRequest(b *testing.B) {
	c := msgpackrpc.New(strings.NewReader(""))
	params := []any{arg64}
	var buf []byte
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		var err error
		buf, err = c.AppendRequest(buf[:0], int64(i+1), "Discard", params)
		if err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(len(buf)))
}

func replyFrame(b *testing.B) []byte {
	frame, err := msgpackrpc.New(strings.NewReader("")).AppendResponse(nil, 42, arg64)
	if err != nil {
		b.Fatal(err)
	}
	return frame
}

func BenchmarkReadReply(b *testing.B) { benchRead(b, replyFrame(b)) }

// benchRead reads frame over and over.
func benchRead(b *testing.B, frame []byte) {
	b.Helper()
	c := msgpackrpc.New(&repeatReader{frame: frame})
	var m wire.Message
	b.ReportAllocs()
	b.SetBytes(int64(len(frame)))
	for i := 0; i < b.N; i++ {
		if err := c.ReadMessage(&m); err != nil {
			b.Fatal(err)
		}
	}
}

// The reply to a 1000-call batch: [1, id, nil, [[0, 0, ...], nil]].
func BenchmarkReadBatchReply1000(b *testing.B) {
	frame, err := msgpack.Marshal([]any{1, 7, nil, []any{make([]int, 1000), nil}})
	if err != nil {
		b.Fatal(err)
	}
	benchRead(b, frame)
}

// A reply longer than the read buffer (64 KiB): 10000 lines of 40
// characters, as nvim_buf_get_lines of a large buffer returns.
func BenchmarkReadLongReply(b *testing.B) {
	lines := make([]string, 10000)
	for i := range lines {
		lines[i] = strings.Repeat("x", 40)
	}
	frame, err := msgpack.Marshal([]any{1, 7, nil, lines})
	if err != nil {
		b.Fatal(err)
	}
	benchRead(b, frame)
}

func BenchmarkReadReplyAndUnmarshal(b *testing.B) {
	frame := replyFrame(b)
	c := msgpackrpc.New(&repeatReader{frame: frame})
	var m wire.Message
	var s string
	b.ReportAllocs()
	b.SetBytes(int64(len(frame)))
	for i := 0; i < b.N; i++ {
		if err := c.ReadMessage(&m); err != nil {
			b.Fatal(err)
		}
		if err := c.Unmarshal(m.Result, &s); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReadRequest(b *testing.B) {
	frame, err := msgpackrpc.New(strings.NewReader("")).AppendRequest(nil, 7, "greet", []any{arg64, 1, []any{"a", "b"}})
	if err != nil {
		b.Fatal(err)
	}
	benchRead(b, frame)
}

func BenchmarkAppendBatch1000(b *testing.B) {
	c := msgpackrpc.New(strings.NewReader(""))
	calls := make([]any, 1000)
	for i := range calls {
		calls[i] = []any{"Discard", []any{arg64}}
	}
	params := []any{calls}
	var buf []byte
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		var err error
		buf, err = c.AppendRequest(buf[:0], int64(i+1), "vigor#_internal#api#batch", params)
		if err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(len(buf)))
}

// The nvim_call_atomic body of a 1000-call batch (what Batch sends).
func BenchmarkAppendAtomicCalls1000(b *testing.B) {
	calls := make([][]any, 1000)
	for i := range calls {
		calls[i] = []any{arg64}
	}
	var buf []byte
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		var err error
		buf, err = msgpackrpc.AppendAtomicCalls(buf[:0], calls, func(args []any) (string, []any) { return "Discard", args })
		if err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(len(buf)))
}
