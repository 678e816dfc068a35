// Package host is the plugin's one door to its editor. Open builds, for
// one editor, the codec, the writer, the session and the editor adapter
// together and returns a Conn, through which the SDK calls the editor
// (Call, Notify, batches: Conn's Editor) and serves it (Config.Handler).
// The SDK holds neither the session nor the codec, and never sees an
// encoded value: what the editor sends reaches it as a Value or as
// Values, which carry the means to decode them (value.go).
//
// Conn owns the editor protocol that is not a plugin's (inbound.go): it
// answers the runtime's $pending, from the session's requests being
// answered and from the success ids of the request_async calls being
// answered, which it notes as it reads $async; it reads $async into an
// Async for Handler.Async and writes its answer (Resolve); and it keeps
// the editor's own notifications for its log. The SDK keeps plugins,
// handlers, the rules that turn values into Go types, and lifetimes.
//
// Every protocol detail of an editor on top of its channel's codec is in
// that editor's file (vim.go, nvim.go): how the runtime's vigor#request()
// arrives and is answered, request ids, the wake-ups of Vim's wait,
// Neovim's nvim_error_event, the keys of Vim's chunked messages, the way
// calls reach Vim; and its adapter, which turns the SDK's editor
// operations into the messages that editor understands, and the editor's
// errors into Go errors. The codecs (internal/codec) only frame messages
// and encode values. Editor differences stop here: nothing above this
// package asks which editor it talks to.
package host

import (
	"context"
	"fmt"
	"io"

	"github.com/vigorvim/vigor/internal/codec/vimjson"
	"github.com/vigorvim/vigor/internal/rpc"
	"github.com/vigorvim/vigor/internal/wire"
)

// Caller is the part of rpc.Session that adapters use. It keeps nothing
// of params once Call or Notify has returned: adapters reuse them.
// Neovim's adapter passes the params of nvim_call_function as the one
// value *msgpackrpc.FuncCall, which the codec writes as [Fn, Args].
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

// Codec is the codec of a plugin's channel to its editor: the editor's
// codec with Vigor's protocol on top (vimCodec, nvimCodec). Get one from
// NewCodec; a session reads and writes through it, and Wake and New take
// it.
type Codec interface {
	wire.Codec
	// Buffered is the codec's (the session reads directly when it has it).
	Buffered() int
	// RequestID is the session's id of the request with token of
	// vigor#request().
	RequestID(token int64) int64
	// Wake is what writes the wake-up of the runtime's wait for the answer
	// to a request (Reminder), or nil when the editor needs none.
	Wake() func(b []byte, id int64) []byte
	adapter(c Caller) Adapter
	// attach gives the codec the session that reads and writes through
	// it, before the session runs, for what it writes of its own
	// (Neovim's late responses, calls).
	attach(w RawWriter)
}

// NewCodec returns the codec that host ("vim" or "nvim") speaks to a
// plugin of Vigor, reading r. For Vim, vimCalls is how calls reach it
// ($VIGOR_VIM_CALLS: "callback", the default, or "command";
// vimjson.Transport), and plugin and instance make the keys of its
// chunked messages unique to the plugin's process (protocol.ChunkPrefix).
func NewCodec(host, vimCalls, plugin, instance string, r io.Reader) (Codec, error) {
	switch host {
	case "vim":
		return newVimCodec(r, vimCalls, plugin, instance)
	case "nvim":
		return newNvimCodec(r), nil
	}
	return nil, fmt.Errorf("unknown editor %q (want vim or nvim)", host)
}

// New returns the adapter that calls the editor of codec through c.
func New(c Caller, codec Codec) Adapter { return codec.adapter(c) }

// NewAdapter returns the adapter for host over c and codec, a plain codec
// of that editor (vimjson, msgpackrpc) with the default way of calls: for
// programs that drive an editor through a session of their own, such as
// the e2e tests.
func NewAdapter(host string, c Caller, codec wire.Codec) Adapter {
	if host == "vim" {
		return &Vim{c: c, codec: codec}
	}
	return &Nvim{c: c, codec: codec}
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
