package msgpackrpc

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/vmihailenco/msgpack/v5"

	"github.com/vigorvim/vigor/internal/wire"
)

// slowAny decodes r into an empty any the way Unmarshal does without its
// fast path.
func slowAny(r []byte) (any, error) {
	var x any
	err := decode(newValueDecoder(bytes.NewReader(r)), &x)
	return x, err
}

// checkFast fails if fastScalar decodes r and the decoder disagrees.
func checkFast(t *testing.T, r []byte) {
	t.Helper()
	fast, ok := fastScalar(wire.Raw(r))
	if !ok {
		return
	}
	slow, err := slowAny(r)
	if err != nil {
		t.Fatalf("% x: fast path gives %#v, the decoder fails: %v", r, fast, err)
	}
	if f, ok := fast.(float64); ok && math.IsNaN(f) {
		if g, ok := slow.(float64); ok && math.Float64bits(f) == math.Float64bits(g) {
			return
		}
	}
	if !reflect.DeepEqual(fast, slow) {
		t.Fatalf("% x: fast path gives %#v, the decoder %#v", r, fast, slow)
	}
}

// The fast path of Unmarshal into an empty *any gives what the decoder
// gives, for every scalar encoding, and leaves the rest to the decoder.
func TestFastScalarMatchesDecoder(t *testing.T) {
	values := []any{nil, true, false, "", "a", string(make([]byte, 31)), string(make([]byte, 32)),
		string(make([]byte, 300)), string(make([]byte, 70000)), 1.5, math.Inf(-1), float32(2.5)}
	for _, n := range []int64{0, 1, 127, 128, 255, 256, 65535, 65536, 1<<32 - 1, 1 << 32, math.MaxInt64,
		-1, -32, -33, -128, -129, -32768, -32769, math.MinInt32, math.MinInt32 - 1, math.MinInt64} {
		values = append(values, n, uint64(n))
	}
	decoded := 0
	for _, v := range values {
		b, err := msgpack.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		checkFast(t, b)
		if _, ok := fastScalar(b); ok {
			decoded++
		}
		// Truncated or padded encodings are never taken by the fast path.
		for _, bad := range [][]byte{b[:len(b)-1], append(append([]byte(nil), b...), 0)} {
			if x, ok := fastScalar(bad); ok {
				t.Fatalf("% x: the fast path took a malformed value: %#v", bad, x)
			}
		}
	}
	if decoded < len(values)*3/4 {
		t.Fatalf("the fast path decoded only %d of %d scalars", decoded, len(values))
	}
	// Every one-byte code, and each code with 8 bytes after it.
	for c := 0; c < 256; c++ {
		checkFast(t, []byte{byte(c)})
		checkFast(t, []byte{byte(c), 0xff, 1, 2, 3, 4, 5, 6, 7})
	}
}

// Unmarshal into an *int64 or an *int gives what the decoder gives.
func TestFastIntMatchesDecoder(t *testing.T) {
	for _, n := range []int64{0, 1, 127, 128, 255, 256, 65535, 65536, 1<<32 - 1, 1 << 32, math.MaxInt64,
		-1, -32, -33, -128, -129, -32768, -32769, math.MinInt32, math.MinInt32 - 1, math.MinInt64} {
		for _, v := range []any{n, uint64(n)} {
			b, err := msgpack.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			var fast64, slow64 int64
			var fast, slow int
			err1, err2 := Unmarshal(b, &fast64), decode(newValueDecoder(bytes.NewReader(b)), &slow64)
			err3, err4 := Unmarshal(b, &fast), decode(newValueDecoder(bytes.NewReader(b)), &slow)
			if (err1 == nil) != (err2 == nil) || fast64 != slow64 || (err3 == nil) != (err4 == nil) || fast != slow {
				t.Fatalf("% x: Unmarshal gives %d (%v) and %d (%v), the decoder %d (%v) and %d (%v)",
					b, fast64, err1, fast, err3, slow64, err2, slow, err4)
			}
		}
	}
}

func FuzzFastScalar(f *testing.F) {
	for _, s := range []string{"\xc0", "\x7f", "\xe0", "\xcc\x80", "\xcf\xff\xff\xff\xff\xff\xff\xff\xff", "\xa1a", "\xd9\x01a", "\xcb\x3f\xf8\x00\x00\x00\x00\x00\x00"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) { checkFast(t, b) })
}

