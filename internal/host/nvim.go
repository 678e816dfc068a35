package host

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/vigorvim/vigor/internal/codec/msgpackrpc"
	"github.com/vigorvim/vigor/internal/protocol"
	"github.com/vigorvim/vigor/internal/rpc"
	"github.com/vigorvim/vigor/internal/wire"
)

// Nvim calls Neovim's API directly: errors come back in the response's
// error slot.
type Nvim struct {
	c     Caller
	codec wire.Codec
	// BatchMode chooses how a batch runs: "" or "atomic" (nvim_call_atomic),
	// "lua" (nvim_exec_lua) or "vimscript" (a legacy Vim script loop).
	//
	// nvim_call_atomic is deprecated, but it is the fastest (BENCHMARKS.md,
	// "Batches in the editors") and the only fast one that keeps values exact: through Lua, an
	// integral Float comes back as a Number and a Blob as a String. If a
	// Neovim drops it, the batch falls back to Lua.
	BatchMode string
	noAtomic  atomic.Bool
	// batchSizes is the hint that its batches share (Batch.sizes).
	batchSizes atomic.Int64
	// calls holds *funcCall for Call and Notify to reuse: a call boxes
	// neither its function's name nor its arguments. One is taken for
	// one call and given back once the call has returned (the session
	// has encoded the params by then, and keeps nothing of them).
	calls sync.Pool
}

// funcCall is the params of one nvim_call_function: params is
// []any{&fc}, made once.
type funcCall struct {
	fc     msgpackrpc.FuncCall
	params [1]any
}

// funcParams returns the params of nvim_call_function(fn, args) and the
// funcCall to give back (putParams) once the call has returned.
func (n *Nvim) funcParams(fn string, args []any) ([]any, *funcCall) {
	c, _ := n.calls.Get().(*funcCall)
	if c == nil {
		c = new(funcCall)
		c.params[0] = &c.fc
	}
	c.fc = msgpackrpc.FuncCall{Fn: fn, Args: args}
	return c.params[:], c
}

// putParams gives c back, keeping nothing of the call's values.
func (n *Nvim) putParams(c *funcCall) {
	c.fc = msgpackrpc.FuncCall{}
	n.calls.Put(c)
}

// Call implements Adapter.
func (n *Nvim) Call(ctx context.Context, fn string, args []any) (wire.Raw, error) {
	if args == nil {
		args = []any{}
	}
	params, fc := n.funcParams(fn, args)
	raw, err := n.c.Call(ctx, "nvim_call_function", params)
	n.putParams(fc)
	if err != nil {
		if re, ok := err.(*rpc.RemoteError); ok {
			full := nvimMessage(n.codec, re)
			return nil, &CallError{Fn: fn, Msg: editorMessage(full), Full: full}
		}
		return nil, argError(fn, -1, err, 2)
	}
	return raw, nil
}

// nvimMessage reads the message of an error from Neovim, which sends
// [type, message] (the message a String, or a Binary).
func nvimMessage(codec wire.Codec, re *rpc.RemoteError) string {
	var pair []any
	if err := codec.Unmarshal(re.Raw, &pair); err == nil && len(pair) == 2 {
		switch msg := pair[1].(type) {
		case string:
			return msg
		case []byte:
			return string(msg)
		}
	}
	return re.Error()
}

// nvimError is an *rpc.RemoteError from Neovim whose text is its message
// (nvimMessage).
type nvimError struct {
	re  *rpc.RemoteError
	msg string
}

func (e *nvimError) Error() string { return e.msg }
func (e *nvimError) Unwrap() error { return e.re }

// nvimErr returns err with Neovim's message as its text, if it is an
// *rpc.RemoteError, else err.
func (n *Nvim) nvimErr(err error) error {
	if re, ok := err.(*rpc.RemoteError); ok {
		return &nvimError{re: re, msg: nvimMessage(n.codec, re)}
	}
	return err
}

// Notify implements Adapter.
func (n *Nvim) Notify(ctx context.Context, fn string, args []any) error {
	if args == nil {
		args = []any{}
	}
	params, fc := n.funcParams(fn, args)
	err := n.c.Notify(ctx, "nvim_call_function", params)
	n.putParams(fc)
	return argError(fn, -1, err, 2)
}

// EditorNotification implements Adapter: nvim_error_event [type, message].
func (n *Nvim) EditorNotification(m *wire.Message) (bool, error) {
	if m.Method != "nvim_error_event" {
		return false, nil
	}
	var msg any = "(no message)"
	if len(m.Params) > 0 {
		var v any
		if err := n.codec.Unmarshal(m.Params[len(m.Params)-1], &v); err == nil {
			msg = v
		}
	}
	if b, ok := msg.([]byte); ok {
		msg = string(b)
	}
	return true, fmt.Errorf("Neovim reported an error for a notification: %v", msg)
}

