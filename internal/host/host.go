// Package host holds one adapter per editor. An adapter turns the SDK's
// editor operations (call a function, notify, batch) into the messages that
// editor understands, and turns the editor's errors into Go errors. Editor
// differences stop here: nothing above this package asks which editor it
// talks to.
package host

import (
	"context"
	"errors"
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
// Msg is the editor's message as the user should see it (editorMessage);
// Full is the message as the editor sent it, for the log.
type CallError struct {
	Fn   string
	Msg  string
	Full string
}

func (e *CallError) Error() string {
	return fmt.Sprintf("%s(): %s", e.Fn, e.Msg)
}

// BatchError says which call of a batch failed; the calls before it ran.
// Msg and Full are as in CallError.
type BatchError struct {
	Index int
	Fn    string
	Msg   string
	Full  string
}

func (e *BatchError) Error() string {
	return fmt.Sprintf("call %d of the batch, %s(): %s", e.Index, e.Fn, e.Msg)
}

// ArgError is an argument of a call that cannot be sent to the editor:
// the codec refused it (a *wire.ValueError), so the call was not made.
type ArgError struct {
	Fn   string // the function called
	Call int    // the call's index in a batch, or -1
	Arg  int    // the argument's index, counting from 0
	Err  *wire.ValueError
	base int // how many items of Err.Path lead to the argument
}

// Msg says what is wrong with the argument, for users.
func (e *ArgError) Msg() string { return e.Err.At(e.base) }

// Item returns, for an argument that is a List, the index of its item
// that holds what is wrong, and what is wrong with that item; ok is false
// when the codec did not say.
func (e *ArgError) Item() (index int, msg string, ok bool) {
	if len(e.Err.Path) <= e.base {
		return 0, "", false
	}
	return e.Err.Path[e.base], e.Err.At(e.base + 1), true
}

func (e *ArgError) Error() string {
	s := fmt.Sprintf("%s(): argument %d: %s", e.Fn, e.Arg+1, e.Msg())
	if e.Call >= 0 {
		s = fmt.Sprintf("batch call %d, %s", e.Call, s)
	}
	return s
}

func (e *ArgError) Unwrap() error { return e.Err }

// argError returns err as an *ArgError of fn if the codec refused one of
// the arguments: the argument is at Path[base-1] of the codec's error.
func argError(fn string, call int, err error, base int) error {
	if err == nil {
		return nil
	}
	return argErrorOf(fn, call, err, base)
}

// argErrorOf is argError for an error: apart, so that the success path
// does not allocate the target of errors.As.
func argErrorOf(fn string, call int, err error, base int) error {
	var ve *wire.ValueError
	if errors.As(err, &ve) && len(ve.Path) >= base {
		return &ArgError{Fn: fn, Call: call, Arg: ve.Path[base-1], Err: ve, base: base}
	}
	return err
}

// Adapter is what every editor adapter provides.
type Adapter interface {
	Call(ctx context.Context, fn string, args []any) (wire.Raw, error)
	Notify(ctx context.Context, fn string, args []any) error
	// NewBatch returns an empty Batch for this editor, and SendBatch runs
	// its calls in one round trip and returns their results; if a call
	// fails, the error is a *BatchError and the results are those of the
	// calls before it.
	NewBatch() *Batch
	SendBatch(ctx context.Context, b *Batch) ([]wire.Raw, error)
	// EditorNotification reports whether m is a notification that the
	// editor sends of its own accord, rather than one of the runtime's
	// (a plugin's method, or a reserved one), and returns the error it
	// reports, if any, for the log. Neovim reports the failure of a
	// notification that the plugin sent with nvim_error_event.
	EditorNotification(m *wire.Message) (bool, error)
}

// NewCodec returns the codec that host ("vim" or "nvim") speaks. For Vim,
// vimCalls is how calls reach it ($VIGOR_VIM_CALLS: "callback", the
// default, or "command"; vimjson.Transport).
func NewCodec(host, vimCalls string, r interface{ Read([]byte) (int, error) }) (wire.Codec, error) {
	switch host {
	case "vim":
		t, err := vimjson.ParseTransport(vimCalls)
		if err != nil {
			return nil, err
		}
		c := vimjson.New(r)
		c.Transport = t
		c.ReplyFunc = protocol.FuncReply
		return c, nil
	case "nvim":
		c := msgpackrpc.New(r)
		c.RequestMethod, c.ReplyFunc = protocol.MethodRequest, protocol.FuncReply
		return c, nil
	}
	return nil, fmt.Errorf("unknown editor %q (want vim or nvim)", host)
}

// RequestID is the session's id of the request with token of
// vigor#request() on host: on Vim the token itself, on Neovim, where the
// request comes as protocol.MethodRequest, the id the codec gives it,
// -token.
func RequestID(host string, token int64) int64 {
	if host == "nvim" {
		return -token
	}
	return token
}

// Wake returns what writes the wake-up of the runtime's wait for the
// answer to a request (rpc.Options.Wake): on Vim, whose wait ends only on
// a wake-up and which drops input it cannot read, the codec's [id, 0];
// nil for Neovim, which closes a channel that sends what it cannot read.
func Wake(c wire.Codec) func(b []byte, id int64) []byte {
	if vc, ok := c.(*vimjson.Codec); ok && vc.ReplyFunc != "" {
		return vc.AppendWake
	}
	return nil
}

// PollWrites reports whether the plugin writes its channel to host through
// Go's runtime poller, from a non-blocking descriptor.
//
// Vim's job channel is a pipe. There the descriptor is made non-blocking
// and served by the poller: a write to a full pipe (a large message while
// Vim is busy) then parks only the goroutine, and Vim's batches are faster
// so (BENCHMARKS.md, "Writes to the editor").
//
// Neovim's job channel is a Unix socket. Every time Neovim reads from it,
// the kernel reports the socket writable again, and a descriptor on the
// poller wakes the plugin's idle thread for nothing, on every call and
// several times during a batch. So for Neovim it stays a plain blocking
// file: a write to a full socket blocks one OS thread, whose processor the
// runtime hands to the other goroutines.
func PollWrites(host string) bool { return host != "nvim" }

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

// New returns the adapter for host. For Vim it takes the codec's
// Transport.
func New(host string, c Caller, codec wire.Codec) Adapter {
	if host == "vim" {
		v := &Vim{c: c, codec: codec}
		if vc, ok := codec.(*vimjson.Codec); ok {
			v.t = vc.Transport
		}
		return v
	}
	return &Nvim{c: c, codec: codec}
}

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
func (v *Vim) NewBatch() *Batch { return &Batch{kind: batchVim, t: v.t} }

// SendBatch implements Adapter.
func (v *Vim) SendBatch(ctx context.Context, b *Batch) ([]wire.Raw, error) {
	fn := v.BatchFunc
	if fn == "" {
		fn = protocol.FuncVimBatch
	}
	list := wire.Appender(func(out []byte) ([]byte, error) {
		out = append(out, '[')
		out = append(out, b.buf...)
		return append(out, ']'), nil
	})
	raw, err := v.c.Call(rpc.WithoutDirectRead(ctx), fn, []any{list})
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

// RunBatch runs calls in one round trip through a Batch of a.
func RunBatch(ctx context.Context, a Adapter, calls []Call) ([]wire.Raw, error) {
	b := a.NewBatch()
	for _, c := range calls {
		if err := b.Add(c.Fn, c.Args); err != nil {
			return nil, err
		}
	}
	return a.SendBatch(ctx, b)
}

// decodeBatch reads [results, v:null | [index, message]].
func decodeBatch(codec wire.Codec, calls *Batch, raw wire.Raw) ([]wire.Raw, error) {
	pair, err := codec.SplitList(raw)
	if err != nil || len(pair) != 2 {
		return nil, fmt.Errorf("unexpected batch reply from the editor: %.100s", raw)
	}
	results, err := codec.SplitList(pair[0])
	if err != nil {
		return nil, fmt.Errorf("unexpected batch results from the editor: %w", err)
	}
	if codec.IsNull(pair[1]) {
		return results, nil
	}
	var fail []any
	if err := codec.Unmarshal(pair[1], &fail); err != nil || len(fail) < 2 {
		return results, fmt.Errorf("unexpected batch error from the editor: %.100s", pair[1])
	}
	idx, _ := fail[0].(int64)
	full := fmt.Sprint(fail[len(fail)-1])
	be := &BatchError{Index: int(idx), Msg: editorMessage(full), Full: full}
	if be.Index >= 0 && be.Index < calls.Len() {
		be.Fn = calls.Fn(be.Index)
	}
	if len(results) > be.Index {
		results = results[:be.Index]
	}
	return results, be
}

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
}

// Call implements Adapter.
func (n *Nvim) Call(ctx context.Context, fn string, args []any) (wire.Raw, error) {
	if args == nil {
		args = []any{}
	}
	raw, err := n.c.Call(ctx, "nvim_call_function", []any{fn, args})
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
	return argError(fn, -1, n.c.Notify(ctx, "nvim_call_function", []any{fn, args}), 2)
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

// Neovim puts where an error was raised in front of its message: the
// call stack, its entries joined by "..", each the function or script and
// its line, the kind of entry named where it changes, then the line of
// the last one: "function A[2]..B, line 6: ", or, for a chain that
// started in a sourced script, "function VigorTestExec[2]..script
// /tmp/x.vim[3]..function vigor#request[10]..Do[1]..Inner, line 1: ",
// or, for one that started at the top of a sourced script (:source typed,
// -S), the script's path, which may hold spaces, and its line first:
// "/tmp/my x.vim[3]..function Check[2]..vigor#request, line 64: ".
// Vim does not (its v:exception is the message alone).
//
// Only a stack at the start of the message goes: its first entry is a
// path or a name with its line ("[N]"), or an entry of a named kind, and
// every later one a name, or a kind and its text; no entry holds ": "
// (an error's own text, such as "E492: ...", does), so a message that
// quotes something like a stack ("echo l[1].. 'a, line 2: b'") is kept.
var throwpoint = regexp.MustCompile(func() string {
	const (
		text  = `(?:[^\[\]:]|:[^ ])` // a character of an entry: no brackets, no ": "
		num   = `\[\d+\]`
		kind  = `(?:function|script|autocommand|modeline|lambda|internal) ` + text + `+?`
		entry = `(?:` + kind + `|[^\s\[\]]+)(?:` + num + `)?`
		first = `(?:` + kind + `(?:` + num + `)?|[^\s\[\]]` + text + `*?` + num + `)`
	)
	return `^(?:Error executing lua: )?` + first + `(?:\.\.` + entry + `)*, line \d+: `
}())

// editorMessage is the message of an error that the editor raised, as the
// user should see it: the message itself, the same on both editors. The
// stack in front of it (throwpoint) names the runtime's private functions
// and the user's scripts; it stays in the log (CallError.Full).
func editorMessage(msg string) string {
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

// NewBatch implements Adapter.
func (n *Nvim) NewBatch() *Batch {
	if n.listMode() {
		return &Batch{kind: batchList}
	}
	return &Batch{kind: batchAtomic}
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
	raw, err := n.c.Call(rpc.WithoutDirectRead(ctx), "nvim_call_atomic", []any{atomic})
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
