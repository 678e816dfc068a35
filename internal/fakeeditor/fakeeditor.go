// Package fakeeditor is an in-memory editor for the SDK's tests and for
// vigortest.Fake: the other end of a plugin's stdio, speaking Vim's JSON
// channel or Neovim's msgpack-RPC as the editor and Vigor's runtime
// (autoload/vigor/_internal/*.vim) speak them.
//
// A test makes requests and notifications to the plugin as vigor#request()
// and vigor#notify() do, scripts the editor's answers to the plugin's calls
// (Options.Answer), and observes the calls (Next). The editor's side of the
// protocol is the fake's:
//
//   - Vim: a request is the raw message [token, [method, params]], whose
//     answer comes as the channel command ["call", FuncReply, [token,
//     [result, error]]] followed by the wake-up [token, 0]; a call for the
//     runtime's channel callback, [0, [-id, fn, args]], or Vim's channel
//     command ["call", "vigor#_internal#api#vim#call", [fn, args], -id], is
//     answered [-id, [result, v:null]] or [-id, [v:null, error]]; builtins
//     come through the legacy helper and global functions with "g:"; large
//     messages come in chunks; an error of a "call" command without id is
//     silent, as Vim runs channel commands with errors silenced.
//   - Neovim: a request is the request $call [token, method, params] of
//     rpcrequest(), with the token as its id, answered with [result,
//     error], or with 0 ("later") and then by notifying FuncReply(token,
//     result, error); while a $call is open, a request is the
//     notification $request with the same params, answered by FuncReply;
//     as Neovim, the fake stops at a response that is not for the last of
//     its $calls still open; the
//     plugin's requests of nvim_call_function are answered with the result,
//     or with [0, message] in the error slot; a notification whose function
//     fails gets nvim_error_event [0, message], as Neovim sends it.
//   - Batches (the Vim helpers protocol.FuncVimBatch and protocol.FuncBatch,
//     Neovim's nvim_call_atomic, and the SDK's Lua loop through
//     nvim_exec_lua) run call by call through Answer and stop at the first
//     error, as the editors' do.
//
// The fake reads and writes with encoding/json and the msgpack library, not
// with the SDK's codecs: it checks them from the outside.
//
// Each call runs on a goroutine of its own, and the fake reads the next
// message once the answer is written, as an editor runs what comes on a
// channel in order; a call whose Answer makes a request to the plugin (an
// editor function that calls the plugin) lets the fake read on meanwhile,
// as the editor's nested wait does. A request counts as nested when the
// goroutine running an Answer makes it; one made by any other goroutine
// (a test's) is read after the running calls, as an editor reads a
// user's input only when it is idle, so that what those calls showed is
// there before the request's answer. (An Answer that makes a request
// from a goroutine of its own therefore waits for itself: the request
// fails at its context's end.)
// The pipes are io.Pipes: a write waits until the other side reads it.
package fakeeditor

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/vigorvim/vigor/internal/protocol"
)

// The editors that a fake can be.
const (
	Vim  = "vim"
	Nvim = "nvim"
)

// The editor versions that Env reports: the pinned editors.
const (
	VimVersion  = "9.0.1378"
	NvimVersion = "0.11.4"
)

// The runtime's functions of Vim's transport (autoload/vigor/_internal/api/vim.vim),
// as the plugin names them on the wire.
const (
	vimCall    = "vigor#_internal#api#vim#call"
	vimLegacy  = "vigor#_internal#api#vim#legacy"
	vimChunk   = "vigor#_internal#api#vim#chunk"
	vimChunked = "vigor#_internal#api#vim#chunked"
)

// Options configure an Editor.
type Options struct {
	// Editor is Vim or Nvim; empty means Nvim.
	Editor string
	// VimCalls is how the plugin calls Vim, for Env ($VIGOR_VIM_CALLS:
	// "callback", the default, or "command"). The fake answers both ways
	// whatever it says.
	VimCalls string
	// Answer runs the editor function fn (or, on Neovim, the API method
	// fn other than nvim_call_function and nvim_call_atomic) with args,
	// for a call or a notification of the plugin, and for each call of a
	// batch. Its error's text is the editor's message (such as
	// "Vim:E117: Unknown function: Nope"). Nil means that every function
	// returns v:null. It is not called for the runtime's functions that
	// carry the protocol (FuncReply, the transport's helpers, the batch
	// helpers), which the fake runs itself. Values are as the editor
	// decodes them: a Number is an int64, a Float a float64, a List an
	// []any, a Dict a map[string]any.
	Answer func(fn string, args []any) (any, error)
	// HelperError, if set, is asked before the fake runs a batch, with
	// the name of what runs it (protocol.FuncVimBatch, protocol.FuncBatch,
	// nvim_call_atomic or nvim_exec_lua); an error fails the batch as a
	// whole, as a runtime that lacks its helper or a Neovim without the
	// method does (a *Body is sent as it is).
	HelperError func(fn string) error
	// Record keeps every call for Next. Without it, nothing is kept.
	Record bool
}

