// Package vigor is the SDK for Vigor plugins: Vim and Neovim plugins
// written in Go.
//
// A plugin is a main package in <repo>/vigor/<name>/ inside a Go module.
// Vigor (the runtime, in Vim script) finds it on 'runtimepath', builds it
// with the user's Go toolchain, starts it as a job and talks to it over
// the job's stdio: Vim's JSON channel or Neovim's msgpack-RPC. The same
// plugin code runs in both editors.
//
//	func main() {
//		vigor.Main(func(ctx context.Context, p *vigor.Plugin) error {
//			p.Handle("greet", func(ctx context.Context, name string) (string, error) {
//				return "Hello, " + name + "!", nil
//			})
//			return nil
//		})
//	}
//
// From Vim script: vigor#request('hello', 'greet', ['CI']) returns
// 'Hello, CI!'; vigor#notify() and vigor#request_async() call it without
// waiting. See :help vigor.
//
// # Handlers
//
// Plugin.Handle registers a method. Its parameters are decoded from the
// editor's arguments, in order, after an optional context.Context; a
// variadic last parameter takes the rest. It returns nothing, a result, an
// error, or (result, error). A wrong number or type of arguments, an error
// and a panic all reach the user as one line naming the plugin and the
// method, the same on both editors; a panic's stack goes to the plugin's
// log. A value that does not fit names the argument, the place in it and
// what was expected, in Vim's words:
//
//	[vigor] vtest.point: argument 1: field "x": expected a Number, got a Float (1.5)
//	[vigor] vtest.greet: takes 1 argument (a String), got 0
//
// Each request runs on its own goroutine, so a handler may call the editor
// while the editor waits on it, and the editor may call the plugin again
// meanwhile (re-entrancy). Notifications run one at a time, in the order
// they were sent, and a request starts only after the notifications sent
// before it have run.
//
// A handler's context is cancelled by vigor#interrupt() (its cause wraps
// ErrInterrupted), when the plugin is unloaded or the editor goes away
// (ErrUnloaded).
//
// # Calling the editor
//
// Every method that talks to the editor takes a context first: Call,
// CallAs, Notify, Cmd, Exec, Eval, EvalAs, Batch, Redraw, Dispatch
// (another plugin's method, through the editor), and Infof, Warnf, Errorf
// and Debugf for messages to the user. Cmd runs one Ex command; Exec runs
// several lines as a script, as :source does. Errors raised by the editor
// are *EditorError, whose Msg is the editor's message alone, the same on
// both editors (without Neovim's note of the call stack, which goes to
// the log). A result that is a Funcref, which no channel carries, fails
// Eval on both editors and Call on Vim; Neovim's API sends it to Call as
// v:null.
//
// A Caller is what a helper needs from the editor: CallInto, EvalInto,
// Cmd, Meta, and Batching, which says whether the calls are recorded in a
// batch. *Plugin is one, and so is *Batch, so CallAs, EvalAs and any
// function that takes a Caller work unchanged in a batch. A Caller that
// wraps another, to log or trace the calls, forwards Batching with the
// rest (embedding the wrapped Caller does), and batches as it does.
//
// Plugin.Batch runs a record func with a *Batch and sends the calls made
// through it in one round trip. Inside a batch, calls are only recorded:
// those that return a value return the zero value, and b.Into(&v) is the
// Caller that receives one, in v, once the batch has run. A failed call
// in a batch is a *BatchError that holds the results before it; the
// calls after it do not run. RunBatch lets a helper that takes a Caller
// group its calls: in a batch of its own, or in the caller's.
//
// The packages under std wrap the editors' builtin functions (std/fn for
// those both editors have, std/vimfn and std/nvimfn for the others) and
// Neovim's API (std/nvimapi) in typed Go functions, generated from the
// pinned editors. Each takes a Caller, so it works on a *Plugin and
// inside a Batch: fn.GetlineEnd(ctx, p, 1, "$") is a []string.
//
// # Values
//
// Values cross the channel as follows; the end-to-end tests check each
// line on both editors.
//
//	Vim                   Go (decoding into any)         Go -> Vim
//	Number                int64                          any integer type (at most math.MaxInt64)
//	Float                 float64                        float32, float64 (1.0 stays a Float)
//	String                string                         string
//	List                  []any                          slices and arrays; a nil slice is [] (1)
//	Dict                  map[string]any                 maps with string keys, structs (json tags)
//	v:true, v:false       bool                           bool
//	v:null, v:none (Vim)  nil                            nil, nil pointers and maps
//	Blob                  string (Neovim), []any (Vim)   see below
//
// (1) A nil slice is an empty List, so that a function that takes a List
// gets one (setline(), setqflist()); inside a Dict or a struct it is
// v:null, as msgpack's encoder writes it for Neovim. A nil []byte is
// v:null.
//
// Neither channel carries a Blob as such: Neovim's API sends it as a String
// and Vim's JSON as a List of Numbers, so a parameter of type any gets a
// string on Neovim and an []any of int64 on Vim. Decode a Blob into a
// []byte parameter to get the same bytes on both editors. A Go []byte
// reaches Vim as a List of Numbers and Neovim as a String (Neovim makes it
// a Blob only if it holds a NUL byte); list2blob() turns the List into a
// Blob. Vim script strings cannot hold NUL: a Go string with a NUL byte
// loses it on Vim and becomes a Blob on Neovim. Payloads of 10 MB and more
// work both ways.
//
// Typed parameters (and the results of CallAs) take what fits them, by the
// same rules on both editors: an integer type a Number in its range (300
// does not fit a uint8), a bool v:true, v:false or the Number 1 or 0 (what
// most functions return for yes and no), a float type a Float or a Number, a string a
// String, a []byte a Blob, a String or a List of Numbers from 0 to 255, a
// slice or an array a List (no longer than the array), a map a Dict (an
// integer key type takes decimal keys), a struct a Dict (never a List),
// with keys matched to fields by their `json` tags, or else without regard
// to case, as encoding/json does. A type that implements json.Unmarshaler
// decodes itself from the value's JSON text, and one that implements
// encoding.TextUnmarshaler from a String, on both editors. v:null is
// refused for a parameter that cannot be nil (a Number, a String, a
// struct...); a pointer, a slice, a map or an any takes it as nil. Inside
// a List or a Dict, v:null leaves the zero value, as a missing key does.
//
// What the editor cannot take fails before it is sent: a result fails the
// request, an argument the call, with an error that names it. That is a
// uint64 above math.MaxInt64 (a Number is a signed 64-bit integer), a map
// whose keys are not strings, a type with no form on the channel (a chan,
// a func, a complex number), and Lists and Dicts nested deeper than the
// editor reads: Neovim reads a message with values at most 32 levels
// deep (a String's bytes count as a level), which leaves a handler's
// result and an argument of Call 28 levels of Lists and Dicts around
// Strings, 29 around Numbers; to Vim, Vigor sends 50000 levels, short of
// where Vim's own recursion over a value crashes it. From either editor
// a value nested more than 10000 deep fails its decoding. Strings that are
// not valid UTF-8 reach Vim with each invalid byte replaced by U+FFFD (Vim
// drops a message that holds one, and its caller would wait for ever), and
// come from Vim so too; Neovim keeps the bytes as they are, both ways.
//
// # Output and logs
//
// The editor starts the plugin with the channel on stdin and stdout. Main
// moves the channel to close-on-exec descriptors of its own and points
// fd 1 at stderr and fd 0 at /dev/null (on Unix), so that output to
// stdout by any means (fmt.Println, C code, a raw write to fd 1, a child
// process that inherits it) goes to stderr and cannot disturb the
// channel. Besides the channel and stderr, a plugin holds no descriptor of
// the editor's: those it inherits without close-on-exec (Vim gives each
// job the editor's ends of the other plugins' pipes, and its sockets) are
// closed when this package is initialised, before the plugin's own code
// runs. Then Main points fds 1 and 2 at the plugin's log, where Logger
// writes too: log/<name>.log in Vigor's cache (~/.cache/vigor on Vim,
// stdpath('cache')/vigor on Neovim), or, when the cache cannot be written,
// vigor/log/<name>.log in the state directory; the runtime passes the path
// in $VIGOR_LOG. Only the user may read the file. So
// whatever the plugin prints, however much, costs the editor nothing, and
// Go's report of a panic that ends the process is in the log (the
// runtime also gets it, for the message that the plugin crashed). A panic
// in a handler, a setup or an unload hook is logged as one record that
// says where it happened, followed by the stack, indented. Elsewhere than
// on Unix the runtime copies stderr to the log.
//
// # Child processes
//
// On Unix (Linux, macOS, the BSDs) the editor starts the plugin in a
// session of its own, so the plugin leads a process group, and the
// processes it starts (a language server, a watcher) are in that group.
// They end with the plugin, however it ends: the group gets SIGTERM, and
// what still runs a grace of 500 ms later gets SIGKILL. The runtime does
// so once the process has exited (an unload, a reload, a crash, a kill
// from outside), and on Linux Main does so too as it exits, when it leads
// its session, which covers the editor quitting or being killed
// (elsewhere, the SIGTERM that the editor sends the group as it quits is
// all they get). To end them more gently, stop them in an unload hook
// (OnUnload).
//
// A process meant to outlive the plugin (a daemon that other sessions
// share) must leave the group: start it in a session of its own.
//
//	cmd := exec.Command("mydaemon")
//	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
//	err := cmd.Start()
//
// Nothing ends such a process: it is the plugin's to stop, or to find
// again when the plugin starts the next time.
package vigor
