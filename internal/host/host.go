// Package host holds one adapter per editor. An adapter turns the SDK's
// editor operations (call a function, notify, batch) into the messages that
// editor understands, and turns the editor's errors into Go errors. Editor
// differences stop here: nothing above this package asks which editor it
// talks to.
package host

import (
	"context"
	"fmt"
	"io"
	"regexp"
	"strings"
	"sync/atomic"

	"github.com/vigorvim/vigor/internal/codec/msgpackrpc"
	"github.com/vigorvim/vigor/internal/codec/vimjson"
	"github.com/vigorvim/vigor/internal/protocol"
	"github.com/vigorvim/vigor/internal/rpc"
	"github.com/vigorvim/vigor/internal/wire"
)

// Caller is the part of rpc.Session that adapters use.
type Caller interface {
	Call(ctx context.Context, method string, params []any) (wire.Raw, error)
	Notify(ctx context.Context, method string, params []any) error
}

var _ Caller = (*rpc.Session)(nil)

// Call is one function call in a batch.
type Call struct {
	Fn   string
	Args []any
}

// CallError is an error raised by the editor while running a function.
type CallError struct {
	Fn  string
	Msg string
}

func (e *CallError) Error() string {
	return fmt.Sprintf("%s(): %s", e.Fn, e.Msg)
}

// BatchError says which call of a batch failed; the calls before it ran.
type BatchError struct {
	Index int
	Fn    string
	Msg   string
}

func (e *BatchError) Error() string {
	return fmt.Sprintf("call %d of the batch, %s(): %s", e.Index, e.Fn, e.Msg)
}

// Adapter is what every editor adapter provides.
type Adapter interface {
	Call(ctx context.Context, fn string, args []any) (wire.Raw, error)
	Notify(ctx context.Context, fn string, args []any) error
	// Batch must not modify calls: the SDK passes its caller's slice.
	Batch(ctx context.Context, calls []Call) ([]wire.Raw, error)
}

// NewCodec returns the codec that host ("vim" or "nvim") speaks. For Vim,
// vimCalls is how calls reach it ($VIGOR_VIM_CALLS: "callback", the
// default, or "command").
func NewCodec(host, vimCalls string, r interface{ Read([]byte) (int, error) }) (wire.Codec, error) {
	switch host {
	case "vim":
		c := vimjson.New(r)
		switch vimCalls {
		case "", "callback":
		case "command":
			c.CallCommand = true
		default:
			return nil, fmt.Errorf("unknown way of calling Vim %q (want callback or command)", vimCalls)
		}
		return c, nil
	case "nvim":
		return msgpackrpc.New(r), nil
	}
	return nil, fmt.Errorf("unknown editor %q (want vim or nvim)", host)
}

// NewWriter returns the writer through which a plugin writes its channel
// to host: for Vim one that writes whole frames (vimjson.Writer), so that
// Vim never holds part of one; otherwise w itself.
func NewWriter(host string, w io.Writer) io.Writer {
	if host == "vim" {
		return vimjson.NewWriter(w)
	}
	return w
}

// SetChunkPrefix makes the keys of the large messages that a Vim codec
// sends in chunks unique to one plugin process (protocol.ChunkPrefix):
// Vim keeps the pieces of every plugin in one store. Other codecs send no
// chunks, and are left as they are.
func SetChunkPrefix(c wire.Codec, plugin, instance string) {
	if vc, ok := c.(*vimjson.Codec); ok {
		vc.KeyPrefix = protocol.ChunkPrefix(plugin, instance)
	}
}

// New returns the adapter for host.
func New(host string, c Caller, codec wire.Codec) Adapter {
	if host == "vim" {
		return &Vim{c: c, codec: codec}
	}
	return &Nvim{c: c, codec: codec}
}

// Vim sends calls to the runtime's channel callback, which runs them in a
// Vim9 try/catch and answers [result, error] (the vimjson codec turns the
// error into an *rpc.RemoteError).
type Vim struct {
	c     Caller
	codec wire.Codec
	// BatchFunc is the Vim function that runs a batch; empty means
	// protocol.FuncVimBatch. (Benchmarks compare it with the legacy
	// protocol.FuncBatch.)
	BatchFunc string
}

// Call implements Adapter.
func (v *Vim) Call(ctx context.Context, fn string, args []any) (wire.Raw, error) {
	if args == nil {
		args = []any{}
	}
	name, params := vimFunc(fn), args
	if isBuiltin(fn) && v.callback() {
		name, params = protocol.FuncVimLegacy, []any{fn, args}
	}
	raw, err := v.c.Call(ctx, name, params)
	if err != nil {
		if re, ok := err.(*rpc.RemoteError); ok {
			return nil, &CallError{Fn: fn, Msg: vimMessage(fn, re.Error())}
		}
		return nil, err
	}
	return raw, nil
}