// Body, returned as an error by Options.Answer (or HelperError), makes
// the fake answer the call with Value as it is, to test how the plugin
// takes answers that the runtime does not send: on Vim the body of the
// answer [-id, Value] to a call of the runtime's channel callback (the
// runtime sends [result, error] with a String error), on Neovim the error
// of the response. Elsewhere (Vim's channel command, a notification) it is
// an error like any other.
type Body struct{ Value any }

func (b *Body) Error() string { return fmt.Sprint(b.Value) }

// Call is an editor function that the plugin called or notified, as the
// plugin named it: without the transport's wrappers and "g:".
type Call struct {
	Fn      string
	Args    []any
	Request bool // the plugin waited for the answer
	// Batch holds the calls of a batch, in order, up to the one that
	// failed; Fn is then the editor function that ran it
	// (protocol.FuncVimBatch, protocol.FuncBatch or nvim_call_atomic).
	Batch []Call
}

func (c Call) String() string {
	kind := "notify"
	if c.Request {
		kind = "call"
	}
	if c.Batch != nil {
		return fmt.Sprintf("%s %s%v", kind, c.Fn, c.Batch)
	}
	return fmt.Sprintf("%s %s%v", kind, c.Fn, c.Args)
}

// Reply is the plugin's answer to a request, as the runtime's
// FuncReply takes it: [Result, Error].
type Reply struct {
	Result any
	// Error is the handler's error as the plugin sent it (a String, the
	// text that vigor#request() throws after "[vigor] name.method: "),
	// nil on success.
	Error any
	// Err says why no answer came: the plugin's output ended first.
	Err error
}

// Tuple returns the reply as the runtime's [result, error], or panics
// for a reply that did not come.
func (r Reply) Tuple() []any {
	if r.Err != nil {
		panic("fakeeditor: no answer: " + r.Err.Error())
	}
	return []any{r.Result, r.Error}
}

// ErrEnded is the Reply.Err and the Next error after the plugin's output
// ended; Err says why it ended.
var ErrEnded = errors.New("the plugin's output ended")

// Editor is a fake editor. Its methods are safe for concurrent use.
type Editor struct {
	opts Options
	vim  bool

	toPlugin   *io.PipeWriter // the plugin's stdin: the editor writes
	pluginIn   *io.PipeReader
	fromPlugin *io.PipeReader // the plugin's stdout: the editor reads
	pluginOut  *io.PipeWriter

	wmu sync.Mutex // serialises writes to toPlugin

	// nested gets a token when a goroutine in runners makes a request,
	// so that the read loop reads on (an editor function that calls the
	// plugin).
	nested chan struct{}

	mu sync.Mutex
	// Invariants, under mu: every token in replies is a request without
	// its answer, which the read loop delivers once and deletes; after
	// the read loop ended (ended is closed) replies is empty and stays so;
	// calls holds the recorded calls that Next has not taken.
	token   int64
	replies map[int64]chan Reply
	// open holds the ids of the $call requests without their response,
	// in the order they were written (Neovim's stack of rpcrequest()s):
	// a response must be for the last.
	open  []int64
	calls []Call
	// runners holds the goroutines (by id) whose Answer runs: each is
	// added by itself before it calls Answer and removed after.
	runners map[uint64]struct{}
	err     error // why the read loop ended
	chunks  map[string][]string
	added   chan struct{} // a token when calls grew

	answers sync.WaitGroup // the goroutines that run calls
	ended   chan struct{}  // closed when the read loop has returned
}

