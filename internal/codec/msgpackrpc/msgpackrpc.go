// Package msgpackrpc is the codec for Neovim's msgpack-RPC channel
// (":help msgpack-rpc"):
//
//	[0, msgid, method, params]   request
//	[1, msgid, error, result]    response
//	[2, method, params]          notification
//
// It frames these messages and encodes and decodes values, and knows
// nothing of what the methods mean: Vigor's protocol on top of it (how
// vigor#request() travels and is answered) is internal/host's.
//
// Go structs use their `json` field tags, so that one struct definition
// works the same on Vim and Neovim.
package msgpackrpc

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"reflect"
	"sync"

	"github.com/vmihailenco/msgpack/v5"
	"github.com/vmihailenco/msgpack/v5/msgpcode"

	"github.com/vigorvim/vigor/internal/wire"
)

// Codec reads and writes msgpack-RPC messages. It knows the three
// message types and how values are encoded, nothing of what the methods
// mean: the editor's protocol on top of it (Vigor's requests and their
// replies) is internal/host's.
type Codec struct {
	br  *bufio.Reader
	dec *msgpack.Decoder
	enc *msgpack.Encoder
	out sliceWriter

	frame bytes.Reader     // the message that ReadMessage is parsing
	fdec  *msgpack.Decoder // reads frame

	values sync.Pool // *valueDecoder, for Unmarshal from any goroutine
	slab   wire.Slab // the frames read
}

type valueDecoder struct {
	r bytes.Reader
	d *msgpack.Decoder
}

// New returns a codec that reads messages from r.
func New(r io.Reader) *Codec { return NewSize(r, 64<<10) }

// NewSize is New with a read buffer of size bytes. Messages that fit in the
// buffer are read fastest (readFrame).
func NewSize(r io.Reader, size int) *Codec {
	c := &Codec{}
	c.br = bufio.NewReaderSize(r, size)
	c.dec = msgpack.NewDecoder(c.br)
	c.fdec = msgpack.NewDecoder(&c.frame)
	c.enc = msgpack.NewEncoder(&c.out)
	c.enc.SetCustomStructTag("json")
	c.enc.UseCompactInts(true)
	c.values.New = func() any {
		v := &valueDecoder{}
		v.d = newValueDecoder(&v.r)
		return v
	}
	return c
}

func newValueDecoder(r io.Reader) *msgpack.Decoder {
	d := msgpack.NewDecoder(r)
	d.SetCustomStructTag("json")
	// Not the loose mode: it turns binary (a Blob) into a string. fixInts
	// widens the sized integers that the strict mode returns.
	return d
}

var _ wire.Codec = (*Codec)(nil)

// sliceWriter lets the encoder append to a caller's slice.
type sliceWriter struct{ b []byte }

// drop lets the slice go once the caller has it: the codec keeps no
// buffer between messages (after a large one it would stay in memory).
func (w *sliceWriter) drop() { w.b = nil }

func (w *sliceWriter) Write(p []byte) (int, error) { w.b = append(w.b, p...); return len(p), nil }
func (w *sliceWriter) WriteByte(c byte) error      { w.b = append(w.b, c); return nil }
func (w *sliceWriter) WriteString(s string) (int, error) {
	w.b = append(w.b, s...)
	return len(s), nil
}

// Buffered returns how many bytes were read from the stream but not yet
// decoded.
func (c *Codec) Buffered() int { return c.br.Buffered() }

// ReadMessage implements wire.Codec. It reads the whole message before it
// looks at it, so that a message of the wrong shape is skipped whole and the
// stream stays in step; only bytes that are not msgpack at all break it.
func (c *Codec) ReadMessage(m *wire.Message) error {
	m.Reset()
	frame, err := c.readFrame()
	if err != nil {
		return err
	}
	if parseResponse(m, frame) {
		return nil
	}
	c.frame.Reset(frame)
	c.fdec.ResetReader(&c.frame)
	err = c.parse(m, frame)
	c.frame.Reset(nil)
	return err
}

// parseResponse parses frame as parse does when it is a response
// ([1, id, error, result]), without the decoder: the reply of a call, the
// commonest message, then costs no decoder calls. It returns false for
// anything else, or anything it does not read whole, which parse then
// reads (and makes the errors of).
func parseResponse(m *wire.Message, frame []byte) bool {
	if len(frame) < 5 || frame[0] != 0x94 || frame[1] != 0x01 {
		return false
	}
	idEnd, items, err := header(frame, 2)
	if err != nil || items != 0 {
		return false
	}
	id, ok := fastInt(frame[2:idEnd])
	if !ok {
		return false
	}
	errEnd, err := skip(frame, idEnd)
	if err != nil {
		return false
	}
	end, err := skip(frame, errEnd)
	if err != nil || end != len(frame) {
		return false
	}
	m.Kind, m.ID = wire.Response, id
	if errEnd != idEnd+1 || frame[idEnd] != 0xc0 {
		m.Error = wire.Raw(frame[idEnd:errEnd:errEnd])
	}
	m.Result = wire.Raw(frame[errEnd:end:end])
	return true
}

