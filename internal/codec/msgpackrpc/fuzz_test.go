package msgpackrpc_test

import (
	"bytes"
	"errors"
	"math"
	"reflect"
	"testing"

	"github.com/vmihailenco/msgpack/v5"
	"github.com/vmihailenco/msgpack/v5/msgpcode"

	"github.com/vigorvim/vigor/internal/codec/msgpackrpc"
	"github.com/vigorvim/vigor/internal/wire"
)

func readSeeds() [][]byte {
	seeds := [][]byte{
		// malformed but recoverable
		hx("90"), hx("92 01 02"), hx("c0"), hx("2a"), hx("81 a1 61 01"),
		hx("94 03 01 a1 46 90"), hx("93 00 01 a1 46"), hx("94 00 09 2a 90"),
		hx("94 00 09 a1 46 a1 78"), hx("93 02 2a 90"), hx("94 01 a1 78 c0 c0"),
		// broken
		hx("c1"), hx("94 00 01"), hx("dd ff ff ff ff"), hx("c6 ff ff ff ff 00"),
		hx("94 00 01 a1 46 91 c1"), {},
		// extension values (Neovim's Buffer, Window, Tabpage) and a timestamp
		hx("93 02 a1 46 92 d4 00 01 d6 ff 00 00 00 01"),
		// a request with every kind of value
		hx("94 00 cf ff ff ff ff ff ff ff ff d9 03 61 62 63 dc 00 08 c0 c3 cb 3f f8 00 00 00 00 00 00 ca 3f c0 00 00 c4 01 00 de 00 01 a1 6b 90 d3 80 00 00 00 00 00 00 00 a0"),
	}
	for _, tt := range readTests {
		seeds = append(seeds, hx(tt.in))
	}
	var all []byte
	for _, tt := range readTests {
		all = append(all, hx(tt.in)...)
	}
	return append(seeds, append(hx("92 01 02"), all...))
}

// FuzzReadMessage checks that no input makes ReadMessage panic or loop, and
// that every message it returns encodes back to the same message.
func FuzzReadMessage(f *testing.F) {
	for _, s := range readSeeds() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c := msgpackrpc.New(bytes.NewReader(data))
		// Every message takes at least one byte, so this bounds the loop.
		for i := 0; i <= len(data); i++ {
			var m wire.Message
			err := c.ReadMessage(&m)
			if err != nil {
				if errors.Is(err, wire.ErrMalformed) {
					continue
				}
				return
			}
			checkReadMessage(t, c, &m)
		}
		t.Fatalf("ReadMessage returned more messages than there are bytes in % x", data)
	})
}

func checkReadMessage(t *testing.T, c *msgpackrpc.Codec, m *wire.Message) {
	params := make([]any, len(m.Params))
	for i, p := range m.Params {
		if len(p) == 0 {
			t.Fatalf("param %d is empty", i)
		}
		_ = msgpackrpc.TypeName(p)
		var v any
		_ = c.Unmarshal(p, &v)
		params[i] = p
	}
	var b []byte
	var err error
	switch m.Kind {
	case wire.Request:
		b, err = c.AppendRequest(nil, m.ID, m.Method, params)
	case wire.Notification:
		if m.ID != 0 {
			t.Fatalf("notification with id %d", m.ID)
		}
		b, err = c.AppendNotification(nil, m.Method, params)
	case wire.Response:
		if m.Method != "" || m.Params != nil || len(m.Result) == 0 {
			t.Fatalf("bad response %+v", m)
		}
		if m.Error == nil {
			b, err = c.AppendResponse(nil, m.ID, m.Result)
		} else {
			b, err = msgpack.Marshal([]any{1, m.ID, msgpack.RawMessage(m.Error), msgpack.RawMessage(m.Result)})
		}
	default:
		t.Fatalf("message of kind %s", m.Kind)
	}
	var ve *wire.ValueError
	if errors.As(err, &ve) {
		// A value that Neovim could not read (a Dict key that is not a
		// String, say): the codec refuses to send it, by design.
		return
	}
	if err != nil {
		t.Fatalf("re-encoding %+v: %v", m, err)
	}
	var again wire.Message
	if err := msgpackrpc.New(bytes.NewReader(b)).ReadMessage(&again); err != nil {
		t.Fatalf("reading back % x: %v", b, err)
	}
	if again.Kind != m.Kind || again.ID != m.ID || again.Method != m.Method ||
		!bytes.Equal(again.Result, m.Result) || !bytes.Equal(again.Error, m.Error) ||
		len(again.Params) != len(m.Params) {
		t.Fatalf("round trip changed the message:\n%+v\n%+v", m, &again)
	}
	for i := range m.Params {
		if !bytes.Equal(again.Params[i], m.Params[i]) {
			t.Fatalf("round trip changed param %d: % x -> % x", i, m.Params[i], again.Params[i])
		}
	}
}