// AppendAtomicCalls writes what the msgpack encoder writes for the same
// calls (headers and strings are appended by hand).
func TestAppendAtomicCallsMatchesEncoder(t *testing.T) {
	type call struct {
		fn   string
		args []any
	}
	long := func(n int) string { return string(bytes.Repeat([]byte{'x'}, n)) }
	many := make([]any, 20)
	for i := range many {
		many[i] = i
	}
	for _, n := range []int{0, 1, 15, 16, 70000} {
		calls := make([]call, n)
		for i := range calls {
			if n > 1000 { // an array32 header; small calls
				calls[i] = call{"g", nil}
				continue
			}
			switch i % 6 {
			case 0:
				calls[i] = call{"Discard", []any{"x"}}
			case 1:
				calls[i] = call{long(40), []any{long(31), long(32), long(255), long(256)}}
			case 2:
				calls[i] = call{"f", []any{long(65536), 1, -3, 2.5, nil, true, []any{"a", 1}, map[string]any{"k": "v"}}}
			case 3:
				calls[i] = call{"g", nil}
			case 4:
				calls[i] = call{"h", many}
			case 5:
				calls[i] = call{long(300), []any{[]byte{0, 1}}}
			}
		}
		got, err := AppendAtomicCalls([]byte("prefix"), calls, func(c call) (string, []any) { return c.fn, c.args })
		if err != nil {
			t.Fatal(err)
		}
		list := make([]any, n)
		for i, c := range calls {
			args := c.args
			if args == nil {
				args = []any{}
			}
			list[i] = []any{"nvim_call_function", []any{c.fn, args}}
		}
		var want bytes.Buffer
		e := msgpack.NewEncoder(&want)
		e.UseCompactInts(true)
		if err := e.Encode(list); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, append([]byte("prefix"), want.Bytes()...)) {
			t.Fatalf("%d calls: AppendAtomicCalls and the encoder differ (%d and %d bytes)", n, len(got)-6, want.Len())
		}
	}
}

// A wire.Appender parameter is encoded in place, as the wire.Raw it
// appends would be, and its error fails the message.
func TestAppenderParam(t *testing.T) {
	c := New(bytes.NewReader(nil))
	raw := wire.Raw{0x92, 0x01, 0xa1, 'x'}
	want, err := c.AppendRequest(nil, 3, "m", []any{"a", raw})
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.AppendRequest(nil, 3, "m", []any{"a", wire.Appender(func(b []byte) ([]byte, error) { return append(b, raw...), nil })})
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("got % x (%v), want % x", got, err, want)
	}
	boom := errors.New("boom")
	if _, err := c.AppendRequest(nil, 4, "m", []any{wire.Appender(func(b []byte) ([]byte, error) { return b, boom })}); !errors.Is(err, boom) {
		t.Fatalf("err = %v, want boom", err)
	}
}

// splitWithDecoder is SplitList done by the msgpack decoder: the reference.
func splitWithDecoder(r []byte) ([]wire.Raw, error) {
	br := bytes.NewReader(r)
	d := msgpack.NewDecoder(br)
	n, err := d.DecodeArrayLen()
	if err != nil || n < 0 {
		return nil, err
	}
	if n > len(r) {
		return nil, errors.New("more items than bytes")
	}
	out := make([]wire.Raw, n)
	for i := range out {
		start := len(r) - br.Len()
		if err := d.Skip(); err != nil {
			return nil, err
		}
		out[i] = r[start : len(r)-br.Len()]
	}
	return out, nil
}

// checkSplit fails if SplitList and the decoder split r differently.
func checkSplit(t *testing.T, r []byte) {
	t.Helper()
	got, err := (&Codec{}).SplitList(r)
	want, werr := splitWithDecoder(r)
	if (err == nil) != (werr == nil) {
		// The decoder reads a List that claims more items than bytes
		// remain until it runs out; both must fail then.
		t.Fatalf("% x: SplitList err = %v, the decoder's = %v", r, err, werr)
	}
	if err == nil && !reflect.DeepEqual(got, want) {
		t.Fatalf("% x: SplitList = % x, the decoder = % x", r, got, want)
	}
}