// readFrame reads the next message's bytes. A message is found by skip,
// without the decoder, which reads a value one item at a time through
// io.Reader calls (10 µs for a 1000-call batch's results): in the read
// buffer when it fits there whole (as replies and requests mostly do), by
// readLong when it is longer. Bytes that skip does not accept go to the
// decoder, which makes the errors.
func (c *Codec) readFrame() ([]byte, error) {
	for {
		n := c.br.Buffered()
		if n == 0 {
			if _, err := c.br.Peek(1); err != nil {
				return nil, err
			}
			continue
		}
		buf, _ := c.br.Peek(n)
		end, err := skip(buf, 0)
		if err == errTooDeep {
			end, err = findDeep(buf, 0)
		}
		if err == nil {
			frame := c.slab.Clone(buf[:end])
			_, _ = c.br.Discard(end)
			return frame, nil
		}
		if err != errCutShort {
			return c.dec.DecodeRaw()
		}
		if end > c.br.Size() {
			return c.readLong(end)
		}
		// The rest of the message is on its way: wait for the end bytes it
		// needs at least, then look again.
		if _, err := c.br.Peek(end); err != nil {
			return c.dec.DecodeRaw()
		}
	}
}

// readLong reads a message longer than the read buffer, of need bytes at
// least. It takes bytes from the stream only up to what the message needs
// at least, so none of the next message's, and looks again with skip each
// time it has them.
func (c *Codec) readLong(need int) ([]byte, error) {
	frame := make([]byte, 0, 2*c.br.Size())
	var s scanner
	for {
		for len(frame) < need {
			if len(frame) == cap(frame) {
				// Doubling, not to need: a claimed length is not yet bytes.
				grown := make([]byte, len(frame), 2*cap(frame))
				copy(grown, frame)
				frame = grown
			}
			// Past the buffered bytes, bufio reads straight into frame.
			n, err := c.br.Read(frame[len(frame):min(need, cap(frame))])
			frame = frame[:len(frame)+n]
			if err != nil {
				if err == io.EOF {
					err = io.ErrUnexpectedEOF
				}
				return nil, err
			}
		}
		end, err := s.scan(frame)
		if err == nil {
			return frame, nil
		}
		if err != errCutShort {
			// Part of the message is read: the stream cannot go on, so the
			// error must not claim to be ErrMalformed.
			return nil, fmt.Errorf("a message cannot be read: %v", err)
		}
		need = end // more than len(frame)
	}
}

func (c *Codec) parse(m *wire.Message, frame []byte) error {
	d := c.fdec
	n, err := d.DecodeArrayLen()
	if err != nil {
		return fmt.Errorf("%w: a %s is not a msgpack-RPC message", wire.ErrMalformed, TypeName(frame))
	}
	if n < 3 || n > 4 {
		return fmt.Errorf("%w: an array of %d items is not a msgpack-RPC message", wire.ErrMalformed, n)
	}
	typ, err := d.DecodeInt()
	if err != nil {
		return fmt.Errorf("%w: the message type is not a Number", wire.ErrMalformed)
	}
	switch {
	case typ == 0 && n == 4:
		id, err := d.DecodeInt64()
		if err != nil {
			return fmt.Errorf("%w: the id of a request is not a Number", wire.ErrMalformed)
		}
		m.Kind, m.ID = wire.Request, id
		if m.Method, err = d.DecodeString(); err != nil {
			return fmt.Errorf("%w: the method name of request %d is not a String", wire.ErrMalformed, id)
		}
		return c.readParams(m, frame)
	case typ == 1 && n == 4:
		id, err := d.DecodeInt64()
		if err != nil {
			return fmt.Errorf("%w: the id of a response is not a Number", wire.ErrMalformed)
		}
		m.Kind, m.ID = wire.Response, id
		code, err := d.PeekCode()
		if err != nil {
			return err
		}
		if code == msgpcode.Nil {
			_ = d.Skip()
		} else if m.Error, err = c.item(frame); err != nil {
			return err
		}
		m.Result, err = c.item(frame)
		return err
	case typ == 2 && n == 3:
		m.Kind = wire.Notification
		if m.Method, err = d.DecodeString(); err != nil {
			return fmt.Errorf("%w: the method name of a notification is not a String", wire.ErrMalformed)
		}
		return c.readParams(m, frame)
	}
	return fmt.Errorf("%w: message type %d with %d items", wire.ErrMalformed, typ, n)
}

func (c *Codec) readParams(m *wire.Message, frame []byte) error {
	n, err := c.fdec.DecodeArrayLen()
	if err != nil {
		return fmt.Errorf("%w: the params of %q are not a List", wire.ErrMalformed, m.Method)
	}
	for i := 0; i < n; i++ {
		r, err := c.item(frame)
		if err != nil {
			return err
		}
		m.Params = append(m.Params, r)
	}
	return nil
}

// item returns the next value of frame, without copying it.
func (c *Codec) item(frame []byte) (wire.Raw, error) {
	start := len(frame) - c.frame.Len()
	end, err := skip(frame, start)
	if err == errTooDeep {
		end, err = findDeep(frame, start)
	}
	if err != nil {
		// The frame is a whole msgpack object: this does not happen.
		return nil, err
	}
	_, _ = c.frame.Seek(int64(end), io.SeekStart)
	return wire.Raw(frame[start:end:end]), nil
}