// FuzzUnmarshal decodes arbitrary bytes into the usual targets. It must never
// panic, the codec's pooled decoders must agree with the package function,
// and a plain value decoded into any must survive encoding.
func FuzzUnmarshal(f *testing.F) {
	for _, s := range []string{
		"01", "cc c8", "d3 80 00 00 00 00 00 00 00", "cf ff ff ff ff ff ff ff ff",
		"cb 3f f8 00 00 00 00 00 00", "ca 7f c0 00 00", "a3 61 00 62", "d9 02 68 69", "da 00 01 78",
		"c4 02 01 02", "c0", "c3", "93 01 a1 61 92 cb 40 04 00 00 00 00 00 00 cd 01 2c",
		"83 a1 78 cd 03 e8 a5 69 6e 6e 65 72 81 a1 6e 01 a4 74 61 67 73 91 a1 74",
		"81 01 02", "c1", "a5 61", "", "dd ff ff ff ff",
	} {
		f.Add(hx(s))
	}
	c := newCodec(nil)
	f.Fuzz(func(t *testing.T, data []byte) {
		_ = msgpackrpc.TypeName(data)
		// A wire.Raw is always one complete value: ReadMessage checks each
		// frame before anything decodes it. (The msgpack library trusts
		// array lengths when it allocates, so a Raw that claims 4G items
		// and holds none would exhaust memory.)
		r := completeValue(data)
		if r == nil {
			return
		}
		_, _ = c.SplitList(r)
		targets := []func() any{
			func() any { return new(string) },
			func() any { return new([]byte) },
			func() any { return new(int64) },
			func() any { return new(float64) },
			func() any { return new(point) },
			func() any { return new(map[string]any) },
			func() any { return new([]any) },
		}
		for _, target := range targets {
			a, b := target(), target()
			errA, errB := c.Unmarshal(r, a), msgpackrpc.Unmarshal(r, b)
			if (errA == nil) != (errB == nil) {
				t.Fatalf("%T: Codec.Unmarshal err %v, Unmarshal err %v", a, errA, errB)
			}
			if errA == nil && !reflect.DeepEqual(a, b) && !hasNaN(reflect.ValueOf(a).Elem().Interface()) {
				t.Fatalf("%T: Codec.Unmarshal %#v, Unmarshal %#v", a, a, b)
			}
		}
		var v any
		if err := c.Unmarshal(r, &v); err != nil || !plain(v) {
			return
		}
		b, err := c.AppendResponse(nil, 1, v)
		var ve *wire.ValueError
		if errors.As(err, &ve) {
			return // nested deeper than Neovim reads, or a uint64 above math.MaxInt64
		}
		if err != nil {
			t.Fatalf("encoding %#v: %v", v, err)
		}
		var m wire.Message
		if err := msgpackrpc.New(bytes.NewReader(b)).ReadMessage(&m); err != nil {
			t.Fatalf("reading back % x: %v", b, err)
		}
		var again any
		if err := c.Unmarshal(m.Result, &again); err != nil {
			t.Fatalf("Unmarshal(% x): %v", m.Result, err)
		}
		if !hasNaN(v) && !reflect.DeepEqual(v, again) {
			t.Fatalf("round trip of % x: %#v -> % x -> %#v", data, v, m.Result, again)
		}
	})
}

// completeValue returns the first msgpack value in data, or nil if there is
// none or it holds an extension value.
func completeValue(data []byte) wire.Raw {
	br := bytes.NewReader(data)
	if !skipNoExt(msgpack.NewDecoder(br)) {
		return nil
	}
	return wire.Raw(data[:len(data)-br.Len()])
}

// skipNoExt skips one value that holds no extension value. The msgpack
// library reads the payload of an extension value as a map or list header
// when it decodes one into a map or slice, and then trusts the length it
// finds there when it allocates; Neovim's extension values (Buffer, Window,
// Tabpage) hold only a small Number.
func skipNoExt(d *msgpack.Decoder) bool {
	c, err := d.PeekCode()
	if err != nil {
		return false
	}
	switch {
	case msgpcode.IsExt(c):
		return false
	case msgpcode.IsFixedArray(c) || c == msgpcode.Array16 || c == msgpcode.Array32:
		n, err := d.DecodeArrayLen()
		if err != nil {
			return false
		}
		for i := 0; i < n; i++ {
			if !skipNoExt(d) {
				return false
			}
		}
		return true
	case msgpcode.IsFixedMap(c) || c == msgpcode.Map16 || c == msgpcode.Map32:
		n, err := d.DecodeMapLen()
		if err != nil {
			return false
		}
		for i := 0; i < 2*n; i++ {
			if !skipNoExt(d) {
				return false
			}
		}
		return true
	}
	return d.Skip() == nil
}

// plain reports whether v holds only the types that Unmarshal documents for
// *any (so no extension values).
func plain(v any) bool {
	switch x := v.(type) {
	case nil, bool, int64, uint64, float64, string:
		return true
	case []any:
		for _, e := range x {
			if !plain(e) {
				return false
			}
		}
		return true
	case map[string]any:
		for _, e := range x {
			if !plain(e) {
				return false
			}
		}
		return true
	}
	return false
}

func hasNaN(v any) bool {
	found := false
	var walk func(reflect.Value)
	walk = func(rv reflect.Value) {
		switch rv.Kind() {
		case reflect.Float32, reflect.Float64:
			found = found || math.IsNaN(rv.Float())
		case reflect.Interface, reflect.Pointer:
			if !rv.IsNil() {
				walk(rv.Elem())
			}
		case reflect.Slice, reflect.Array:
			for i := 0; i < rv.Len(); i++ {
				walk(rv.Index(i))
			}
		case reflect.Map:
			for _, k := range rv.MapKeys() {
				walk(rv.MapIndex(k))
			}
		case reflect.Struct:
			for i := 0; i < rv.NumField(); i++ {
				if rv.Type().Field(i).IsExported() {
					walk(rv.Field(i))
				}
			}
		}
	}
	walk(reflect.ValueOf(v))
	return found
}
