// Package vimjson is the codec for Vim's JSON channel mode (":help
// channel-use"). It frames messages the way Vim and Vigor's runtime do:
//
//	from Vim:  [id, [method, [params...]]]   a request (id > 0, sent with ch_sendraw)
//	           [0, [method, [params...]]]    a notification (sent with ch_sendraw)
//	           [-id, [result, null]]         the answer to our call number id
//	           [-id, [null, error]]          ... when the function failed
//	           [-id, "ERROR"]                ... when Vim could not run it
//	to Vim:    [0, [-id, func, [args...]]]   a call, which the runtime's channel
//	                                         callback runs and answers
//	           ["call", FuncCall, [func, [args...]], -id]
//	                                         a call as Vim's channel command
//	                                         (Transport.Command)
//	           ["call", func, [args...]]      a call without an answer (Vim's
//	                                         channel command)
//	           [id, result]                   the response to Vim's request id
//
// transport.go is the table of the ways calls reach Vim and of the tricks
// they take (see also autoload/vigor/_internal/api/vim.vim); a call too
// large for Vim to take in one piece goes in chunks. Our own request ids
// are negated on the wire, because Vim uses positive numbers for its own
// requests on the same channel.
//
// The codec frames and encodes; it does not know what the methods mean.
// How Vigor answers the runtime's vigor#request() (not with a response,
// which Vim can drop, but with a call of the runtime's reply function and
// a wake-up) is internal/host's.
//
// Values are mapped as Vim's json_encode and json_decode do, with two
// additions: a Go []byte is sent as a List of Numbers (Vim's form of a Blob in
// JSON), and a List of Numbers decodes into a Go []byte.
package vimjson

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/vigorvim/vigor/internal/wire"
)

// Codec reads and writes Vim JSON channel messages.
type Codec struct {
	// Transport is how calls reach Vim: it chooses the frame of a call
	// (transport.go). The answer is the same either way.
	Transport Transport

	// KeyPrefix starts the key of every chunked message. Vim's store of
	// messages received in part is shared by every plugin process, so the
	// SDK sets it to protocol.ChunkPrefix (the plugin's name and instance).
	KeyPrefix string

	br     *bufio.Reader
	chunks int       // chunked messages sent so far, for their keys
	slab   wire.Slab // the frames read
}

// New returns a codec that reads messages from r.
func New(r io.Reader) *Codec {
	return &Codec{br: bufio.NewReaderSize(r, 64<<10)}
}

// Buffered reports whether bytes of another message were read from the
// stream but not yet decoded: it returns 0 when what is left is white space
// (Vim ends each message with a newline) and 1 otherwise. The session calls
// it for every message.
func (c *Codec) Buffered() int {
	b, _ := c.br.Peek(c.br.Buffered())
	for _, ch := range b {
		if !isSpace(ch) {
			return 1
		}
	}
	return 0
}

func isSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\r' || c == '\t' }

var _ wire.Codec = (*Codec)(nil)

// ReadMessage implements wire.Codec.
func (c *Codec) ReadMessage(m *wire.Message) error {
	m.Reset()
	frame, err := c.readFrame()
	if err != nil {
		return err
	}
	idRaw, body, ok := splitPair(frame)
	if !ok {
		if items, err := SplitList(frame); err == nil {
			return fmt.Errorf("%w: Vim sent a list of %d items; a message is [id, value]", wire.ErrMalformed, len(items))
		}
		return fmt.Errorf("%w: Vim sent %s where a message list was expected", wire.ErrMalformed, describe(frame))
	}
	id, err := strconv.ParseInt(string(idRaw), 10, 64)
	if err != nil {
		return fmt.Errorf("%w: message id %.40s is not a Number", wire.ErrMalformed, idRaw)
	}
	if id < 0 {
		m.Kind = wire.Response
		m.ID = -id
		result, errVal, ok := splitPair(body)
		if !ok && string(bytes.TrimSpace(body)) == `"ERROR"` {
			// Vim's own answer when a "call" command fails outright.
			m.Error = wire.Raw(appendString(nil, "Vim could not answer: the result cannot be sent as JSON "+
				"(a Funcref, Job or Channel?), or Vigor's call helper is not on 'runtimepath'"))
			return nil
		}
		if !ok {
			// Fail the call rather than leave it waiting.
			msg := fmt.Sprintf("unexpected answer from Vim (want [result, error]): %.100s", body)
			m.Error = wire.Raw(appendString(nil, msg))
			return nil
		}
		if isNull(errVal) {
			m.Result = result
		} else {
			m.Error = errVal
		}
		return nil
	}
	if id == 0 {
		m.Kind = wire.Notification
	} else {
		m.Kind = wire.Request
		m.ID = id
	}
	method, params, ok := splitPair(body)
	if !ok {
		return fmt.Errorf("%w: the body of message %d is not [method, params]", wire.ErrMalformed, id)
	}
	if err := json.Unmarshal(method, &m.Method); err != nil {
		return fmt.Errorf("%w: the method name of message %d is not a String", wire.ErrMalformed, id)
	}
	if isNull(params) {
		return nil // as encoding/json reads null into a slice
	}
	if m.Params, err = SplitList(params); err != nil {
		return fmt.Errorf("%w: the params of %q are not a List", wire.ErrMalformed, m.Method)
	}
	return nil
}