// MaxMessageDepth is how deeply Neovim reads values nested in a message
// (libmpack's MPACK_MAX_OBJECT_DEPTH): the message's own array is level
// 1, its items level 2, and so on. A String with bytes, or a List or Dict
// with items, may lie at level 32 at most; a value without parts (a
// Number, a Float, a Boolean, nil, an empty String, List or Dict) at
// level 33, one deeper: each part takes a level of its own in Neovim's
// parser. Given more, Neovim closes the channel without a word, which
// fails every call under way; e2e TestValuesTooDeep checks the limit at
// its boundary on the real editor. So a value that is an item of an
// argument of a notification ([2, method, [arg, [value, ...]]], as
// internal/host answers a request of Vigor's runtime) sits at level 4 and
// holds Lists and Dicts 28 deep around Strings, 29 around Numbers; an
// item of a plain response ([1, id, nil, [value, nil]]) sits at level 3
// (one more). An
// argument of nvim_call_function, at level 4, nests as deep as such a
// result, and one of a batch, at AtomicArgLevel, 25 (26).
const MaxMessageDepth = 32

// AppendRequest implements wire.Codec.
func (c *Codec) AppendRequest(b []byte, id int64, method string, params []any) ([]byte, error) {
	defer c.out.drop()
	c.out.b = b
	e := c.enc
	err := firstErr(e.EncodeArrayLen(4), e.EncodeInt(0), e.EncodeInt(id), e.EncodeString(method))
	if err == nil {
		err = c.encodeParams(params)
	}
	return c.out.b, err
}

// AppendNotification implements wire.Codec.
func (c *Codec) AppendNotification(b []byte, method string, params []any) ([]byte, error) {
	defer c.out.drop()
	c.out.b = b
	e := c.enc
	err := firstErr(e.EncodeArrayLen(3), e.EncodeInt(2), e.EncodeString(method))
	if err == nil {
		err = c.encodeParams(params)
	}
	return c.out.b, err
}

// AppendResponse implements wire.Codec.
func (c *Codec) AppendResponse(b []byte, id int64, result any) ([]byte, error) {
	defer c.out.drop()
	c.out.b = b
	e := c.enc
	const level = 2 // the result in [1, id, nil, result]
	err := firstErr(e.EncodeArrayLen(4), e.EncodeInt(1), e.EncodeInt(id), e.EncodeNil())
	if err != nil {
		return c.out.b, err
	}
	if f, ok := result.(wire.Fallible); ok {
		start := len(c.out.b)
		if err = c.encodeValue(f.Value(), level); err != nil {
			c.out.b = c.out.b[:start]
			err = c.encodeValue(f.Fallback(err), level)
		}
		return c.out.b, err
	}
	return c.out.b, c.encodeValue(result, level)
}

// AppendValue appends v, a value that lies at level of a message whose
// head the caller wrote (with AppendArrayLen, AppendString and
// AppendInt), at most MaxMessageDepth. A value that the editor cannot
// take is a *wire.ValueError, and b may then hold part of it.
func (c *Codec) AppendValue(b []byte, v any, level int) ([]byte, error) {
	defer c.out.drop()
	c.out.b = b
	if level > MaxMessageDepth {
		return b, tooDeep()
	}
	err := c.encodeValue(v, level)
	return c.out.b, err
}

// AppendString appends the msgpack String s.
func AppendString(b []byte, s string) []byte { return appendStr(b, s) }

// AppendInt appends the msgpack integer n, in its shortest form.
func AppendInt(b []byte, n int64) []byte {
	switch {
	case n >= 0 && n <= 0x7f:
		return append(b, byte(n))
	case n < 0 && n >= -32:
		return append(b, byte(n))
	}
	return binary.BigEndian.AppendUint64(append(b, 0xd3), uint64(n))
}

// FuncCall is the params [Fn, Args] of nvim_call_function, for a
// message whose params are the one value *FuncCall: the codec writes
// them as it writes []any{Fn, Args}, and the caller boxes neither the
// name nor the arguments (a *FuncCall is an any without an allocation).
type FuncCall struct {
	Fn   string
	Args []any
}

// encodeParams writes the params of a request or notification.
func (c *Codec) encodeParams(params []any) error {
	if len(params) == 1 {
		if fc, ok := params[0].(*FuncCall); ok {
			return c.encodeFuncCall(fc)
		}
	}
	return c.encodeList(params, 2)
}

// encodeFuncCall is encodeList(params, 2) for the params []any{fc.Fn,
// fc.Args}: the same bytes, limits and errors.
func (c *Codec) encodeFuncCall(fc *FuncCall) error {
	const level = 2
	if err := c.enc.EncodeArrayLen(2); err != nil {
		return err
	}
	if err := c.enc.EncodeString(fc.Fn); err != nil {
		return atIndex(err, 0, level)
	}
	// A nil Args is an empty List, as a nil slice is (encodeValue).
	return atIndex(c.encodeList(fc.Args, level+1), 1, level)
}

// encodeList writes xs, a List at level (MaxMessageDepth). Its items are
// at level+1: checking here spares the check of each String.
func (c *Codec) encodeList(xs []any, level int) error {
	if level > MaxMessageDepth+1 || len(xs) > 0 && level > MaxMessageDepth {
		return tooDeep()
	}
	if level == MaxMessageDepth {
		// The items lie at the deepest level, which takes no String with
		// bytes (Lists have their own check, the rest checkEncoded).
		for i, x := range xs {
			if s, ok := x.(string); ok && s != "" {
				return atIndex(tooDeep(), i, level)
			}
		}
	}
	if err := c.enc.EncodeArrayLen(len(xs)); err != nil {
		return err
	}
	for i, x := range xs {
		if err := c.encodeValue(x, level+1); err != nil {
			return atIndex(err, i, level)
		}
	}
	return nil
}