// callback reports whether calls reach the runtime's channel callback, a
// def function (the codec's default), rather than Vim's "call" command.
func (v *Vim) callback() bool {
	c, ok := v.codec.(*vimjson.Codec)
	return !ok || !c.CallCommand
}

// isBuiltin reports whether fn names a builtin function: only those have
// a lower-case name without a scope or an autoload part. In a def function
// some builtins (eval(), execute(), map() with a String...) read Vim9
// script, so the adapter runs builtins through protocol.FuncVimLegacy from
// the def functions, as they run everywhere else.
func isBuiltin(fn string) bool {
	if fn == "" || fn[0] < 'a' || fn[0] > 'z' {
		return false
	}
	for i := 1; i < len(fn); i++ {
		if c := fn[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// vimFunc returns the name under which Vim9 script's call() finds fn: a
// global function (a name that starts with an upper-case letter and has no
// scope or autoload part) needs "g:".
func vimFunc(fn string) string {
	if fn != "" && fn[0] >= 'A' && fn[0] <= 'Z' && !strings.ContainsAny(fn, ":#.") {
		return "g:" + fn
	}
	return fn
}

// vimMessage turns Vim's message about fn back to the name the plugin used:
// "g:Foo" becomes "Foo", but "g:FooBar" stays.
func vimMessage(fn, msg string) string {
	g := vimFunc(fn)
	if g == fn {
		return msg
	}
	var b strings.Builder
	for {
		i := strings.Index(msg, g)
		if i < 0 {
			b.WriteString(msg)
			return b.String()
		}
		end := i + len(g)
		b.WriteString(msg[:i])
		if end < len(msg) && isNameByte(msg[end]) {
			b.WriteString(g)
		} else {
			b.WriteString(fn)
		}
		msg = msg[end:]
	}
}

// isNameByte reports whether c can continue a Vim function name.
func isNameByte(c byte) bool {
	return c == '_' || c == '#' || c == '.' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// Notify implements Adapter. Errors are shown to the user by the helper.
func (v *Vim) Notify(ctx context.Context, fn string, args []any) error {
	if args == nil {
		args = []any{}
	}
	return v.c.Notify(ctx, fn, args)
}

// Batch implements Adapter.
func (v *Vim) Batch(ctx context.Context, calls []Call) ([]wire.Raw, error) {
	fn := v.BatchFunc
	if fn == "" {
		fn = protocol.FuncVimBatch
	}
	// Encoded in place in the message: boxing 1000 small lists costs more
	// than the encoding.
	list := wire.Appender(func(b []byte) ([]byte, error) {
		b = append(b, '[')
		for i, c := range calls {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, '[')
			builtin := isBuiltin(c.Fn)
			if builtin { // [legacy, [fn, args]]
				b = append(b, `"`+protocol.FuncVimLegacy+`",[`...)
			}
			var err error
			if b, err = vimjson.AppendValue(b, vimFunc(c.Fn)); err != nil {
				return b, err
			}
			b = append(b, ',')
			if c.Args == nil {
				b = append(b, '[', ']')
			} else if b, err = vimjson.AppendValue(b, c.Args); err != nil {
				return b, fmt.Errorf("batch call %d, %s(): %w", i, c.Fn, err)
			}
			if builtin {
				b = append(b, ']')
			}
			b = append(b, ']')
		}
		return append(b, ']'), nil
	})
	raw, err := v.c.Call(rpc.WithoutDirectRead(ctx), fn, []any{list})
	if err != nil {
		if re, ok := err.(*rpc.RemoteError); ok {
			return nil, fmt.Errorf("the batch helper failed in Vim: %s", re.Error())
		}
		return nil, err
	}
	results, err := decodeBatch(v.codec, calls, raw)
	if be, ok := err.(*BatchError); ok {
		be.Msg = vimMessage(be.Fn, be.Msg)
	}
	return results, err
}

// decodeBatch reads [results, v:null | [index, message]].
func decodeBatch(codec wire.Codec, calls []Call, raw wire.Raw) ([]wire.Raw, error) {
	pair, err := codec.SplitList(raw)
	if err != nil || len(pair) != 2 {
		return nil, fmt.Errorf("unexpected batch reply from the editor: %.100s", raw)
	}
	results, err := codec.SplitList(pair[0])
	if err != nil {
		return nil, fmt.Errorf("unexpected batch results from the editor: %w", err)
	}
	if isNull(pair[1]) {
		return results, nil
	}
	var fail []any
	if err := codec.Unmarshal(pair[1], &fail); err != nil || len(fail) < 2 {
		return results, fmt.Errorf("unexpected batch error from the editor: %.100s", pair[1])
	}
	idx, _ := fail[0].(int64)
	msg := trimThrowpoint(fmt.Sprint(fail[len(fail)-1]))
	be := &BatchError{Index: int(idx), Msg: msg}
	if be.Index >= 0 && be.Index < len(calls) {
		be.Fn = calls[be.Index].Fn
	}
	if len(results) > be.Index {
		results = results[:be.Index]
	}
	return results, be
}

func isNull(r wire.Raw) bool {
	s := strings.TrimSpace(string(r))
	return s == "null" || s == "\xc0" || s == ""
}

// Nvim calls Neovim's API directly: errors come back in the response's
// error slot.
type Nvim struct {
	c     Caller
	codec wire.Codec
	// BatchMode chooses how a batch runs: "" or "atomic" (nvim_call_atomic),
	// "lua" (nvim_exec_lua) or "vimscript" (a legacy Vim script loop).
	//
	// nvim_call_atomic is deprecated, but it is the fastest (1.26 ms per
	// 1000 calls against 1.37 for Lua and 3.5 for Vim script; BENCHMARKS.md)
	// and the only fast one that keeps values exact: through Lua, an
	// integral Float comes back as a Number and a Blob as a String. If a
	// Neovim drops it, the batch falls back to Lua.
	BatchMode string
	noAtomic  atomic.Bool
}

// Call implements Adapter.
func (n *Nvim) Call(ctx context.Context, fn string, args []any) (wire.Raw, error) {
	if args == nil {
		args = []any{}
	}
	raw, err := n.c.Call(ctx, "nvim_call_function", []any{fn, args})
	if err != nil {
		if re, ok := err.(*rpc.RemoteError); ok {
			return nil, &CallError{Fn: fn, Msg: trimThrowpoint(re.Error())}
		}
		return nil, err
	}
	return raw, nil
}

// Notify implements Adapter.
func (n *Nvim) Notify(ctx context.Context, fn string, args []any) error {
	if args == nil {
		args = []any{}
	}
	return n.c.Notify(ctx, "nvim_call_function", []any{fn, args})
}

// Neovim puts where a user exception was thrown in front of its message
// ("function A[2]..B, line 6: message"). The message alone reads better.
var throwpoint = regexp.MustCompile(`^(?:function |Error executing lua: )?\S*\[\d+\](?:\.\.\S+)*, line \d+: `)

func trimThrowpoint(msg string) string {
	return throwpoint.ReplaceAllString(msg, "")
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

// Batch implements Adapter.
func (n *Nvim) Batch(ctx context.Context, calls []Call) ([]wire.Raw, error) {
	switch n.BatchMode {
	case "lua", "vimscript":
		list := make([]any, len(calls))
		for i, c := range calls {
			args := c.Args
			if args == nil {
				args = []any{}
			}
			list[i] = []any{c.Fn, args}
		}
		var raw wire.Raw
		var err error
		if n.BatchMode == "lua" {
			raw, err = n.c.Call(ctx, "nvim_exec_lua", []any{batchLua, []any{list}})
		} else {
			raw, err = n.c.Call(ctx, "nvim_call_function", []any{protocol.FuncBatch, []any{list}})
		}
		if err != nil {
			return nil, err
		}
		return decodeBatch(n.codec, calls, raw)
	}
	if n.noAtomic.Load() {
		return (&Nvim{c: n.c, codec: n.codec, BatchMode: "lua"}).Batch(ctx, calls)
	}
	atomic := wire.Appender(func(b []byte) ([]byte, error) {
		return msgpackrpc.AppendAtomicCalls(b, calls, func(c Call) (string, []any) { return c.Fn, c.Args })
	})
	raw, err := n.c.Call(rpc.WithoutDirectRead(ctx), "nvim_call_atomic", []any{atomic})
	if re, ok := err.(*rpc.RemoteError); ok && strings.Contains(re.Error(), "nvim_call_atomic") {
		// "Invalid method: nvim_call_atomic": a Neovim without it.
		n.noAtomic.Store(true)
		return n.Batch(ctx, calls)
	}
	if err != nil {
		return nil, err
	}
	return decodeBatch(n.codec, calls, raw)
}