// describe names the type of a frame that is not a message, for errors.
func describe(frame []byte) string {
	if _, ok := nonFiniteWord(string(frame)); !ok && !json.Valid(frame) {
		return fmt.Sprintf("%.40q, which is not JSON,", frame)
	}
	if t := TypeName(frame); t != "v:null" {
		return "a " + t
	}
	return "v:null"
}

// readFrame reads the next JSON value of the stream, whole, without
// decoding it: a hand scanner finds its end (frameScanner). Vim writes
// NaN and the infinities as bare words, which JSON lacks; the scanner
// passes them, so such a value fails only its own decoding, not the
// channel. Bytes that are not JSON are read as a frame of their own, which
// ReadMessage reports as malformed; only a value cut short by the end of
// the stream ends it (io.ErrUnexpectedEOF).
func (c *Codec) readFrame() ([]byte, error) {
	// The white space between messages.
	for {
		b, err := c.br.Peek(1)
		if err != nil {
			return nil, err
		}
		if !isSpace(b[0]) {
			break
		}
		b, _ = c.br.Peek(c.br.Buffered())
		_, _ = c.br.Discard(skipSpace(b, 0))
	}
	var s frameScanner
	var frame []byte // the bytes of earlier buffers, for a long message
	for {
		b, _ := c.br.Peek(c.br.Buffered())
		n, done := s.scan(b)
		if done {
			if frame == nil {
				frame = c.slab.Clone(b[:n])
			} else {
				frame = append(frame, b[:n]...)
			}
			_, _ = c.br.Discard(n)
			return frame, nil
		}
		frame = append(frame, b...)
		_, _ = c.br.Discard(len(b))
		if _, err := c.br.Peek(1); err != nil {
			if err == io.EOF {
				if s.scalar { // a bare word or number at the very end
					return frame, nil
				}
				err = io.ErrUnexpectedEOF
			}
			return nil, err
		}
	}
}

// frameScanner finds where a JSON value ends in a stream, one buffer at a
// time: its state carries over from one call of scan to the next.
type frameScanner struct {
	depth    int  // open Lists and Dicts
	inString bool // inside a String
	escaped  bool // after a backslash in a String
	scalar   bool // the value is a bare word or number
}

// scan goes on over b, the bytes that follow those it has seen, and
// returns how many of them belong to the value and whether the value ends
// there. The first byte it sees is not white space.
func (s *frameScanner) scan(b []byte) (n int, done bool) {
	for i := 0; i < len(b); i++ {
		if s.inString {
			if s.escaped {
				s.escaped = false
				continue
			}
			// Jump to the next quote or backslash.
			k := bytes.IndexAny(b[i:], `"\`)
			if k < 0 {
				return len(b), false
			}
			i += k
			if b[i] == '\\' {
				s.escaped = true
				continue
			}
			s.inString = false
			if s.depth == 0 {
				return i + 1, true
			}
			continue
		}
		c := b[i]
		if s.scalar {
			if isSpace(c) || strings.IndexByte(`[]{},":`, c) >= 0 {
				return i, true
			}
			continue
		}
		switch c {
		case '"':
			s.inString = true
		case '[', '{':
			s.depth++
		case ']', '}':
			if s.depth <= 1 {
				return i + 1, true // the value's end, or a stray bracket
			}
			s.depth--
		case ' ', '\t', '\r', '\n', ',', ':':
			if s.depth == 0 {
				return i + 1, true // a stray separator
			}
		default:
			if s.depth == 0 {
				s.scalar = true
			}
		}
	}
	return len(b), false
}