// encodeValue writes v, a value at level (MaxMessageDepth). What the
// encoder writes is checked afterwards (checkEncoded).
func (c *Codec) encodeValue(v any, level int) error {
	switch x := v.(type) {
	case string: // at a level that encodeList checked
		return c.enc.EncodeString(x)
	case wire.Raw:
		// From the editor, so a Number and its map keys are right; a value
		// of n bytes nests n levels at most.
		if level+len(x)-1 > MaxMessageDepth {
			if err := checkEncoded(x, level); err != nil {
				return err
			}
		}
		_, err := c.out.Write(x)
		return err
	case wire.Appender:
		var err error
		c.out.b, err = x(c.out.b)
		return err
	case []any: // nil is an empty List, as every nil slice but a []byte (encode)
		return c.encodeList(x, level)
	}
	return c.encodeOther(v, level)
}

// encodeOther is encodeValue for the values that the encoder writes. (A
// switch of its own: more cases in encodeValue's slowed down every String
// and List; BENCHMARKS.md, "Codecs, and the checks of values".)
func (c *Codec) encodeOther(v any, level int) error {
	switch x := v.(type) {
	case uint64:
		if x > math.MaxInt64 {
			return uintError(x)
		}
	case uint:
		if uint64(x) > math.MaxInt64 {
			return uintError(uint64(x))
		}
	case uintptr: // which the encoder does not take
		if uint64(x) > math.MaxInt64 {
			return uintError(uint64(x))
		}
		return c.enc.EncodeUint(uint64(x))
	}
	start := len(c.out.b)
	if err := encode(c.enc, v); err != nil {
		return err
	}
	return checkEncoded(c.out.b[start:], level)
}

// encode writes v with the encoder, whose errors (and panics: it has some,
// for a uintptr say) become a *wire.ValueError.
//
// A nil slice is an empty List, so that a function that takes a List gets
// one; a nil []byte, map or pointer is nil. (The encoder writes nil for a
// nil slice: one inside a Dict or a struct, which it encodes itself, stays
// nil.)
func encode(e *msgpack.Encoder, v any) (err error) {
	if nilList(v) {
		return e.EncodeArrayLen(0)
	}
	defer func() {
		if r := recover(); r != nil {
			err = &wire.ValueError{Msg: fmt.Sprintf("a %T cannot be sent to the editor", v), Detail: fmt.Errorf("msgpack: %v", r)}
		}
	}()
	if err := e.Encode(v); err != nil {
		return &wire.ValueError{Msg: fmt.Sprintf("a %T cannot be sent to the editor", v), Detail: err}
	}
	return nil
}

// checkEncoded checks a value that the encoder wrote, r, at level of a
// message: that Neovim can read it (MaxMessageDepth), that its integers fit
// in a Number (the encoder writes a Go uint64 above math.MaxInt64 as
// msgpack's uint 64, which Neovim reads as a negative Number), and that
// its maps have String keys (Neovim closes the channel for others). It
// looks at each object's header once, so a long String costs no more than
// a short one.
func checkEncoded(r []byte, level int) error {
	type open struct {
		left  int  // items still to come
		isMap bool // its items are keys and values in turn
	}
	var stack [MaxMessageDepth + 1]open
	n := 0 // open Lists and Dicts
	for i := 0; i < len(r); {
		c := r[i]
		end, items, err := header(r, i)
		if err != nil {
			return &wire.ValueError{Msg: "the encoder wrote a value that cannot be read", Detail: err}
		}
		if d := level + n; d > MaxMessageDepth && (d > MaxMessageDepth+1 || items > 0 || hasBytes(r, i, end)) {
			return tooDeep()
		}
		if n > 0 && stack[n-1].isMap && stack[n-1].left%2 == 0 && !isStr(c) {
			return &wire.ValueError{Msg: "Dict keys must be Strings"}
		}
		if c == 0xcf {
			if u := binary.BigEndian.Uint64(r[i+1:]); u > math.MaxInt64 {
				return uintError(u)
			}
		}
		i = end
		if n > 0 {
			stack[n-1].left--
		}
		if items > 0 {
			stack[n] = open{left: items, isMap: isMap(c)}
			n++
		}
		for n > 0 && stack[n-1].left == 0 {
			n--
		}
		if n == 0 {
			break
		}
	}
	return nil
}

// hasBytes reports whether the object at r[i:end] is a str, bin or ext
// with a payload, which Neovim's parser reads a level deeper than the
// object (MaxMessageDepth).
func hasBytes(r []byte, i, end int) bool {
	switch c := r[i]; {
	case c >= 0xa1 && c <= 0xbf:
		return true
	case c == 0xd9 || c == 0xc4:
		return end > i+2
	case c == 0xda || c == 0xc5:
		return end > i+3
	case c == 0xdb || c == 0xc6:
		return end > i+5
	case c >= 0xd4 && c <= 0xd8 || c >= 0xc7 && c <= 0xc9:
		return true
	}
	return false
}

// isStr reports whether c starts a msgpack str.
func isStr(c byte) bool { return c >= 0xa0 && c <= 0xbf || c == 0xd9 || c == 0xda || c == 0xdb }

// tooDeep is the error for a value nested deeper than Neovim reads. (Not
// inlined, as atIndex: the error paths kept in encodeList made it slower.)
//
//go:noinline
func tooDeep() error {
	return &wire.ValueError{
		Msg:     fmt.Sprintf("Lists and Dicts nested too deep, more than Neovim reads (%d levels in a message)", MaxMessageDepth),
		DeepMsg: "Lists and Dicts nested more than %d deep, more than Neovim reads (one more if the innermost hold no Strings)",
	}
}

