// Package protocol is the contract between the Vigor runtime (Vim script)
// and a plugin process (the SDK): environment variables, reserved method
// names and the editor functions that the SDK calls. It has no dependencies.
package protocol

// Version is the protocol version that this SDK and runtime speak. The
// runtime passes its version in EnvProtocol; the plugin reports its own in
// its ready message, and a mismatch fails the load with a clear message.
// Keep it in sync with s:PROTOCOL in autoload/vigor/_internal/process.vim
// (a test checks).
const Version = 3

// Environment variables that the runtime sets for a plugin process.
const (
	EnvPlugin        = "VIGOR_PLUGIN"         // plugin name
	EnvProtocol      = "VIGOR_PROTOCOL"       // runtime protocol version
	EnvInstance      = "VIGOR_INSTANCE"       // instance number, echoed back in ready
	EnvHost          = "VIGOR_HOST"           // "vim" or "nvim"
	EnvEditorVersion = "VIGOR_EDITOR_VERSION" // e.g. "9.0.1378" or "0.11.4"
	EnvPlatform      = "VIGOR_PLATFORM"       // "linux", "mac" or "windows"
	EnvMode          = "VIGOR_MODE"           // "release", "debug" or "test"
	EnvLog           = "VIGOR_LOG"            // log file path
	EnvDir           = "VIGOR_DIR"            // the plugin's source directory
	EnvVimCalls      = "VIGOR_VIM_CALLS"      // Vim only: "callback" or "command" (how calls reach Vim)
	EnvTrace         = "VIGOR_TRACE"          // "1": log every RPC message (g:vigor#trace)
)

// ChunkPrefix starts the keys of the large messages that a plugin process
// sends to Vim in chunks (internal/codec/vimjson): "{plugin}:{instance}:".
// Vim's store of messages received in part is shared by every plugin, and
// the runtime drops the keys of a process when its channel closes
// (vigor#_internal#api#vim#drop builds the same prefix).
func ChunkPrefix(plugin, instance string) string { return plugin + ":" + instance + ":" }

// Lines that the SDK writes to stderr when its session ends at the end of
// the channel, before any unload began: the runtime reads them to tell
// the user why a plugin that it did not stop went away. ClosedByEditor:
// the editor closed the channel (Neovim does when a plugin writes what is
// not msgpack-RPC); ClosedByPlugin: the channel's output descriptor is no
// longer the one the plugin was started with (the plugin closed it). The
// runtime has the same strings (s:CLOSED_BY_EDITOR, s:CLOSED_BY_PLUGIN in
// autoload/vigor/_internal/plugin.vim; a test checks).
const (
	ClosedByEditor = "vigor: the editor closed the channel"
	ClosedByPlugin = "vigor: the plugin closed its channel"
)

// Methods that the runtime sends to a plugin. Handler names may not start
// with ReservedPrefix.
const (
	ReservedPrefix  = "$"
	MethodAsync     = "$async"     // notify: [success_id, failure_id, method, params]
	MethodInterrupt = "$interrupt" // notify: [reason|null, budget?] (budget: milliseconds, see FuncStuck)
	MethodUnload    = "$unload"    // notify: [budget] (milliseconds; see UnloadBudget)
	MethodStats     = "$stats"     // request: [] -> {rss_kb, calls, rtt_p50_us, rtt_p99_us, goroutines}
	// MethodCall carries vigor#request() on Neovim: the request [token,
	// method, params] of rpcrequest(), answered with the reply tuple
	// [result, error]; or, when the answer takes long or a notification
	// of the plugin's went out meanwhile (it would run after rpcrequest()
	// returns), with the Number 0, "later", and then as a MethodRequest,
	// whose answer the runtime waits for in a wait that CTRL-C, timers
	// and other channels can enter. Neovim closes the channel when nested
	// requests are answered out of order, so the runtime keeps at most
	// one MethodCall open on a channel: a vigor#request() made while one
	// is open is a MethodRequest. See docs/ARCHITECTURE.md, "Requests".
	MethodCall = "$call"
	// MethodRequest carries a vigor#request() on Neovim whose channel has
	// a MethodCall open: the notification [token, method, params],
	// answered by notifying FuncReply(token, [result, error]).
	MethodRequest = "$request"
	// MethodPending asks whether the request with a token of
	// vigor#request() is still running: a notification [token], answered
	// by notifying FuncPending(token, running), then on Vim the wake-up
	// [token, 0] that ends the request's wait. running is true from the
	// moment the plugin read the request (also while the request waits to
	// start) until its answer has been written; after that, or for a
	// token it never read, false. The runtime sends it on Vim only, after
	// a request has waited for a second, and again every second, or at
	// once after a wake-up without the answer (the SDK writes the
	// wake-ups of its answers again while it keeps calling Vim): Vim
	// drops what it reads on a channel that is not JSON, an answer with
	// it, without a word, and the answer to the probe, written after the
	// request's answer, tells that an answer was lost. The same with
	// [success_id] asks about a request_async call (MethodAsync), from
	// the moment the plugin read it until its FuncResolve was written;
	// that answer has no wake-up. See docs/ARCHITECTURE.md, "Requests".
	MethodPending = "$pending"
)

