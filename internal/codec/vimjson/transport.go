package vimjson

import (
	"fmt"
	"strings"
)

// This file is the one table of how the plugin's calls reach Vim, with
// every trick of Vim's channel that this takes (docs/ARCHITECTURE.md,
// section 4.1): the way calls go (Transport), the runtime's functions that
// carry them, how function names are sent (FuncLegacy for builtins, "g:"
// for global functions) and read back in errors, and the chunking of large
// messages. The codec frames messages by it, and the Vim adapter in
// internal/host names the functions it calls by it.

// Transport is the way the plugin's calls reach Vim, as the runtime chose
// it for this process ($VIGOR_VIM_CALLS, from g:vigor#vim_calls).
//
// Why two ways: after every channel callback Vim sets channel_need_redraw
// and redraws (redraw_after_callback(): update_screen(), the cursor turned
// off and on, out_flush()). With a screen that writes to the terminal on
// every call; in Ex mode there is nothing to draw. A "call" channel
// command does not set the flag. So the command way is the faster with a
// screen and the callback way without one (BENCHMARKS.md, "Vim calls with
// a screen"), and the runtime's 'auto' picks by mode(1).
//
// The two ways give the same results and errors (e2e TestVimCallPaths),
// except:
//   - under a user's :silent!, errors stay silenced in the callback, as
//     they do for Vim's own functions there (a Vim error does not throw,
//     and the call answers as if nothing had failed; an explicit :throw is
//     still caught), while the wrapper's legacy :try turns them on again;
//   - in Vim's prefix of an error that call() raises itself, such as E117
//     ("Vim:E117: ..." from the def callback, "Vim(return):E117: ..." from
//     the wrapper);
//   - for a result JSON cannot carry (a Funcref): the callback answers
//     with an error that names it, while Vim answers a command with
//     [-id, "ERROR"], which the codec reads as "Vim could not answer".
type Transport struct {
	// Command sends calls as Vim's channel command "call" of FuncCall
	// ('command'). Otherwise ('callback', the default) they go as
	// messages [0, [-id, fn, args]] for the job's channel callback, a
	// def function. Both ways answer [-id, [result, error]].
	Command bool
}

// ParseTransport returns the Transport named by $VIGOR_VIM_CALLS:
// "callback" (or "") or "command".
func ParseTransport(vimCalls string) (Transport, error) {
	switch vimCalls {
	case "", "callback":
		return Transport{}, nil
	case "command":
		return Transport{Command: true}, nil
	}
	return Transport{}, fmt.Errorf("unknown way of calling Vim %q (want callback or command)", vimCalls)
}

// The runtime's functions (autoload/vigor/_internal/api/vim.vim) that
// carry calls and large messages.
const (
	// FuncCall is the legacy wrapper that runs a call sent as a "call"
	// command (Transport.Command): Vim runs channel commands with errors
	// silenced, and its :try turns them on again. It returns
	// [result, null] or [null, error].
	FuncCall = "vigor#_internal#api#vim#call"
	// FuncLegacy runs a builtin function in a legacy context, for the
	// def functions that run calls (the channel callback, and the batch
	// helper in both ways): there some builtins (eval(), execute(), map()
	// with a String) would read Vim9 script.
	FuncLegacy = "vigor#_internal#api#vim#legacy"
	// FuncChunk receives one piece of a large message; FuncChunked runs
	// the call whose pieces it names.
	FuncChunk   = "vigor#_internal#api#vim#chunk"
	FuncChunked = "vigor#_internal#api#vim#chunked"
)

// Large messages are sent to Vim in chunks. Vim re-parses a JSON message
// from its start each time more of it arrives, so one 10 MB message takes
// minutes; as chunks of ChunkSize it takes well under a second. A message
// whose payload is larger than ChunkThreshold is sent as calls of
// FuncChunk(key, text), each carrying a piece of the payload's JSON text,
// followed by a small message that names the key. The runtime joins and
// decodes the pieces (autoload/vigor/_internal/api/vim.vim).
const (
	ChunkThreshold = 512 << 10
	ChunkSize      = 256 << 10
)

// Call returns the function and arguments to send for a call of fn with
// args. In the callback way a builtin goes through FuncLegacy, since the
// callback is a def function; in the command way FuncCall is legacy
// script already.
func (t Transport) Call(fn string, args []any) (string, []any) {
	if !t.Command && IsBuiltin(fn) {
		return FuncLegacy, []any{fn, args}
	}
	return CallName(fn), args
}

// BatchCall returns the name to send for fn in a batch, and whether the
// call goes through FuncLegacy (as [FuncLegacy, [name, args]]): the batch
// helper is a def function in both ways, so every builtin does.
func (Transport) BatchCall(fn string) (name string, legacy bool) {
	return CallName(fn), IsBuiltin(fn)
}

// IsBuiltin reports whether fn names a builtin function: only those have
// a lower-case name without a scope or an autoload part.
func IsBuiltin(fn string) bool {
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

// CallName returns the name under which Vim9 script's call() finds fn: a
// global function (a name that starts with an upper-case letter and has no
// scope or autoload part) needs "g:". The wrapper's legacy call() takes
// "g:Name" too, so both ways send it.
func CallName(fn string) string {
	if fn != "" && fn[0] >= 'A' && fn[0] <= 'Z' && !strings.ContainsAny(fn, ":#.") {
		return "g:" + fn
	}
	return fn
}

// Message turns Vim's error message about fn back to the name the plugin
// used (undoing CallName): "g:Foo" becomes "Foo", but "g:FooBar" stays.
func Message(fn, msg string) string {
	g := CallName(fn)
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