const batchLua = `local calls = ...
local res = {}
for i, c in ipairs(calls) do
  local ok, v = pcall(vim.call, c[1], unpack(c[2]))
  if not ok then return {res, {i - 1, v}} end
  if v == nil then v = vim.NIL end
  res[i] = v
end
return {res, vim.NIL}`

// NewBatch implements Adapter.
func (n *Nvim) NewBatch() *Batch {
	if n.listMode() {
		return &Batch{kind: batchList, sizes: &n.batchSizes}
	}
	return &Batch{kind: batchAtomic, sizes: &n.batchSizes}
}

func (n *Nvim) listMode() bool { return n.BatchMode == "lua" || n.BatchMode == "vimscript" }

// SendBatch implements Adapter.
func (n *Nvim) SendBatch(ctx context.Context, b *Batch) ([]wire.Raw, error) {
	if n.listMode() || n.noAtomic.Load() {
		list := wire.Appender(func(out []byte) ([]byte, error) { return b.appendList(out, batchList), nil })
		var raw wire.Raw
		var err error
		if n.BatchMode == "vimscript" {
			raw, err = n.c.Call(ctx, "nvim_call_function", []any{protocol.FuncBatch, []any{list}})
		} else {
			raw, err = n.c.Call(ctx, "nvim_exec_lua", []any{batchLua, []any{list}})
		}
		if err != nil {
			return nil, n.nvimErr(err)
		}
		return decodeBatch(n.codec, b, raw)
	}
	atomic := wire.Appender(func(out []byte) ([]byte, error) { return b.appendList(out, batchAtomic), nil })
	raw, err := n.c.Call(rpc.Long(ctx), "nvim_call_atomic", []any{atomic})
	if re, ok := err.(*rpc.RemoteError); ok && strings.Contains(nvimMessage(n.codec, re), "nvim_call_atomic") {
		// "Invalid method: nvim_call_atomic": a Neovim without it.
		n.noAtomic.Store(true)
		return n.SendBatch(ctx, b)
	}
	if err != nil {
		return nil, n.nvimErr(err)
	}
	return decodeBatch(n.codec, b, raw)
}

// nvimCodec is Neovim's msgpack-RPC channel (msgpackrpc) with Vigor's
// protocol on top: the runtime sends vigor#request() as the request
// protocol.MethodCall [token, method, params] of rpcrequest(), or, while
// one is open on the channel, as the notification protocol.MethodRequest
// with the same params; nvimCodec reads either as the request -token. It
// answers a MethodCall with a response of [result, error], or with
// "later" and then as a MethodRequest: by notifying
// nvim_call_function(protocol.FuncReply, [token, result, error]) (calls).
// msgpack-RPC ids of real requests are never negative, so the two cannot
// meet.
type nvimCodec struct {
	*msgpackrpc.Codec
	calls calls
}

func newNvimCodec(r io.Reader) *nvimCodec {
	return &nvimCodec{Codec: msgpackrpc.New(r), calls: calls{bound: callBound}}
}

// RequestID implements Codec: -token.
func (c *nvimCodec) RequestID(token int64) int64 { return -token }

// Wake implements Codec: none, as Neovim closes a channel that sends what
// it cannot read.
func (c *nvimCodec) Wake() func(b []byte, id int64) []byte { return nil }

func (c *nvimCodec) adapter(cl Caller) Adapter { return &Nvim{c: cl, codec: c} }

func (c *nvimCodec) attach(w RawWriter) { c.calls.attach(w) }

// ReadMessage implements wire.Codec.
func (c *nvimCodec) ReadMessage(m *wire.Message) error {
	if err := c.Codec.ReadMessage(m); err != nil {
		return err
	}
	switch {
	case m.Kind == wire.Request && m.Method == protocol.MethodCall:
		return c.asRequest(m, true)
	case m.Kind == wire.Notification && m.Method == protocol.MethodRequest:
		return c.asRequest(m, false)
	}
	return nil
}

// asRequest turns m, a protocol.MethodCall request (call) or
// protocol.MethodRequest notification whose params are [token, method,
// [params...]], into the request -token. Once the token is read, an error
// leaves m a request, which the session answers with what is wrong;
// before, m stays what it was (a MethodCall is then answered as
// Neovim's request).
func (c *nvimCodec) asRequest(m *wire.Message, call bool) error {
	what := protocol.MethodRequest + " notification"
	if call {
		what = protocol.MethodCall + " request"
	}
	bad := func(msg string) error {
		return fmt.Errorf("%w: %s of a %s", wire.ErrMalformed, msg, what)
	}
	if len(m.Params) != 3 {
		return bad("the params are not [token, method, params]")
	}
	var token int64
	if c.TypeName(m.Params[0]) != "Number" || c.Unmarshal(m.Params[0], &token) != nil || token <= 0 {
		return bad("the token is not a positive Number")
	}
	if call {
		c.calls.read(token, m.ID)
	}
	m.Kind, m.ID, m.Method = wire.Request, -token, ""
	if t := c.TypeName(m.Params[1]); t != "String" && t != "Blob" || c.Unmarshal(m.Params[1], &m.Method) != nil {
		m.Params = nil
		return bad("the method name is not a String")
	}
	params, err := c.SplitList(m.Params[2])
	if err != nil || c.TypeName(m.Params[2]) != "List" {
		m.Params = nil
		return fmt.Errorf("%w: the params of %q are not a List", wire.ErrMalformed, m.Method)
	}
	m.Params = params
	return nil
}

