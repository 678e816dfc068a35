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
// method; a panic's stack goes to the plugin's log.
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
// CallAs, Notify, Cmd, Exec, Eval, Batch, Redraw, Dispatch (another
// plugin's method, through the editor), and Infof, Warnf, Errorf and
// Debugf for messages to the user. Cmd runs one Ex command; Exec runs
// several lines as a script, as :source does. Errors raised by the editor
// are *EditorError; a failed call in a batch is a *BatchError that holds
// the results before it.
//
// # Values
//
// Values cross the channel as follows; the end-to-end tests check each
// line on both editors.
//
//	Vim                   Go (decoding into any)         Go -> Vim
//	Number                int64                          any integer type
//	Float                 float64                        float32, float64 (1.0 stays a Float)
//	String                string                         string
//	List                  []any                          slices and arrays; a nil slice is v:null
//	Dict                  map[string]any                 maps with string keys, structs (json tags)
//	v:true, v:false       bool                           bool
//	v:null, v:none (Vim)  nil                            nil, nil pointers and maps
//	Blob                  []byte (Neovim), []any (Vim)   see below
//
// Decode a Blob into a []byte parameter to get the same on both editors.
// A Go []byte reaches Vim as a List of Numbers (JSON has no Blob) and
// Neovim as a String (its API has no Blob; Neovim makes it a Blob only if
// it holds a NUL byte); list2blob() turns the List into a Blob. Vim script
// strings cannot hold NUL: a Go string with a NUL byte loses it on Vim and
// becomes a Blob on Neovim. Structs use their `json` tags on both editors.
// Payloads of 10 MB and more work both ways.
//
// # Output and logs
//
// The editor starts the plugin with the channel on stdin and stdout. Main
// moves the channel to close-on-exec descriptors of its own and points
// fd 1 at stderr and fd 0 at /dev/null (on Unix), so that output to
// stdout by any means (fmt.Println, C code, a raw write to fd 1, a child
// process that inherits it) goes to stderr and cannot disturb the
// channel. The runtime copies stderr to the plugin's log, where Logger
// writes too: log/<name>.log in Vigor's cache (~/.cache/vigor on Vim,
// stdpath('cache')/vigor on Neovim).
package vigor