// New returns a fake editor and starts its read loop. The plugin reads
// PluginIn and writes PluginOut; whoever runs the plugin closes
// PluginOut once it has returned, as a process's exit closes its stdout,
// and Close ends both.
func New(opts Options) (*Editor, error) {
	switch opts.Editor {
	case "":
		opts.Editor = Nvim
	case Vim, Nvim:
	default:
		return nil, fmt.Errorf("fakeeditor: unknown editor %q (want vim or nvim)", opts.Editor)
	}
	if opts.Answer == nil {
		opts.Answer = func(string, []any) (any, error) { return nil, nil }
	}
	e := &Editor{
		opts: opts, vim: opts.Editor == Vim,
		nested:  make(chan struct{}, 1),
		replies: make(map[int64]chan Reply),
		runners: make(map[uint64]struct{}),
		chunks:  make(map[string][]string),
		added:   make(chan struct{}, 1),
		ended:   make(chan struct{}),
	}
	e.pluginIn, e.toPlugin = io.Pipe()
	e.fromPlugin, e.pluginOut = io.Pipe()
	go e.read()
	return e, nil
}

// Editor returns Vim or Nvim.
func (e *Editor) Editor() string { return e.opts.Editor }

// PluginIn is the plugin's stdin.
func (e *Editor) PluginIn() io.Reader { return e.pluginIn }

// PluginOut is the plugin's stdout. Closing it ends the fake's read
// loop: the requests that wait for an answer then fail with ErrEnded.
func (e *Editor) PluginOut() io.WriteCloser { return e.pluginOut }

// Env returns the environment that the runtime gives the process of
// plugin name (instance), as job.vim builds it, for serve's getenv.
func (e *Editor) Env(name, instance string) map[string]string {
	env := map[string]string{
		protocol.EnvPlugin:        name,
		protocol.EnvHost:          e.opts.Editor,
		protocol.EnvProtocol:      strconv.Itoa(protocol.Version),
		protocol.EnvInstance:      instance,
		protocol.EnvEditorVersion: NvimVersion,
		protocol.EnvPlatform:      "linux",
		protocol.EnvMode:          "test",
	}
	if e.vim {
		env[protocol.EnvEditorVersion] = VimVersion
		env[protocol.EnvVimCalls] = e.opts.VimCalls
		if e.opts.VimCalls == "" {
			env[protocol.EnvVimCalls] = "callback"
		}
	}
	return env
}

// CloseInput ends the plugin's input, as an editor that closes the
// channel does.
func (e *Editor) CloseInput() error { return e.toPlugin.Close() }

// Close ends the plugin's input and output, waits for the read loop and
// the calls under way, and returns Err.
func (e *Editor) Close() error {
	e.toPlugin.Close()
	e.fromPlugin.Close()
	<-e.ended
	e.answers.Wait()
	return e.Err()
}

// Done is closed when the fake has stopped reading: the plugin's output
// ended, or it wrote what an editor cannot read.
func (e *Editor) Done() <-chan struct{} { return e.ended }

// Err returns why the fake stopped reading (nil while it reads, and after
// the plugin closed its output), such as a message that the runtime
// would not take.
func (e *Editor) Err() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.err
}

// RequestAsync sends a request to the plugin, as vigor#request() does,
// and returns where its answer arrives.
func (e *Editor) RequestAsync(method string, args ...any) <-chan Reply {
	if args == nil {
		args = []any{}
	}
	ch := make(chan Reply, 1)
	e.mu.Lock()
	select {
	case <-e.ended:
		e.mu.Unlock()
		ch <- Reply{Err: e.endErr()}
		return ch
	default:
	}
	e.token++
	token := e.token
	e.replies[token] = ch
	_, nested := e.runners[goid()]
	e.mu.Unlock()
	if nested {
		select {
		case e.nested <- struct{}{}:
		default:
		}
	}
	var err error
	if e.vim {
		err = e.sendVim([]any{token, []any{method, args}})
	} else {
		err = e.sendCall(token, method, args)
	}
	if err != nil {
		e.mu.Lock()
		if _, ok := e.replies[token]; ok {
			delete(e.replies, token)
			ch <- Reply{Err: fmt.Errorf("fakeeditor: sending %s: %w", method, err)}
		}
		e.mu.Unlock()
	}
	return ch
}

