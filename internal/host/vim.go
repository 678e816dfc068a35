package host

import (
	"context"
	"fmt"
	"io"
	"slices"
	"sync/atomic"

	"github.com/vigorvim/vigor/internal/codec/vimjson"
	"github.com/vigorvim/vigor/internal/protocol"
	"github.com/vigorvim/vigor/internal/rpc"
	"github.com/vigorvim/vigor/internal/wire"
)

// Vim sends calls in the codec's way (vimjson.Transport, which names the
// functions as Vim needs them); the runtime runs them and answers
// [result, error] (the vimjson codec turns the error into an
// *rpc.RemoteError).
type Vim struct {
	c     Caller
	codec wire.Codec
	t     vimjson.Transport
	// BatchFunc is the Vim function that runs a batch; empty means
	// protocol.FuncVimBatch. (Benchmarks compare it with the legacy
	// protocol.FuncBatch.)
	BatchFunc string
	// batchSizes is the hint that its batches share (Batch.sizes).
	batchSizes atomic.Int64
}

// Call implements Adapter.
func (v *Vim) Call(ctx context.Context, fn string, args []any) (wire.Raw, error) {
	if args == nil {
		args = []any{}
	}
	name, params := v.t.Call(fn, args)
	base := 1
	if name == vimjson.FuncLegacy {
		// The arguments go inside the helper's: they count as values of
		// their own for wire.MaxDepth, as they do when they are the params.
		list := wire.Appender(func(b []byte) ([]byte, error) { return vimjson.AppendArgs(b, args) })
		params, base = []any{fn, list}, 2
	}
	raw, err := v.c.Call(ctx, name, params)
	if err != nil {
		if re, ok := err.(*rpc.RemoteError); ok {
			return nil, &CallError{Fn: fn, Msg: editorMessage(vimjson.Message(fn, re.Error())), Full: re.Error()}
		}
		return nil, argError(fn, -1, err, base)
	}
	return raw, nil
}

// Notify implements Adapter. Errors are shown to the user by the helper.
func (v *Vim) Notify(ctx context.Context, fn string, args []any) error {
	if args == nil {
		args = []any{}
	}
	return argError(fn, -1, v.c.Notify(ctx, fn, args), 1)
}

// EditorNotification implements Adapter: Vim sends none.
func (v *Vim) EditorNotification(m *wire.Message) (bool, error) { return false, nil }

// NewBatch implements Adapter.
func (v *Vim) NewBatch() *Batch { return &Batch{kind: batchVim, t: v.t, sizes: &v.batchSizes} }

// SendBatch implements Adapter.
func (v *Vim) SendBatch(ctx context.Context, b *Batch) ([]wire.Raw, error) {
	fn := v.BatchFunc
	if fn == "" {
		fn = protocol.FuncVimBatch
	}
	list := wire.Appender(func(out []byte) ([]byte, error) {
		out = slices.Grow(out, len(b.buf)+2) // the message's buffer grows once
		out = append(out, '[')
		out = append(out, b.buf...)
		return append(out, ']'), nil
	})
	raw, err := v.c.Call(rpc.Long(ctx), fn, []any{list})
	if err != nil {
		if re, ok := err.(*rpc.RemoteError); ok {
			return nil, fmt.Errorf("the batch helper failed in Vim: %s", re.Error())
		}
		return nil, err
	}
	results, err := decodeBatch(v.codec, b, raw)
	if be, ok := err.(*BatchError); ok {
		be.Msg = vimjson.Message(be.Fn, be.Msg)
	}
	return results, err
}

// vimCodec is Vim's JSON channel (vimjson) with Vigor's protocol on top.
//
// The runtime's vigor#request() is a request of Vim's, [id, [method,
// params]]. Its answer goes not as a response but as a call of the
// runtime's reply function, protocol.FuncReply(id, [result, error]),
// followed by the wake-up response [id, 0]: Vim drops a response that
// arrives while it waits for another one (nested requests), and while it
// is between two reads of the wait loop that lets CTRL-C in; a call is
// never dropped, and runs in order after the messages sent before it. The
// wake-up ends the wait at once when it is read there; the runtime then
// runs the queued call (docs/ARCHITECTURE.md, "Requests"). The session
// writes a wake-up alone too (Wake): after the answer to the runtime's
// protocol.MethodPending, and again for answers that Vim may have dropped.
type vimCodec struct {
	*vimjson.Codec
	reply []byte // AppendResponse's buffer for the value (the session serialises appends)
}

func newVimCodec(r io.Reader, vimCalls, plugin, instance string) (*vimCodec, error) {
	t, err := vimjson.ParseTransport(vimCalls)
	if err != nil {
		return nil, err
	}
	c := vimjson.New(r)
	c.Transport = t
	// Vim's store of messages received in part is shared by every plugin
	// process: the keys of one plugin's chunks are its own.
	c.KeyPrefix = protocol.ChunkPrefix(plugin, instance)
	return &vimCodec{Codec: c}, nil
}

// RequestID implements Codec: the token itself.
func (c *vimCodec) RequestID(token int64) int64 { return token }

// Wake implements Codec: Vim's wait ends only on a wake-up, and Vim drops
// input it cannot read.
func (c *vimCodec) Wake() func(b []byte, id int64) []byte { return c.AppendWake }

func (c *vimCodec) adapter(cl Caller) Adapter { return &Vim{c: cl, codec: c, t: c.Transport} }

func (c *vimCodec) attach(RawWriter) {}

// maxKeptReply is the largest reply buffer kept between answers.
const maxKeptReply = 1 << 20

// AppendResponse implements wire.Codec: the call of protocol.FuncReply
// (chunked when it is large) and the wake-up.
func (c *vimCodec) AppendResponse(b []byte, id int64, result any) ([]byte, error) {
	// The value is encoded first, at the depth it has in a response, so
	// that the answer's limits are those of a response.
	value := result
	f, fallible := result.(wire.Fallible)
	if fallible {
		value = f.Value()
	}
	vb, err := appendReplyValue(c.reply[:0], value)
	if err != nil && fallible {
		vb, err = appendReplyValue(vb[:0], f.Fallback(err))
	}
	if cap(vb) <= maxKeptReply {
		c.reply = vb[:0]
	}
	if err != nil {
		return b, err
	}
	if b, err = c.AppendNotification(b, protocol.FuncReply, []any{id, wire.Raw(vb)}); err != nil {
		return b, err
	}
	return c.AppendWake(b, id), nil
}

// appendReplyValue encodes the value of an answer: the reply tuple, whose
// items count as values of their own, as a response's params do.
func appendReplyValue(b []byte, v any) ([]byte, error) {
	if tuple, ok := v.([]any); ok {
		return vimjson.AppendArgs(b, tuple)
	}
	return vimjson.AppendValue(b, v)
}