// uintError is the error for an unsigned integer that is not a Number.
func uintError(n uint64) error {
	return &wire.ValueError{Msg: fmt.Sprintf("%d does not fit in a Number (at most %d)", n, int64(math.MaxInt64))}
}

// atIndex records in err, if it is a *wire.ValueError, that it is in item
// i of a List at level.
//
//go:noinline
func atIndex(err error, i, level int) error {
	if ve, ok := err.(*wire.ValueError); ok {
		ve.In(i, level-2, MaxMessageDepth-level-1)
	}
	return err
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// Unmarshal implements wire.Codec; it is safe for concurrent use. Into *any, integers become int64,
// floats float64, arrays []any, maps map[string]any and binary []byte.
func (c *Codec) Unmarshal(r wire.Raw, v any) error {
	if unmarshalFast(r, v) {
		return nil
	}
	if len(r) > wire.MaxDepth { // a value of n bytes nests n levels at most
		if err := checkDepth(r); err != nil {
			return err
		}
	}
	vd := c.values.Get().(*valueDecoder)
	vd.r.Reset(r)
	vd.d.ResetReader(&vd.r)
	err := decode(vd.d, v)
	vd.r.Reset(nil)
	// The decoder keeps the buffer that it read the largest String or
	// Blob into: after a large value it is not kept for the next.
	if len(r) <= maxPooledValue {
		c.values.Put(vd)
	}
	return err
}

// UnmarshalAny decodes r as Unmarshal does into an empty *any, and
// returns the value: a scalar allocates nothing for the result's place,
// which a pointer given to Unmarshal through an interface does (it
// escapes).
func (c *Codec) UnmarshalAny(r wire.Raw) (any, error) {
	if x, ok := fastScalar(r); ok {
		return x, nil
	}
	var v any
	err := c.Unmarshal(r, &v)
	return v, err
}

// maxPooledValue is the size of the largest value whose decoder goes
// back to the pool.
const maxPooledValue = 1 << 20

// Unmarshal decodes a msgpack value with the codec's settings. It is safe
// for concurrent use.
func Unmarshal(r wire.Raw, v any) error {
	if unmarshalFast(r, v) {
		return nil
	}
	if len(r) > wire.MaxDepth { // a value of n bytes nests n levels at most
		if err := checkDepth(r); err != nil {
			return err
		}
	}
	d := newValueDecoder(bytes.NewReader(r))
	return decode(d, v)
}

// checkDepth refuses a value that nests Lists and Dicts more than
// wire.MaxDepth deep, as encoding/json does for Vim ([[1]] nests 2 deep):
// the decoder has no limit of its own. Such a value is longer than
// wire.MaxDepth bytes, so callers look only at longer ones.
func checkDepth(r []byte) error {
	var left []int // items still to come in each open List or Dict
	for i := 0; i < len(r); {
		c := r[i]
		end, items, err := header(r, i)
		if err != nil {
			return nil // the decoder makes the error
		}
		if isList(c) || isMap(c) {
			if len(left) >= wire.MaxDepth {
				return wire.ErrTooDeep
			}
		}
		i = end
		if len(left) > 0 {
			left[len(left)-1]--
		}
		if items > 0 {
			left = append(left, items)
		}
		for len(left) > 0 && left[len(left)-1] == 0 {
			left = left[:len(left)-1]
		}
		if len(left) == 0 {
			return nil
		}
	}
	return nil
}

func isList(c byte) bool { return c>>4 == 0x9 || c == 0xdc || c == 0xdd }
func isMap(c byte) bool  { return c>>4 == 0x8 || c == 0xde || c == 0xdf }

// decode decodes into v. The sized integers that the decoder returns
// (Neovim uses msgpack's uint formats for every Number >= 0) become int64,
// as documented: into an empty *any, and inside
// interface values ([]any, a struct field of type any), as the vimjson codec
// does.
func decode(d *msgpack.Decoder, v any) error {
	if p, ok := v.(*any); ok && *p == nil {
		x, err := d.DecodeInterface()
		if err != nil {
			return err
		}
		*p = fixInts(x)
		return nil
	}
	if err := d.Decode(v); err != nil {
		return err
	}
	wire.FixInterfaces(v, fixInts)
	return nil
}

func fixInts(x any) any {
	switch v := x.(type) {
	case int8:
		return int64(v)
	case int16:
		return int64(v)
	case int32:
		return int64(v)
	case int:
		return int64(v)
	case uint8:
		return int64(v)
	case uint16:
		return int64(v)
	case uint32:
		return int64(v)
	case uint:
		if uint64(v) <= math.MaxInt64 {
			return int64(v)
		}
	case float32:
		return float64(v)
	case uint64:
		if v <= math.MaxInt64 {
			return int64(v)
		}
	case []any:
		for i := range v {
			v[i] = fixInts(v[i])
		}
	case map[string]any:
		for k, e := range v {
			v[k] = fixInts(e)
		}
	}
	return x
}

func fastString(r []byte) (string, bool) {
	if len(r) == 0 {
		return "", false
	}
	c := r[0]
	switch {
	case c >= 0xa0 && c <= 0xbf:
		n := int(c & 0x1f)
		if len(r) == 1+n {
			return string(r[1:]), true
		}
	case c == 0xd9 && len(r) >= 2:
		n := int(r[1])
		if len(r) == 2+n {
			return string(r[2:]), true
		}
	case c == 0xda && len(r) >= 3:
		n := int(r[1])<<8 | int(r[2])
		if len(r) == 3+n {
			return string(r[3:]), true
		}
	}
	return "", false
}

// TypeName implements wire.Codec.
func (c *Codec) TypeName(r wire.Raw) string { return TypeName(r) }

// IsNull implements wire.Codec: msgpack's nil.
func (c *Codec) IsNull(r wire.Raw) bool { return len(r) == 1 && r[0] == 0xc0 }

// TypeName names the Vim type of a msgpack value.
func TypeName(r wire.Raw) string {
	if len(r) == 0 {
		return "nothing"
	}
	c := r[0]
	switch {
	case c <= 0x7f || c >= 0xe0 || (c >= 0xcc && c <= 0xd3):
		return "Number"
	case c >= 0x80 && c <= 0x8f, c == 0xde, c == 0xdf:
		return "Dict"
	case c >= 0x90 && c <= 0x9f, c == 0xdc, c == 0xdd:
		return "List"
	case c >= 0xa0 && c <= 0xbf, c == 0xd9, c == 0xda, c == 0xdb:
		return "String"
	case c == 0xc0:
		return "v:null"
	case c == 0xc2, c == 0xc3:
		return "Boolean"
	case c == 0xc4, c == 0xc5, c == 0xc6:
		return "Blob"
	case c == 0xca, c == 0xcb:
		return "Float"
	}
	return "extension value"
}

// SplitList implements wire.Codec. The items are slices of r.
func (c *Codec) SplitList(r wire.Raw) ([]wire.Raw, error) {
	n, i, err := arrayHeader(r)
	if err != nil || n < 0 {
		return nil, err
	}
	if n > len(r)-i {
		return nil, fmt.Errorf("%w: a List of %d items in %d bytes", wire.ErrMalformed, n, len(r))
	}
	out := make([]wire.Raw, n)
	for k := range out {
		end, err := skip(r, i)
		if err != nil {
			if err != errTooDeep {
				return nil, err
			}
			if end, err = findDeep(r, i); err != nil {
				return nil, err
			}
		}
		out[k] = r[i:end:end]
		i = end
	}
	return out, nil
}

// arrayHeader reads the header of the array at the start of r: its
// length (-1 for nil) and where its items start.
func arrayHeader(r []byte) (n, i int, err error) {
	if len(r) == 0 {
		return 0, 0, fmt.Errorf("%w: an empty value is not a List", wire.ErrMalformed)
	}
	switch c := r[0]; {
	case c >= 0x90 && c <= 0x9f:
		return int(c & 0x0f), 1, nil
	case c == 0xc0:
		return -1, 1, nil
	case c == 0xdc && len(r) >= 3:
		return int(binary.BigEndian.Uint16(r[1:])), 3, nil
	case c == 0xdd && len(r) >= 5:
		return int(binary.BigEndian.Uint32(r[1:])), 5, nil
	}
	return 0, 0, fmt.Errorf("%w: a %s is not a List", wire.ErrMalformed, TypeName(r))
}

// errCutShort is skip's error for bytes that end inside a value. skip then
// returns how long the bytes must be at least for the value to end.
var errCutShort = fmt.Errorf("%w: a value is cut short", wire.ErrMalformed)

// maxDepth bounds the nesting that skip follows: it recurses.
const maxDepth = 10000

// errTooDeep is skip's error for an object nested deeper than maxDepth.
var errTooDeep = fmt.Errorf("%w: values nested too deep", wire.ErrMalformed)

// findDeep returns where the msgpack object that starts at r[i] ends, for
// one nested deeper than skip follows (errTooDeep): the scanner follows
// any depth (it keeps its place in a slice, not on the stack). A value
// nested too deep is refused where it is decoded (Unmarshal), so that the
// message around it is read and answered. Callers call skip first: it is
// faster, and inlined.
//
//go:noinline
func findDeep(r []byte, i int) (int, error) {
	s := scanner{pos: i}
	return s.scan(r)
}

// skip returns where the msgpack object that starts at r[i] ends.
// When r ends first, the error is errCutShort and the int is how long r
// must be at least.
func skip(r []byte, i int) (int, error) { return skipIn(r, i, 0) }

func skipIn(r []byte, i, depth int) (int, error) {
	if depth > maxDepth {
		return 0, errTooDeep
	}
	end, items, err := header(r, i)
	if err != nil {
		return end, err
	}
	for ; items > 0; items-- {
		if end < len(r) {
			if oneByte(r[end]) {
				end++ // a batch's results mostly are
				continue
			}
		}
		e, err := skipIn(r, end, depth+1)
		if err == errCutShort {
			return e + items - 1, err // each item still to come takes a byte at least
		}
		if err != nil {
			return 0, err
		}
		end = e
	}
	return end, nil
}

// scanner does what skip does for a message that arrives in pieces
// (readLong): it stops where its bytes end and goes on when more have
// come, so that it looks at each byte once, not once per piece.
type scanner struct {
	pos     int   // where the next item starts
	left    []int // items still to come in each open List or Dict
	started bool
}

// scan goes on over r, which holds the bytes scanned before and maybe more,
// and returns where the object ends. When r ends first, the error is
// errCutShort and the int is how long r must be at least.
func (s *scanner) scan(r []byte) (int, error) {
	for !s.started || len(s.left) > 0 {
		i := s.pos
		if len(s.left) > 0 && i < len(r) {
			if oneByte(r[i]) {
				s.pos++ // a batch's results mostly are
				s.done()
				continue
			}
		}
		end, items, err := header(r, i)
		if err == errCutShort {
			// Each item still to come takes a byte at least.
			for k, n := range s.left {
				if k == len(s.left)-1 {
					n-- // the item cut short
				}
				end += n
			}
			return end, err
		}
		if err != nil {
			return 0, err
		}
		s.started = true
		s.pos = end
		if len(s.left) > 0 {
			s.left[len(s.left)-1]--
		}
		if items > 0 {
			s.left = append(s.left, items)
		}
		s.pop()
	}
	return s.pos, nil
}

// done counts an item read in the innermost open List or Dict.
func (s *scanner) done() {
	s.left[len(s.left)-1]--
	s.pop()
}

// pop closes the Lists and Dicts whose items have all come.
func (s *scanner) pop() {
	for len(s.left) > 0 && s.left[len(s.left)-1] == 0 {
		s.left = s.left[:len(s.left)-1]
	}
	s.started = true
}

// oneByte reports whether c is a whole msgpack object: a fixint, nil or a
// bool.
func oneByte(c byte) bool { return c <= 0x7f || c >= 0xe0 || c == 0xc0 || c == 0xc2 || c == 0xc3 }

// header reads the head of the msgpack object at r[i]: it returns where
// the object's own bytes end (its payload included) and how many objects
// follow as its items (a List's items, a Dict's keys and values).
func header(r []byte, i int) (end, items int, err error) {
	if i >= len(r) {
		return i + 1, 0, errCutShort
	}
	c := r[i]
	var size int // bytes of payload
	i++
	switch {
	case oneByte(c):
	case c >= 0xa0 && c <= 0xbf:
		size = int(c & 0x1f)
	case c >= 0x90 && c <= 0x9f:
		items = int(c & 0x0f)
	case c >= 0x80 && c <= 0x8f:
		items = 2 * int(c&0x0f)
	default:
		var lenBytes int
		switch c {
		case 0xcc, 0xd0:
			size = 1
		case 0xcd, 0xd1:
			size = 2
		case 0xca, 0xce, 0xd2:
			size = 4
		case 0xcb, 0xcf, 0xd3:
			size = 8
		case 0xd4:
			size = 2 // fixext 1: type and data
		case 0xd5:
			size = 3
		case 0xd6:
			size = 5
		case 0xd7:
			size = 9
		case 0xd8:
			size = 17
		case 0xc4, 0xd9, 0xc7:
			lenBytes = 1
		case 0xc5, 0xda, 0xc8, 0xdc, 0xde:
			lenBytes = 2
		case 0xc6, 0xdb, 0xc9, 0xdd, 0xdf:
			lenBytes = 4
		default:
			return 0, 0, fmt.Errorf("%w: unknown msgpack code 0x%02x", wire.ErrMalformed, c)
		}
		if lenBytes > 0 {
			if len(r)-i < lenBytes {
				return i + lenBytes, 0, errCutShort
			}
			var n uint64
			for _, b := range r[i : i+lenBytes] {
				n = n<<8 | uint64(b)
			}
			i += lenBytes
			if n > 1<<30 {
				return 0, 0, fmt.Errorf("%w: a value claims %d bytes", wire.ErrMalformed, n)
			}
			switch c {
			case 0xdc, 0xdd:
				items = int(n)
			case 0xde, 0xdf:
				items = 2 * int(n)
			case 0xc7, 0xc8, 0xc9:
				size = int(n) + 1 // ext: type byte and data
			default:
				size = int(n)
			}
		}
	}
	if len(r)-i < size {
		return i + size, 0, errCutShort
	}
	return i + size, items, nil
}

// AtomicArgLevel is the level (MaxMessageDepth) of the arguments of the
// calls in a request of nvim_call_atomic:
// [0, id, "nvim_call_atomic", [[["nvim_call_function", [fn, [arg...]]], ...]]].
const AtomicArgLevel = 7

// AppendArrayLen appends the header of a msgpack array of n items.
func AppendArrayLen(b []byte, n int) []byte { return appendArrayLen(b, n) }

// CallAppender appends the calls of a batch one at a time. Its zero
// value is ready; it keeps an encoder for the arguments that are not
// strings, made at the first of them, and no reference to b.
type CallAppender struct {
	w sliceWriter
	e *msgpack.Encoder
}

// AtomicCallPrefix is how a call of AppendCall with atomic set begins,
// before the [fn, args] that it appends without.
const AtomicCallPrefix = "\x92\xb2nvim_call_function"

// AppendCall appends a call of fn with args: ["nvim_call_function", [fn,
// args]] (an item of the argument of nvim_call_atomic) if atomic is set,
// else [fn, args]. Its arguments are at the level AtomicArgLevel. An
// argument that Neovim cannot take is a *wire.ValueError whose Path is
// the index of the argument; b may then hold part of the call.
func (a *CallAppender) AppendCall(b []byte, fn string, args []any, atomic bool) ([]byte, error) {
	// Headers and strings are appended by hand (most arguments are
	// strings); other values go through the encoder.
	if atomic {
		b = append(b, AtomicCallPrefix...)
	}
	b = append(b, 0x92)
	b = appendStr(b, fn)
	b = appendArrayLen(b, len(args))
	for k, v := range args {
		if s, ok := v.(string); ok {
			b = appendStr(b, s)
			continue
		}
		if a.e == nil {
			a.e = msgpack.NewEncoder(&a.w)
			a.e.SetCustomStructTag("json")
			a.e.UseCompactInts(true)
		}
		a.w.b = b
		start := len(b)
		err := encode(a.e, v)
		b = a.w.b
		a.w.drop()
		if err == nil {
			err = checkEncoded(b[start:], AtomicArgLevel)
		}
		if ve, ok := err.(*wire.ValueError); ok {
			return b, ve.In(k, 1, MaxMessageDepth-AtomicArgLevel)
		}
		if err != nil {
			return b, err
		}
	}
	return b, nil
}

// nilList reports whether v is a nil slice whose items are not bytes.
func nilList(v any) bool {
	switch x := v.(type) {
	case string, int, int64, bool, float64, map[string]any, []byte:
		return false
	case []string:
		return x == nil
	case []int:
		return x == nil
	case []map[string]any:
		return x == nil
	}
	rv := reflect.ValueOf(v)
	return rv.Kind() == reflect.Slice && rv.IsNil() && rv.Type().Elem().Kind() != reflect.Uint8
}

// appendArrayLen appends a msgpack array header.
func appendArrayLen(b []byte, n int) []byte {
	switch {
	case n < 16:
		return append(b, 0x90|byte(n))
	case n <= math.MaxUint16:
		return append(b, 0xdc, byte(n>>8), byte(n))
	}
	return append(b, 0xdd, byte(n>>24), byte(n>>16), byte(n>>8), byte(n))
}

// appendStr appends s as a msgpack str.
func appendStr(b []byte, s string) []byte {
	n := len(s)
	switch {
	case n < 32:
		b = append(b, 0xa0|byte(n))
	case n <= math.MaxUint8:
		b = append(b, 0xd9, byte(n))
	case n <= math.MaxUint16:
		b = append(b, 0xda, byte(n>>8), byte(n))
	default:
		b = append(b, 0xdb, byte(n>>24), byte(n>>16), byte(n>>8), byte(n))
	}
	return append(b, s...)
}

// unmarshalFast decodes r into v without a decoder when v is an empty *any
// and r a common scalar (fastScalar), v a *string and r a str, or v an
// *int64 or an *int and r an integer that it holds; it reports whether it
// did.
func unmarshalFast(r wire.Raw, v any) bool {
	switch p := v.(type) {
	case *any:
		if *p == nil {
			if x, ok := fastScalar(r); ok {
				*p = x
				return true
			}
		}
	case *string:
		if s, ok := fastString(r); ok {
			*p = s
			return true
		}
	case *int64:
		if n, ok := fastInt(r); ok {
			*p = n
			return true
		}
	case *int:
		if n, ok := fastInt(r); ok && int64(int(n)) == n {
			*p = int(n)
			return true
		}
	}
	return false
}

// fastScalar decodes the common scalars (nil, booleans, integers, floats
// and strings) as decode does into an empty *any, without a decoder: a
// batch decodes a thousand of them.
func fastScalar(r wire.Raw) (any, bool) {
	if len(r) == 0 {
		return nil, false
	}
	if n, ok := fastInt(r); ok {
		return n, true
	}
	c := r[0]
	switch {
	case c >= 0xa0 && c <= 0xbf, c == 0xd9, c == 0xda: // str
		if s, ok := fastString(r); ok {
			return s, true
		}
		return nil, false
	}
	switch c {
	case 0xc0:
		return nil, len(r) == 1
	case 0xc2:
		return false, len(r) == 1
	case 0xc3:
		return true, len(r) == 1
	case 0xcb:
		if len(r) == 9 {
			return math.Float64frombits(binary.BigEndian.Uint64(r[1:])), true
		}
	}
	return nil, false
}

// fastInt decodes r if it is one whole integer that an int64 holds.
func fastInt(r wire.Raw) (int64, bool) {
	if len(r) == 0 {
		return 0, false
	}
	c := r[0]
	switch {
	case c <= 0x7f: // positive fixint
		return int64(c), len(r) == 1
	case c >= 0xe0: // negative fixint
		return int64(int8(c)), len(r) == 1
	}
	switch c {
	case 0xcc:
		if len(r) == 2 {
			return int64(r[1]), true
		}
	case 0xcd:
		if len(r) == 3 {
			return int64(binary.BigEndian.Uint16(r[1:])), true
		}
	case 0xce:
		if len(r) == 5 {
			return int64(binary.BigEndian.Uint32(r[1:])), true
		}
	case 0xcf:
		if len(r) == 9 {
			if u := binary.BigEndian.Uint64(r[1:]); u <= math.MaxInt64 {
				return int64(u), true
			}
		}
	case 0xd0:
		if len(r) == 2 {
			return int64(int8(r[1])), true
		}
	case 0xd1:
		if len(r) == 3 {
			return int64(int16(binary.BigEndian.Uint16(r[1:]))), true
		}
	case 0xd2:
		if len(r) == 5 {
			return int64(int32(binary.BigEndian.Uint32(r[1:]))), true
		}
	case 0xd3:
		if len(r) == 9 {
			return int64(binary.BigEndian.Uint64(r[1:])), true
		}
	}
	return 0, false
}