func TestSplitListMatchesDecoder(t *testing.T) {
	values := []any{nil, true, 1, -1, 300, -300, 70000, 1 << 40, 1.5, float32(2), "", "abc", string(bytes.Repeat([]byte{'x'}, 300)),
		[]byte{1, 2}, bytes.Repeat([]byte{7}, 70000), []any{}, []any{1, "a", []any{nil}}, map[string]any{"k": []any{1}},
		make([]any, 20), map[string]any{"a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6, "g": 7, "h": 8, "i": 9, "j": 10, "k": 11, "l": 12, "m": 13, "n": 14, "o": 15, "p": 16, "q": 17},
		msgpack.RawMessage{0xd4, 1, 2}, msgpack.RawMessage{0xc7, 3, 1, 'a', 'b', 'c'}}
	for _, v := range values {
		b, err := msgpack.Marshal([]any{v, "after"})
		if err != nil {
			t.Fatal(err)
		}
		checkSplit(t, b)
		for cut := 0; cut < len(b); cut++ {
			if cut < 64 || cut > len(b)-64 {
				checkSplit(t, b[:cut])
			}
		}
	}
}

func FuzzSplitList(f *testing.F) {
	for _, s := range []string{"\x92\xc0\xa1a", "\x91\x91\x91\x90", "\xdc\x00\x02\x01\x02", "\x91\xd4\x01\x02", "\x91\xc7\x01\x05x", "\x81\xa1k\x01"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) { checkSplit(t, b) })
}

// The results of a 1000-call batch (nils), split: by hand and, for
// comparison, by the decoder (what SplitList did before).
func BenchmarkSplitList1000(b *testing.B) {
	r, _ := msgpack.Marshal(make([]any, 1000))
	b.Run("skip", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, err := (&Codec{}).SplitList(r); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("decoder", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, err := splitWithDecoder(r); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// checkFrames reads b with readFrame, whole and in pieces, and with the
// decoder: every frame that the decoder finds must come out the same, and
// readFrame must fail where the decoder does.
func checkFrames(t *testing.T, b []byte) {
	t.Helper()
	var want [][]byte
	var wantErr error
	d := msgpack.NewDecoder(bytes.NewReader(b))
	for {
		f, err := d.DecodeRaw()
		if err != nil {
			wantErr = err
			break
		}
		want = append(want, f)
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
				// (A message cut short may end in io.ErrUnexpectedEOF where
				// the decoder says io.EOF.)
				if err == nil || err == io.EOF && wantErr != io.EOF {
					t.Fatalf("%s, read %s: frame %d: readFrame = %s, %v; the decoder: %v", short(b), how, i, short(f), err, wantErr)
				}
				break
			}
			if err != nil || !bytes.Equal(f, want[i]) {
				t.Fatalf("%s, read %s: frame %d: readFrame = %s, %v; the decoder = %s", short(b), how, i, short(f), err, short(want[i]))
			}
		}
	}
}

// short shows the start of b, for failures.
func short(b []byte) string {
	if len(b) > 48 {
		return fmt.Sprintf("% x ... (%d bytes)", b[:48], len(b))
	}
	return fmt.Sprintf("% x", b)
}

func TestReadFrameMatchesDecoder(t *testing.T) {
	var stream []byte
	for _, v := range []any{
		[]any{1, 7, nil, make([]any, 1000)},
		[]any{0, 8, "nvim_call_function", []any{"f", []any{strings.Repeat("x", 300)}}},
		[]any{2, "ev", []any{map[string]any{"k": []any{1.5, true}}, msgpack.RawMessage{0xd4, 1, 2}}},
		[]any{1, 9, nil, strings.Repeat("y", 100000)}, // longer than the read buffer
		[]any{1, 10, nil, []any{make([]int, 40000), []any{[]any{strings.Repeat("z", 300)}, map[string]any{"k": make([]any, 30000)}}}},
	} {
		b, err := msgpack.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		stream = append(stream, b...)
		checkFrames(t, b)
		checkFrames(t, b[:len(b)-1])
	}
	checkFrames(t, stream)
	checkFrames(t, append(stream, 0xc1, 0x90))
}

func FuzzReadFrame(f *testing.F) {
	for _, s := range []string{"\x94\x01\x01\xc0\x92\x00\x00", "\x93\x02\xa1e\x90\x93\x02", "\xc1", "\x91\xd4\x01\x02\x90", "\xda\x00\x05ab"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) { checkFrames(t, b) })
}