// Request sends a request to the plugin and waits for its answer. The
// error is ctx's, when it ends first (the answer is then dropped, as the
// runtime drops the answer of a request whose wait ended), or the
// Reply's Err.
func (e *Editor) Request(ctx context.Context, method string, args ...any) (Reply, error) {
	ch := e.RequestAsync(method, args...)
	select {
	case r := <-ch:
		return r, r.Err
	case <-ctx.Done():
		e.mu.Lock()
		for token, c := range e.replies {
			if c == ch {
				delete(e.replies, token)
			}
		}
		e.mu.Unlock()
		select {
		case r := <-ch:
			return r, r.Err
		default:
		}
		return Reply{}, fmt.Errorf("fakeeditor: no answer to %s: %w", method, context.Cause(ctx))
	}
}

// Notify sends a notification to the plugin, as vigor#notify() and the
// runtime's reserved notifications ($async, $interrupt, $unload,
// $pending) do.
func (e *Editor) Notify(method string, args ...any) error {
	if args == nil {
		args = []any{}
	}
	if e.vim {
		return e.sendVim([]any{0, []any{method, args}})
	}
	return e.sendNvim([]any{2, method, args})
}

// Next returns the next recorded call (Options.Record). It waits until
// there is one, the plugin's output ends (ErrEnded) or ctx ends; a call
// recorded already is returned even when ctx has ended.
func (e *Editor) Next(ctx context.Context) (Call, error) {
	for {
		e.mu.Lock()
		if len(e.calls) > 0 {
			c := e.calls[0]
			e.calls[0] = Call{}
			e.calls = e.calls[1:]
			e.mu.Unlock()
			return c, nil
		}
		e.mu.Unlock()
		select {
		case <-e.added:
		case <-e.ended:
			e.mu.Lock()
			n := len(e.calls)
			e.mu.Unlock()
			if n == 0 {
				return Call{}, e.endErr()
			}
		case <-ctx.Done():
			e.mu.Lock()
			n := len(e.calls)
			e.mu.Unlock()
			if n == 0 {
				return Call{}, context.Cause(ctx)
			}
		}
	}
}

func (e *Editor) endErr() error {
	if err := e.Err(); err != nil {
		return fmt.Errorf("%w: %w", ErrEnded, err)
	}
	return ErrEnded
}

func (e *Editor) record(c Call) {
	if !e.opts.Record {
		return
	}
	e.mu.Lock()
	e.calls = append(e.calls, c)
	e.mu.Unlock()
	select {
	case e.added <- struct{}{}:
	default:
	}
}

// read is the read loop: it runs what the plugin writes, in order, until
// the plugin's output ends.
func (e *Editor) read() {
	var err error
	if e.vim {
		err = e.readVim(bufio.NewReaderSize(e.fromPlugin, 64<<10))
	} else {
		err = e.readNvim(bufio.NewReaderSize(e.fromPlugin, 64<<10))
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrClosedPipe) {
		err = nil
	}
	e.mu.Lock()
	e.err = err
	close(e.ended)
	for token, ch := range e.replies {
		ch <- Reply{Err: ErrEnded}
		delete(e.replies, token)
	}
	e.mu.Unlock()
	// The plugin's writes fail from now on, rather than block.
	e.fromPlugin.CloseWithError(ErrEnded)
}

// deliver hands the answer to the request token to its waiter; an
// answer that nobody waits for is dropped, as host#reply() drops it.
func (e *Editor) deliver(token int64, result, errVal any) {
	e.mu.Lock()
	ch := e.replies[token]
	delete(e.replies, token)
	e.mu.Unlock()
	if ch != nil {
		ch <- Reply{Result: result, Error: errVal}
	}
}

// dispatch runs a call on a goroutine of its own, and returns once it
// has answered, or once that goroutine makes a request to the plugin
// (a nested one).
func (e *Editor) dispatch(run func()) {
	select {
	case <-e.nested: // a token left by a request made after its call had answered
	default:
	}
	done := make(chan struct{})
	e.answers.Add(1)
	go func() {
		defer e.answers.Done()
		defer close(done)
		id := goid()
		e.mu.Lock()
		e.runners[id] = struct{}{}
		e.mu.Unlock()
		defer func() {
			e.mu.Lock()
			delete(e.runners, id)
			e.mu.Unlock()
		}()
		run()
	}()
	select {
	case <-done:
	case <-e.nested:
	}
}

