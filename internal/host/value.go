package host

import (
	"context"
	"errors"

	"github.com/vigorvim/vigor/internal/wire"
)

// Value is one value that the editor sent, still in its codec's encoding,
// with the means to read it: the SDK decodes what the editor sends only
// through Values, and never holds the encoding or the codec. A Value is
// small and passed by value; making one costs no allocation. The zero
// Value is no value: Decode fails and Type is "".
type Value struct {
	raw   wire.Raw
	codec wire.Codec
}

// Values are the values of a List or of a message's params, as the editor
// sent them. Like Value, it is passed by value and costs no allocation.
type Values struct {
	raws  []wire.Raw
	codec wire.Codec
}

// errNoValue is the error of decoding the zero Value.
var errNoValue = errors.New("no value")

// NewValues returns the Values that codec reads as raws: for programs and
// tests that read messages with a codec of their own.
func NewValues(codec wire.Codec, raws []wire.Raw) Values { return Values{raws: raws, codec: codec} }

// NewValue returns the Value that codec reads as raw (see NewValues).
func NewValue(codec wire.Codec, raw wire.Raw) Value { return Value{raw: raw, codec: codec} }

// Decode decodes v into what dst points to, by the codec's own rules: an
// any gets the editor-neutral form (int64, float64, string, bool, nil,
// []any, map[string]any, []byte). A value nested more than wire.MaxDepth
// deep is an error wrapping wire.ErrTooDeep. (The SDK assigns a plugin's
// own types from the editor-neutral form by rules of its own, the same on
// both editors.)
func (v Value) Decode(dst any) error {
	if v.codec == nil {
		return errNoValue
	}
	return v.codec.Unmarshal(v.raw, dst)
}

// Any decodes v into the editor-neutral form, as Decode into an empty
// *any does, without allocating for a scalar where the codec can.
func (v Value) Any() (any, error) {
	if v.codec == nil {
		return nil, errNoValue
	}
	if c, ok := v.codec.(interface{ UnmarshalAny(wire.Raw) (any, error) }); ok {
		return c.UnmarshalAny(v.raw)
	}
	var x any
	err := v.codec.Unmarshal(v.raw, &x)
	return x, err
}

// Type names the editor's type of v in Vim's words ("Number", "String",
// "List", ...), without decoding it.
func (v Value) Type() string {
	if v.codec == nil {
		return ""
	}
	return v.codec.TypeName(v.raw)
}

// IsNull reports whether v is the editor's null (v:null, and v:none on
// Vim), without decoding it.
func (v Value) IsNull() bool { return v.codec != nil && v.codec.IsNull(v.raw) }

// List returns the items of v, a List, without decoding them.
func (v Value) List() (Values, error) {
	if v.codec == nil {
		return Values{}, errNoValue
	}
	raws, err := v.codec.SplitList(v.raw)
	if err != nil {
		return Values{}, err
	}
	return Values{raws: raws, codec: v.codec}, nil
}

// Len is the number of values in vs.
func (vs Values) Len() int { return len(vs.raws) }

// At is value i of vs, for 0 <= i < Len.
func (vs Values) At(i int) Value { return Value{raw: vs.raws[i], codec: vs.codec} }

// Slice is the values of vs from i up to j, as for a Go slice.
func (vs Values) Slice(i, j int) Values { return Values{raws: vs.raws[i:j], codec: vs.codec} }

// Editor calls the editor through an Adapter and gives its answers as
// Values: the SDK's calls go through it (Conn's), so that it never holds
// an encoded value or the codec.
type Editor struct {
	ad    Adapter
	codec wire.Codec
}

// NewEditor returns the Editor that calls through a, whose answers codec
// reads: for programs and benchmarks that make an adapter of their own
// (Open makes a Conn's).
func NewEditor(a Adapter, codec wire.Codec) Editor { return Editor{ad: a, codec: codec} }

// Call calls the editor function fn with args (Adapter.Call).
func (e *Editor) Call(ctx context.Context, fn string, args []any) (Value, error) {
	raw, err := e.ad.Call(ctx, fn, args)
	if err != nil {
		return Value{}, err
	}
	return Value{raw: raw, codec: e.codec}, nil
}

// Notify calls fn with args without waiting for it (Adapter.Notify).
func (e *Editor) Notify(ctx context.Context, fn string, args []any) error {
	return e.ad.Notify(ctx, fn, args)
}

// NewBatch returns an empty Batch for the editor (Adapter.NewBatch).
func (e *Editor) NewBatch() *Batch { return e.ad.NewBatch() }

// SendBatch runs b's calls in one round trip and returns their results
// (Adapter.SendBatch): if a call fails, the error is a *BatchError and the
// results are those of the calls before it.
func (e *Editor) SendBatch(ctx context.Context, b *Batch) (Values, error) {
	raws, err := e.ad.SendBatch(ctx, b)
	return Values{raws: raws, codec: e.codec}, err
}