// The unload budget. The runtime sends MethodUnload with [budget]: the
// milliseconds that the plugin has for all of its unload (its running
// request_async handlers answer, its unload hooks run, it reports with
// FuncUnloaded and exits). The budget is g:vigor#unload_timeout, whose
// default is UnloadBudget; a plugin that gets none (the editor closed the
// channel or sent SIGTERM) uses UnloadBudget too. The runtime kills the
// process UnloadGrace milliseconds after the budget has run out, and the
// processes that a plugin leaves in its process group get as long between
// SIGTERM and SIGKILL. A test keeps the figures equal to the runtime's
// (s:defaults in autoload/vigor/_internal/conf.vim, s:UNLOAD_GRACE in
// autoload/vigor/_internal/plugin.vim, s:GROUP_GRACE in
// autoload/vigor/_internal/job.vim).
const (
	UnloadBudget = 3000 // milliseconds
	UnloadGrace  = 500  // milliseconds
)

// StderrInLog is the line that the SDK writes to its stderr before it
// points its stderr at the log: the runtime has copied every line before
// it to the log, and what comes after it on that pipe is only Go's report
// of a fatal panic or error, which the log has already (the runtime keeps
// it for the failure message). A test keeps it equal to s:STDERR_IN_LOG in
// autoload/vigor/_internal/plugin.vim.
const StderrInLog = "vigor: the rest of stderr is in the log"

// Editor functions (autoload/vigor/_internal/...) that the SDK calls.
const (
	FuncReady    = "vigor#_internal#plugin#on_ready"    // (name, instance, info)
	FuncFailed   = "vigor#_internal#plugin#on_failed"   // (name, instance, message)
	FuncUnloaded = "vigor#_internal#plugin#on_unloaded" // (name, instance, error|v:null)
	FuncResolve  = "vigor#_internal#callback#resolve"   // (success_id, failure_id, ok, value)
	FuncEcho     = "vigor#_internal#echo#plugin"        // (level, name, message)
	FuncCmd      = "vigor#_internal#api#cmd"            // (cmd, vars)
	FuncExec     = "vigor#_internal#api#exec"           // (plugin, lines): sources lines; errors are "line N: ..."
	FuncEval     = "vigor#_internal#api#eval"           // (expr, vars)
	FuncDispatch = "vigor#_internal#api#dispatch"       // (plugin, method, params)
	FuncNotify   = "vigor#_internal#api#notify"         // (plugin, fn, args)
	FuncRedraw   = "vigor#_internal#api#redraw"         // (force)
	FuncBatch    = "vigor#_internal#api#batch"          // (calls), legacy script, both editors

	// FuncStuck: handlers still run a budget after an interrupt cancelled
	// them; the runtime says so and restarts the plugin.
	FuncStuck = "vigor#_internal#plugin#on_stuck" // (name, instance, method, others, budget_ms)
	// FuncReply takes the answer to a vigor#request(): on Neovim to a
	// MethodRequest or a MethodCall answered "later", on Vim to a request
	// [token, [method, params]] (there it is followed by the wake-up
	// response [token, 0]).
	FuncReply = "vigor#_internal#host#reply" // (token, [result, error])
	// FuncPending takes the answer to MethodPending.
	FuncPending = "vigor#_internal#host#pending" // (token or success_id, running)

	// Vim only (autoload/vigor/_internal/api/vim.vim). FuncVimOnCall is the
	// job's channel callback: it runs each call [-id, fn, args] that the
	// vimjson codec sends, in a Vim9 try/catch, and answers [result, error].
	// The functions that carry calls and large messages are named in
	// internal/codec/vimjson (transport.go).
	FuncVimOnCall = "vigor#_internal#api#vim#on_call" // (channel, [-id, fn, args])
	FuncVimBatch  = "vigor#_internal#api#vim#batch"   // (calls) -> [results, [index, error]|v:null]
)

// The answer to a vigor#request() is the reply tuple [result, error]:
// error is null when the handler succeeded (result is what it returned),
// else the message of its error, and result is null. The runtime takes the
// tuple in FuncReply (on Neovim as two arguments, result and error) and
// returns tuple[ReplyResult] when tuple[ReplyError] is null; otherwise
// it throws the message (see ErrorPrefix). A test checks the runtime's
// fast paths of vigor#request() (autoload/vigor.vim and its Vim9 twin)
// and vigor#_internal#request#fail against these.
const (
	ReplyResult = 0 // index of the result in the reply tuple
	ReplyError  = 1 // index of the error message in the reply tuple
	ReplyLen    = 2 // the tuple's length
)

// The error object: what the failure callback of vigor#request_async()
// gets, made by the SDK (for a handler that failed) and by the runtime
// (for a call that the plugin never answered: s:error_object in
// autoload/vigor/_internal/outbox.vim; a test checks it has the same keys
// and the same values). Its keys are the ErrorKey* constants; the value
// of ErrorKeyName is ErrorName, and that of ErrorKeyMessage is the text
// that vigor#request() would throw after "[vigor] plugin.method: "
// (ErrorPrefix).
const (
	ErrorName       = "VigorError"
	ErrorKeyName    = "name"    // ErrorName
	ErrorKeyPlugin  = "plugin"  // the plugin's name
	ErrorKeyMethod  = "method"  // the method called
	ErrorKeyMessage = "message" // what went wrong, without ErrorPrefix and the call
)

// ErrorPrefix starts every error that Vigor's runtime throws. The error
// of a call of method of plugin whose handler failed with message reads
// ErrorPrefix + plugin + "." + method + ": " + message (one nested in
// another request reads differently: s:nested in
// autoload/vigor/_internal/request.vim).
const ErrorPrefix = "[vigor] "

// ErrorObject is the error object of a request_async call of method of
// plugin that failed with message.
func ErrorObject(plugin, method, message string) map[string]any {
	return map[string]any{
		ErrorKeyName:    ErrorName,
		ErrorKeyPlugin:  plugin,
		ErrorKeyMethod:  method,
		ErrorKeyMessage: message,
	}
}