// runFn runs the editor function fn for the plugin: the batch helpers
// and the transport's own here, any other through Answer.
func (e *Editor) runFn(fn string, args []any, request bool) (any, error) {
	fn = strings.TrimPrefix(fn, "g:")
	switch fn {
	case vimLegacy:
		if len(args) == 2 {
			name, _ := args[0].(string)
			list, _ := args[1].([]any)
			return e.runFn(name, list, request)
		}
	case protocol.FuncVimBatch, protocol.FuncBatch:
		if err := e.helperError(fn); err != nil {
			return nil, err
		}
		return e.batch(fn, args, request, false)
	}
	e.record(Call{Fn: fn, Args: args, Request: request})
	return e.opts.Answer(fn, args)
}

// helperError is Options.HelperError's error for the batch helper fn.
func (e *Editor) helperError(fn string) error {
	if e.opts.HelperError == nil {
		return nil
	}
	return e.opts.HelperError(fn)
}

// batch runs the calls [[fn, args], ...] of a Vim-script batch (or, for
// atomic, Neovim's [[method, params], ...] of nvim_call_atomic), one by
// one, up to the first that fails: [results, v:null] or [results, [index,
// error]] (atomic: [index, type, error]).
func (e *Editor) batch(fn string, args []any, request, atomic bool) (any, error) {
	var list []any
	if len(args) == 1 {
		list, _ = args[0].([]any)
	}
	if len(args) != 1 || (list == nil && args[0] != nil) {
		return nil, fmt.Errorf("Vim:E118: Too many arguments for function: %s", fn)
	}
	rec := Call{Fn: fn, Request: request, Batch: []Call{}}
	results := []any{}
	var failed any
	for i, item := range list {
		pair, _ := item.([]any)
		if len(pair) != 2 {
			failed = []any{int64(i), fmt.Sprintf("Vim:E714: List required: %v", item)}
			break
		}
		name, _ := pair[0].(string)
		cargs, _ := pair[1].([]any)
		name = strings.TrimPrefix(name, "g:")
		if (name == vimLegacy || atomic && name == "nvim_call_function") && len(cargs) == 2 {
			name, _ = cargs[0].(string)
			cargs, _ = cargs[1].([]any)
		}
		name = strings.TrimPrefix(name, "g:")
		rec.Batch = append(rec.Batch, Call{Fn: name, Args: cargs, Request: true})
		res, err := e.opts.Answer(name, cargs)
		if err != nil {
			if atomic {
				failed = []any{int64(i), int64(0), err.Error()}
			} else {
				failed = []any{int64(i), err.Error()}
			}
			break
		}
		results = append(results, res)
	}
	e.record(rec)
	return []any{results, failed}, nil
}

// takeChunks returns the call [fn, args] whose JSON text came in the n
// chunks of key, as vigor#_internal#api#vim#take() joins them.
func (e *Editor) takeChunks(args []any) (string, []any, error) {
	if len(args) != 2 {
		return "", nil, fmt.Errorf("%s takes a key and a count, got %v", vimChunked, args)
	}
	key, _ := args[0].(string)
	n, _ := args[1].(int64)
	e.mu.Lock()
	parts := e.chunks[key]
	delete(e.chunks, key)
	e.mu.Unlock()
	if int64(len(parts)) != n {
		return "", nil, fmt.Errorf("[vigor] a large message did not arrive in full: %d of %d chunks of %s", len(parts), n, key)
	}
	v, err := decodeJSON([]byte(strings.Join(parts, "")))
	if err != nil {
		return "", nil, fmt.Errorf("Vim:E474: Invalid argument: the chunks of %s: %v", key, err)
	}
	call, _ := v.([]any)
	if len(call) != 2 {
		return "", nil, fmt.Errorf("the chunks of %s hold %v, not [function, arguments]", key, v)
	}
	fn, _ := call[0].(string)
	list, _ := call[1].([]any)
	return fn, list, nil
}

// goid returns the id of the calling goroutine, read from the first line
// of its stack ("goroutine 7 [running]:"). Go gives no other way to tell
// an Answer's own requests (nested) from a test's, and the fake needs to.
func goid() uint64 {
	var buf [64]byte
	f := strings.Fields(string(buf[:runtime.Stack(buf[:], false)]))
	if len(f) < 2 {
		return 0
	}
	id, _ := strconv.ParseUint(f[1], 10, 64)
	return id
}