// AppendRequest implements wire.Codec: [0, [-id, method, params]], which
// the runtime's channel callback runs.
func (c *Codec) AppendRequest(b []byte, id int64, method string, params []any) ([]byte, error) {
	return c.appendCall(b, id, method, params)
}

// AppendNotification implements wire.Codec: a "call" command without id.
func (c *Codec) AppendNotification(b []byte, method string, params []any) ([]byte, error) {
	return c.appendCall(b, 0, method, params)
}

// appendCall writes a call: [0, [-id, method, params]] when id is not 0,
// else ["call", method, params]. A large one goes as chunks of
// [method, params] followed by the same call of FuncChunked(key, n).
func (c *Codec) appendCall(b []byte, id int64, method string, params []any) ([]byte, error) {
	start := len(b)
	b = c.appendCallHead(b, id)
	bodyStart := len(b)
	b = appendString(b, method)
	b = append(b, ',')
	b, err := appendList(b, params, -1)
	if err != nil {
		return b, err
	}
	bodyEnd := len(b)
	if b = c.appendCallTail(b, id); len(b)-start > ChunkThreshold {
		// The chunks carry [method, params].
		body := make([]byte, 0, bodyEnd-bodyStart+2)
		body = append(body, '[')
		body = append(body, b[bodyStart:bodyEnd]...)
		body = append(body, ']')
		b = b[:start]
		key := c.key()
		var n int
		b, n = appendChunks(b, key, body)
		b = c.appendCallHead(b, id)
		b = append(b, `"`+FuncChunked+`",[`...)
		b = appendString(b, key)
		b = append(b, ',')
		b = appendInt(b, int64(n))
		b = append(b, ']')
		b = c.appendCallTail(b, id)
	}
	return b, nil
}

// appendCallHead opens a call: `[0,[-id,` (for the channel callback),
// `["call","FuncCall",[` (Transport.Command) or, without id, `["call",`.
func (c *Codec) appendCallHead(b []byte, id int64) []byte {
	switch {
	case id == 0:
		return append(b, `["call",`...)
	case c.Transport.Command:
		return append(b, `["call","`+FuncCall+`",[`...)
	}
	b = append(b, `[0,[-`...)
	b = appendInt(b, id)
	return append(b, ',')
}

// appendCallTail closes what appendCallHead opened.
func (c *Codec) appendCallTail(b []byte, id int64) []byte {
	switch {
	case id == 0:
	case c.Transport.Command:
		b = append(b, `],-`...)
		b = appendInt(b, id)
	default:
		b = append(b, ']') // the [-id, method, params] list
	}
	return append(b, ']', '\n')
}

// AppendResponse implements wire.Codec: one frame [id, result], as Vim's
// channel protocol has it.
func (c *Codec) AppendResponse(b []byte, id int64, result any) ([]byte, error) {
	b = append(b, '[')
	b = appendInt(b, id)
	b = append(b, ',')
	valStart := len(b)
	var err error
	if f, ok := result.(wire.Fallible); ok {
		// The Value is the runtime's reply tuple, whose items count as
		// values of their own, as a message's params do.
		if b, err = appendValue(b, f.Value(), -1); err != nil {
			b, err = AppendValue(b[:valStart], f.Fallback(err))
		}
	} else {
		b, err = AppendValue(b, result)
	}
	if err != nil {
		return b, err
	}
	return append(b, ']', '\n'), nil
}

// AppendWake appends the response [id, 0], which carries nothing: it ends
// a wait of Vim's for the response to id (ch_read) at once.
func (c *Codec) AppendWake(b []byte, id int64) []byte {
	b = append(b, '[')
	b = appendInt(b, id)
	return append(b, ',', '0', ']', '\n')
}

func (c *Codec) key() string {
	c.chunks++
	return c.KeyPrefix + "c" + strconv.Itoa(c.chunks)
}

