// Package wire defines the editor-neutral message model that the codecs
// produce and the RPC session consumes.
//
// Values inside a message stay encoded (as [Raw]) until the code that knows
// their Go type decodes them, so that no payload is decoded twice and large
// payloads are never turned into generic maps on the way through.
package wire

import (
	"errors"
	"fmt"
)

// Kind says what a Message is.
type Kind uint8

// The message kinds.
const (
	Request Kind = iota + 1
	Response
	Notification
)

func (k Kind) String() string {
	switch k {
	case Request:
		return "request"
	case Response:
		return "response"
	case Notification:
		return "notification"
	}
	return "invalid"
}

// Raw is one value in the codec's own encoding (a JSON text or a msgpack
// object).
type Raw []byte

// Appender is a value, as a parameter of a message, that appends its own
// encoding (in the codec's format) to b. A large value (a batch) is so
// encoded in place in the message, instead of in a buffer of its own that
// is then copied.
type Appender func(b []byte) ([]byte, error)

// Message is one decoded frame.
type Message struct {
	Kind   Kind
	ID     int64  // Request and Response
	Method string // Request and Notification
	Params []Raw  // Request and Notification: the positional arguments
	Result Raw    // Response
	Error  Raw    // Response: nil when the call succeeded
}

// Reset clears m for reuse.
func (m *Message) Reset() {
	*m = Message{}
}

// ErrMalformed is wrapped by every codec error caused by bytes that do not
// form a valid message.
var ErrMalformed = errors.New("malformed message")

// Codec turns a byte stream into messages and back. A Codec is not safe for
// concurrent use: the session serialises reads and writes.
type Codec interface {
	// ReadMessage reads the next message into m.
	ReadMessage(m *Message) error
	// AppendRequest appends a request frame to b. A param that the
	// editor cannot take (too deep, a Number out of range, a type with no
	// form on the wire) is a *ValueError whose Path starts at the index
	// of the param; so for AppendNotification.
	AppendRequest(b []byte, id int64, method string, params []any) ([]byte, error)
	// AppendNotification appends a notification frame to b.
	AppendNotification(b []byte, method string, params []any) ([]byte, error)
	// AppendResponse appends the response to request id. On Vim the
	// response has no error slot; errors travel inside result. A
	// Fallible result is written as its Value(), or as its Fallback when
	// that cannot be sent.
	AppendResponse(b []byte, id int64, result any) ([]byte, error)
	// Unmarshal decodes one Raw value into v. A value nested more than
	// MaxDepth deep is an error wrapping ErrTooDeep. Into typed targets
	// each codec follows its own library, so the codecs differ there; the
	// SDK decodes a plugin's types by its own rules (decode.go).
	Unmarshal(r Raw, v any) error
	// SplitList splits an encoded List into its encoded items.
	SplitList(r Raw) ([]Raw, error)
	// TypeName names the editor type of r ("Number", "String", ...) for
	// error messages.
	TypeName(r Raw) string
	// IsNull reports whether r is the editor's null (v:null, and v:none
	// on Vim), without decoding it.
	IsNull(r Raw) bool
}

// MaxDepth is how deeply Lists and Dicts may nest in one value that the
// plugin reads from the editor: encoding/json's limit, which the msgpack
// codec applies too, so that both editors agree. A Vim value [[1]] nests
// 2 deep. What the plugin sends is bounded by what the editor reads:
// vimjson.MaxSendDepth, msgpackrpc.MaxMessageDepth.
const MaxDepth = 10000

// ErrTooDeep is wrapped by the errors of Unmarshal for a value that nests
// Lists and Dicts more than MaxDepth deep. Its text is meant for users.
var ErrTooDeep = errors.New("Lists and Dicts nested more than 10000 deep, more than Vigor reads")

// ValueError is a Go value that a codec cannot send to the editor. Msg
// says why, for users, in the editor's words; Path says where the value
// is, as indices into what the caller gave the codec (the params of a
// request or notification, the value of a response or of an append
// function), outermost first, as far as the codec follows them. Detail,
// if set, is an encoder's own error, for the log.
//
// For a value nested too deep, how deep Lists and Dicts may nest depends
// on where the value is: Room[j] is that depth for the value at
// Path[:j+1], and At fills it into DeepMsg.
type ValueError struct {
	Path    []int
	Msg     string
	Detail  error
	Room    []int
	DeepMsg string // a format with one %d, for Room
}

func (e *ValueError) Error() string { return e.Msg }

// At returns the message for the value at Path[:k]: for a value nested
// too deep, it names how deep that value may nest.
func (e *ValueError) At(k int) string {
	if k >= 1 && k <= len(e.Room) && e.DeepMsg != "" {
		return fmt.Sprintf(e.DeepMsg, e.Room[k-1])
	}
	return e.Msg
}

// In puts i, the index of the value in a List that lies room levels
// deep, in front of e's Path, if the List is within the outer maxPath
// levels of what the codec was given (callers name at most an argument
// and its place, and an error deep down must cost no more than one near
// the top). It returns e.
func (e *ValueError) In(i, level, room int) *ValueError {
	if level < maxPath {
		e.Path = append([]int{i}, e.Path...)
		if e.DeepMsg != "" {
			e.Room = append([]int{room}, e.Room...)
		}
	}
	return e
}

// maxPath bounds the levels of a ValueError's Path.
const maxPath = 4

// Fallible is a response result that may fail to encode: AppendResponse
// writes Value(), or, if that cannot be sent, Fallback(err) in its place
// (err is a *ValueError, or another encoding error). The SDK answers every
// request with one, so that a result the editor cannot take fails the
// request instead of leaving the editor waiting for an answer. A List
// Value's items are limited in depth (MaxDepth) as params are, on their
// own. (An interface, so that the SDK's reply costs no more allocations
// than the List it holds.)
type Fallible interface {
	Value() any
	Fallback(err error) any
}
