// Package wire defines the editor-neutral message model that the codecs
// produce and the RPC session consumes.
//
// Values inside a message stay encoded (as [Raw]) until the code that knows
// their Go type decodes them, so that no payload is decoded twice and large
// payloads are never turned into generic maps on the way through.
package wire

import "errors"

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
	// AppendRequest appends a request frame to b.
	AppendRequest(b []byte, id int64, method string, params []any) ([]byte, error)
	// AppendNotification appends a notification frame to b.
	AppendNotification(b []byte, method string, params []any) ([]byte, error)
	// AppendResponse appends the response to request id. On Vim the
	// response has no error slot; errors travel inside result.
	AppendResponse(b []byte, id int64, result any) ([]byte, error)
	// Unmarshal decodes one Raw value into v.
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