// checkScanner feeds b to a scanner in growing prefixes, as readLong does:
// what it says it needs must never pass the object's end (readLong would
// wait for bytes of the next message), and where it ends must be where
// skip says.
func checkScanner(t *testing.T, b []byte) {
	want, werr := skip(b, 0)
	if werr == errTooDeep {
		return // the scanner follows any depth
	}
	var s scanner
	have := min(1, len(b))
	for {
		end, err := s.scan(b[:have])
		if err == errCutShort {
			if end <= have {
				t.Fatalf("% x: with %d bytes the scanner needs %d", b, have, end)
			}
			if werr == nil && end > want {
				t.Fatalf("% x: with %d bytes the scanner needs %d, past the end %d", b, have, end, want)
			}
			if end > len(b) {
				if have < len(b) {
					have = len(b) // all there is, to meet a bad byte
					continue
				}
				if werr == nil {
					t.Fatalf("% x: the scanner needs %d bytes; skip: %d", b, end, want)
				}
				return
			}
			have = end
			continue
		}
		if (err == nil) != (werr == nil) || err == nil && end != want || werr == errCutShort {
			t.Fatalf("% x: scanner %d, %v; skip %d, %v", b, end, err, want, werr)
		}
		return
	}
}

func TestScannerResumes(t *testing.T) {
	for _, v := range []any{
		nil, 1, "abc", strings.Repeat("x", 300), []any{}, []any{1, "a", []any{nil, []any{2}}},
		map[string]any{"k": []any{1.5, true}}, make([]any, 100), msgpack.RawMessage{0xd4, 1, 2},
		[]any{[]any{[]any{[]any{}}}, "tail"},
	} {
		b, err := msgpack.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		checkScanner(t, b)
	}
}

func FuzzScannerResumes(f *testing.F) {
	for _, s := range []string{"\x93\x01\x92\xa1a\xc0\x90", "\xdc\x00\x03\x01\x02\x03", "\x81\xa1k\x91\x01", "\xd9\x05hello", "\xc1"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) { checkScanner(t, b) })
}

// checkResponse fails if parseResponse reads frame and parse, the
// decoder's way, reads it differently.
func checkResponse(t *testing.T, frame []byte) {
	t.Helper()
	var fast wire.Message
	if !parseResponse(&fast, frame) {
		return
	}
	c := New(bytes.NewReader(nil))
	var slow wire.Message
	c.frame.Reset(frame)
	c.fdec.ResetReader(&c.frame)
	if err := c.parse(&slow, frame); err != nil {
		t.Fatalf("% x: the fast path reads %+v, parse fails: %v", frame, fast, err)
	}
	if c.frame.Len() != 0 {
		t.Fatalf("% x: the fast path reads it whole, parse leaves %d bytes", frame, c.frame.Len())
	}
	if fast.Kind != slow.Kind || fast.ID != slow.ID || !bytes.Equal(fast.Error, slow.Error) ||
		(fast.Error == nil) != (slow.Error == nil) || !bytes.Equal(fast.Result, slow.Result) {
		t.Fatalf("% x: the fast path reads %+v, parse %+v", frame, fast, slow)
	}
}

func TestParseResponseMatchesParse(t *testing.T) {
	enc := func(v ...any) []byte {
		b, err := msgpack.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	deep := any(1)
	for range 40 {
		deep = []any{deep}
	}
	read := 0
	for _, frame := range [][]byte{
		enc(1, 1, nil, 0),
		enc(1, 200, nil, "x"),
		enc(1, 70000, nil, []any{1, "a", nil}),
		enc(1, int64(1)<<40, nil, map[string]any{"a": 1}),
		enc(1, -1, nil, 0),
		enc(1, 7, []any{0, "E117: no"}, nil),
		enc(1, 7, nil, deep),
		enc(1, 7, nil, 1.5),
		{0x94, 0x01, 0x01, 0xc0, 0xd4, 0x00, 0x01}, // an ext result
		{0x94, 0x01, 0xa1, 'x', 0xc0, 0x00},        // a String id
		{0x94, 0x01, 0x01, 0xc0},                   // cut short
		{0x94, 0x01, 0x01, 0xc0, 0x00, 0x00},       // a byte too many
		{0x93, 0x02, 0xa1, 'x', 0x90},              // a notification
		enc(0, 1, "m", []any{}),
	} {
		var m wire.Message
		if parseResponse(&m, frame) {
			read++
		}
		checkResponse(t, frame)
	}
	if read != 9 {
		t.Errorf("the fast path read %d of the frames, want 9", read)
	}
}

func FuzzParseResponse(f *testing.F) {
	f.Add([]byte{0x94, 0x01, 0x01, 0xc0, 0x00})
	f.Add([]byte{0x94, 0x01, 0xcd, 0x01, 0x00, 0x92, 0x00, 0xa1, 'e', 0xc0})
	f.Fuzz(func(t *testing.T, b []byte) { checkResponse(t, b) })
}