// appendChunks writes body as FuncChunk calls, each at most ChunkSize
// bytes, split at UTF-8 boundaries, and returns how many it wrote.
func appendChunks(b []byte, key string, body []byte) ([]byte, int) {
	head := `["call","` + FuncChunk + `",[`
	tail := "]]\n"
	room := ChunkSize - len(head) - len(appendString(nil, key)) - len(",\"\"") - len(tail)
	// A key too long for the room (a plugin name of thousands of
	// letters) still gets pieces, in frames longer than ChunkSize.
	room = max(room, 64)
	count := 0
	for len(body) > 0 {
		count++
		n, size := 0, 0
		for n < len(body) && size+escapedLen(body[n]) <= room {
			size += escapedLen(body[n])
			n++
		}
		for n < len(body) && n > 0 && body[n]&0xC0 == 0x80 {
			n-- // do not split a UTF-8 sequence
		}
		b = append(b, head...)
		b = appendString(b, key)
		b = append(b, ',')
		b = appendString(b, string(body[:n]))
		b = append(b, tail...)
		body = body[n:]
	}
	return b, count
}

// escapedLen is how many bytes appendString writes for c.
func escapedLen(c byte) int {
	switch {
	case c == '"' || c == '\\' || c == '\n' || c == '\r' || c == '\t':
		return 2
	case c < 0x20:
		return 6
	}
	return 1
}

// Writer writes frames to Vim's channel so that Vim never holds part of
// one for long. When Vim looks at part of a message again 100 ms after
// more of it last came, without having read the channel since (it does so
// while it waits for an answer on another channel, or after a long
// callback), it drops what it has read, and the stream no longer starts
// at a frame: the plugin waits for ever for an answer that was in it.
//
// A write of at most pipeBuf bytes (PIPE_BUF) goes into a pipe whole, so
// Writer writes small frames that many at a time. A longer frame goes
// alone, when the pipe has room for all of it (on Linux, which puts a write
// into a pipe whole when it has room, and whose pipe Writer makes 1 MiB
// long; elsewhere at once). Frames end with a newline, which the codec
// writes nowhere else.
type Writer struct {
	w    io.Writer
	room func(n int) error // waits until the pipe has room for n bytes
}

// NewWriter returns a Writer that writes to w, the channel's pipe.
func NewWriter(w io.Writer) *Writer {
	return &Writer{w: w, room: pipeRoom(w)}
}

// Write writes p, which holds whole frames, in writes of whole frames.
func (w *Writer) Write(p []byte) (int, error) {
	done := 0
	for len(p) > 0 {
		// As many frames as fit in pipeBuf bytes, or one longer frame.
		n := bytes.IndexByte(p, '\n') + 1
		if n == 0 {
			n = len(p)
		}
		if n <= pipeBuf {
			for n < len(p) {
				next := bytes.IndexByte(p[n:], '\n') + 1
				if next == 0 || n+next > pipeBuf {
					break
				}
				n += next
			}
		} else if w.room != nil {
			if err := w.room(n); err != nil {
				return done, err
			}
		}
		m, err := w.w.Write(p[:n])
		done += m
		if err != nil {
			return done, err
		}
		p = p[n:]
	}
	return done, nil
}

// Unmarshal implements wire.Codec.
func (c *Codec) Unmarshal(r wire.Raw, v any) error { return Unmarshal(r, v) }

// UnmarshalAny decodes r as Unmarshal does into an empty *any, and
// returns the value: a scalar (a Number, a Float, a String, v:true,
// v:false, v:null) allocates nothing for the result's place, which a
// pointer given to Unmarshal through an interface does (it escapes).
func (c *Codec) UnmarshalAny(r wire.Raw) (any, error) {
	if x, ok := fastScalar(r); ok {
		return x, nil
	}
	var v any
	err := Unmarshal(r, &v)
	return v, err
}

// TypeName implements wire.Codec.
func (c *Codec) TypeName(r wire.Raw) string { return TypeName(r) }

// IsNull implements wire.Codec: JSON's null, which is Vim's v:null and
// v:none.
func (c *Codec) IsNull(r wire.Raw) bool { return isNull(r) }