// AppendNotification implements wire.Codec.
func (c *nvimCodec) AppendNotification(b []byte, method string, params []any) ([]byte, error) {
	b, err := c.Codec.AppendNotification(b, method, params)
	if err == nil {
		c.calls.noted()
	}
	return b, err
}

// AppendResponse implements wire.Codec. The answer to the request -token
// is its response or a FuncReply (calls).
func (c *nvimCodec) AppendResponse(b []byte, id int64, result any) ([]byte, error) {
	if id >= 0 {
		return c.Codec.AppendResponse(b, id, result)
	}
	token := -id
	out, found := c.calls.answer(b, token, func(b []byte, id int64, later bool) ([]byte, error) {
		if !later && isList(result) {
			return c.appendAnswer(b, id, result, c.appendResult)
		}
		// A response that is not a List reads as "later": such an answer
		// goes as a FuncReply, as the runtime takes any.
		b = appendLater(b, id)
		return c.appendAnswer(b, token, result, c.appendReply)
	})
	if found {
		return out, nil
	}
	return c.appendAnswer(b, token, result, c.appendReply)
}

// isList reports whether result, or its value when it is a
// wire.Fallible, is a List.
func isList(result any) bool {
	if f, ok := result.(wire.Fallible); ok {
		result = f.Value()
	}
	_, ok := result.([]any)
	return ok
}

// appendAnswer appends result with appendV, or its fallback when it
// cannot be written.
func (c *nvimCodec) appendAnswer(b []byte, n int64, result any, appendV func([]byte, int64, any) ([]byte, error)) ([]byte, error) {
	f, fallible := result.(wire.Fallible)
	if !fallible {
		return appendV(b, n, result)
	}
	start := len(b)
	out, err := appendV(b, n, f.Value())
	if err != nil {
		out, err = appendV(out[:start], n, f.Fallback(err))
	}
	return out, err
}

// replyLevel is the level of the items of the reply tuple in the answer
// (msgpackrpc.MaxMessageDepth): as deep as a value of a message can lie.
const replyLevel = 4

// appendReply writes [2, "nvim_call_function", [FuncReply, [token,
// items...]]], where items are those of v when it is a List (the reply
// tuple [result, error]), else v.
func (c *nvimCodec) appendReply(b []byte, token int64, v any) ([]byte, error) {
	items, spread := v.([]any)
	n := 2
	if spread {
		n = 1 + len(items)
	}
	b = msgpackrpc.AppendArrayLen(b, 3)
	b = msgpackrpc.AppendInt(b, 2)
	b = msgpackrpc.AppendString(b, "nvim_call_function")
	b = msgpackrpc.AppendArrayLen(b, 2)
	b = msgpackrpc.AppendString(b, protocol.FuncReply)
	b = msgpackrpc.AppendArrayLen(b, n)
	b = msgpackrpc.AppendInt(b, token)
	return c.appendItems(b, v)
}

// appendResult writes the response [1, id, nil, v] of a call.
func (c *nvimCodec) appendResult(b []byte, id int64, v any) ([]byte, error) {
	b = msgpackrpc.AppendArrayLen(b, 4)
	b = msgpackrpc.AppendInt(b, 1)
	b = msgpackrpc.AppendInt(b, id)
	b = append(b, nilByte)
	if items, spread := v.([]any); spread {
		b = msgpackrpc.AppendArrayLen(b, len(items))
	}
	return c.appendItems(b, v)
}

// appendItems writes the items of v when it is a List (the reply tuple
// [result, error]), else v, each as deep as in a FuncReply: a value that
// can be sent in one can be sent in the other.
func (c *nvimCodec) appendItems(b []byte, v any) ([]byte, error) {
	items, spread := v.([]any)
	if !spread {
		return c.AppendValue(b, v, replyLevel)
	}
	for i, x := range items {
		var err error
		if b, err = c.AppendValue(b, x, replyLevel); err != nil {
			if ve, ok := err.(*wire.ValueError); ok {
				// As an item of the List [result, error], one level up,
				// for the error's path and limits.
				ve.In(i, replyLevel-3, msgpackrpc.MaxMessageDepth-replyLevel)
			}
			return b, err
		}
	}
	return b, nil
}