// TypeName names the Vim type of a JSON value.
func TypeName(r wire.Raw) string {
	r = bytes.TrimLeft(r, " \t\r\n")
	if len(r) == 0 {
		return "nothing"
	}
	switch r[0] {
	case '"':
		return "String"
	case '[':
		return "List"
	case '{':
		return "Dict"
	case 't', 'f':
		return "Boolean"
	case 'n':
		return "v:null"
	case 'N', 'I':
		return "Float"
	}
	if bytes.ContainsAny(r, ".eE") || bytes.HasPrefix(r, []byte("-I")) {
		return "Float"
	}
	return "Number"
}

// SplitList implements wire.Codec. It scans r once and returns slices of
// it, without decoding the items.
func (c *Codec) SplitList(r wire.Raw) ([]wire.Raw, error) { return SplitList(r) }

// SplitList splits the JSON List r into its items (slices of r).
func SplitList(r wire.Raw) ([]wire.Raw, error) {
	i := skipSpace(r, 0)
	if i >= len(r) || r[i] != '[' {
		return nil, fmt.Errorf("%w: not a List: %.40q", wire.ErrMalformed, r)
	}
	i++
	var out []wire.Raw
	for {
		i = skipSpace(r, i)
		if i >= len(r) {
			return nil, fmt.Errorf("%w: unterminated List", wire.ErrMalformed)
		}
		if r[i] == ']' && len(out) == 0 {
			return out, nil
		}
		end, err := skipValue(r, i)
		if err != nil {
			return nil, err
		}
		if end == i {
			return nil, fmt.Errorf("%w: unexpected %q in a List", wire.ErrMalformed, r[i])
		}
		out = append(out, r[i:end:end]) // capped: an append to one item must not reach the next
		i = skipSpace(r, end)
		if i >= len(r) {
			return nil, fmt.Errorf("%w: unterminated List", wire.ErrMalformed)
		}
		switch r[i] {
		case ',':
			i++
		case ']':
			return out, nil
		default:
			return nil, fmt.Errorf("%w: unexpected %q in a List", wire.ErrMalformed, r[i])
		}
	}
}

// splitPair splits the List [a, b] (what SplitList does for two items,
// without allocating: every answer from Vim is one).
func splitPair(r []byte) (a, b wire.Raw, ok bool) {
	var items [2]wire.Raw
	i := skipSpace(r, 0)
	if i >= len(r) || r[i] != '[' {
		return nil, nil, false
	}
	i++
	for k := range items {
		i = skipSpace(r, i)
		end, err := skipValue(r, i)
		if err != nil || end == i {
			return nil, nil, false
		}
		items[k] = r[i:end:end]
		i = skipSpace(r, end)
		want := byte(',')
		if k == 1 {
			want = ']'
		}
		if i >= len(r) || r[i] != want {
			return nil, nil, false
		}
		i++
	}
	if skipSpace(r, i) != len(r) {
		return nil, nil, false
	}
	return items[0], items[1], true
}

func skipSpace(r []byte, i int) int {
	for i < len(r) && (r[i] == ' ' || r[i] == '\n' || r[i] == '\t' || r[i] == '\r') {
		i++
	}
	return i
}

// skipValue returns the end of the JSON value that starts at i. It checks
// only what it needs to find the end; the items are validated when they
// are decoded.
func skipValue(r []byte, i int) (int, error) {
	depth := 0
	for i < len(r) {
		switch r[i] {
		case '"':
			i++
			for i < len(r) && r[i] != '"' {
				if r[i] == '\\' {
					i++
				}
				i++
			}
			if i >= len(r) {
				return 0, fmt.Errorf("%w: unterminated String", wire.ErrMalformed)
			}
			i++
		case '[', '{':
			depth++
			i++
		case ']', '}':
			if depth == 0 {
				return i, nil
			}
			depth--
			i++
		case ',':
			if depth == 0 {
				return i, nil
			}
			i++
		case ' ', '\n', '\t', '\r':
			if depth == 0 {
				return i, nil
			}
			i++
		default:
			i++
		}
		if depth == 0 && i > 0 && (r[i-1] == ']' || r[i-1] == '}' || r[i-1] == '"') {
			return i, nil
		}
	}
	if depth != 0 {
		return 0, fmt.Errorf("%w: unterminated List or Dict", wire.ErrMalformed)
	}
	return i, nil
}

// isNull reports whether r is the JSON null (Vim's v:null or v:none).
func isNull(r wire.Raw) bool {
	r = bytes.TrimSpace(r)
	return string(r) == "null"
}
