package vigortest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/vmihailenco/msgpack/v5"

	"github.com/vigorvim/vigor"
	"github.com/vigorvim/vigor/internal/codec/msgpackrpc"
	"github.com/vigorvim/vigor/internal/protocol"
	"github.com/vigorvim/vigor/internal/wire"
)

// Func is an editor function of a Fake: it gets the arguments that the
// plugin passed (a Number is an int64, a List an []any, a Dict a
// map[string]any) and returns the result, or an error whose text the
// plugin sees as the editor's message (such as "Vim:E121: Undefined
// variable: x").
type Func func(args ...any) (any, error)

// FakeOptions configure a Fake.
type FakeOptions struct {
	// Name is the plugin's name. Empty means "fake".
	Name string
	// Funcs are the editor functions that the plugin may call, by name
	// (p.Call, vigor.CallAs, the std wrappers, batches). A call of any
	// other function fails with E117, as in the editor.
	Funcs map[string]Func
	// Cmd runs p.Cmd's command, and each line of p.Exec. Nil means that
	// every command succeeds and does nothing.
	Cmd func(cmd string, vars map[string]any) error
	// Eval evaluates p.Eval's expression. Nil means that every expression
	// fails.
	Eval func(expr string, vars map[string]any) (any, error)
	// Timeout bounds each Request. Zero means 10 s.
	Timeout time.Duration
}

// Fake is an in-memory editor for fast unit tests of a plugin's handlers:
// the plugin's setup runs in the test's process, connected to the Fake by
// pipes that carry Neovim's protocol, and its calls to the editor go to
// the Go functions of FakeOptions. Meta().Host is "nvim". No Vim script
// runs: to test behaviour that needs a real editor, use Each.
//
// Its methods are safe for concurrent use.
type Fake struct {
	t       testing.TB
	opts    FakeOptions
	toP     *io.PipeWriter // editor -> plugin
	fromP   *io.PipeReader // plugin -> editor
	logPath string
	done    chan int // serve's exit code

	wmu sync.Mutex // serialises writes to toP

	mu sync.Mutex
	// Invariants, under mu: every token in replies is a Request waiting
	// for its answer, which the read loop delivers once and deletes;
	// messages grows only.
	next     int64
	replies  map[int64]chan reply
	messages []string

	ready chan error // the plugin's setup returned: nil, or why it failed
}

type reply struct {
	result any
	err    error
}

// NewFake starts the plugin set up by setup against a Fake, waits until
// its setup has returned, and stops it when the test ends. A setup that
// fails fails the test.
func NewFake(t testing.TB, opts FakeOptions, setup func(ctx context.Context, p *vigor.Plugin) error) *Fake {
	t.Helper()
	if opts.Name == "" {
		opts.Name = "fake"
	}
	if opts.Timeout == 0 {
		opts.Timeout = 10 * time.Second
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	f := &Fake{t: t, opts: opts, toP: inW, fromP: outR, done: make(chan int, 1),
		replies: make(map[int64]chan reply), ready: make(chan error, 1),
		logPath: filepath.Join(t.TempDir(), opts.Name+".log")}
	env := map[string]string{
		protocol.EnvPlugin:        opts.Name,
		protocol.EnvHost:          "nvim",
		protocol.EnvProtocol:      strconv.Itoa(protocol.Version),
		protocol.EnvInstance:      "1",
		protocol.EnvEditorVersion: "0.11.4",
		protocol.EnvPlatform:      "linux",
		protocol.EnvMode:          "test",
		protocol.EnvLog:           f.logPath,
	}
	// The read loop is the Fake's: it ends when the plugin's output does.
	go f.read()
	go func() {
		f.done <- vigor.Serve(context.Background(), func(k string) string { return env[k] }, inR, outW, io.Discard, setup)
		outW.Close()
	}()
	t.Cleanup(func() {
		inW.Close()
		select {
		case <-f.done:
		case <-time.After(10 * time.Second):
			t.Errorf("vigortest: the plugin did not stop within 10 s of the end of its input")
		}
	})
	select {
	case err := <-f.ready:
		if err != nil {
			t.Fatalf("vigortest: %s failed to load: %v", opts.Name, err)
		}
	case code := <-f.done:
		f.done <- code
		t.Fatalf("vigortest: %s exited (status %d) before it loaded; its log: %s", opts.Name, code, f.log())
	case <-time.After(opts.Timeout):
		t.Fatalf("vigortest: %s did not load within %s", opts.Name, opts.Timeout)
	}
	return f
}

// Request calls method of the plugin with args, as vigor#request() does,
// and returns its result decoded as the editor would see it (a Number is
// an int64, a List an []any, a Dict a map[string]any), or the error that
// vigor#request() would throw, without "[vigor] name.method: ".
func (f *Fake) Request(method string, args ...any) (any, error) {
	if args == nil {
		args = []any{}
	}
	ch := make(chan reply, 1)
	f.mu.Lock()
	f.next++
	token := f.next
	f.replies[token] = ch
	f.mu.Unlock()
	if err := f.send([]any{2, protocol.MethodRequest, []any{token, method, args}}); err != nil {
		return nil, err
	}
	select {
	case r := <-ch:
		return r.result, r.err
	case <-time.After(f.opts.Timeout):
		f.mu.Lock()
		delete(f.replies, token)
		f.mu.Unlock()
		return nil, fmt.Errorf("vigortest: %s.%s did not answer within %s", f.opts.Name, method, f.opts.Timeout)
	}
}

// Notify calls method of the plugin without waiting, as vigor#notify()
// does.
func (f *Fake) Notify(method string, args ...any) error {
	if args == nil {
		args = []any{}
	}
	return f.send([]any{2, method, args})
}

// Messages returns what the plugin showed the user (Infof, Warnf,
// Errorf, and the errors of notified methods), one "[name] text" each.
func (f *Fake) Messages() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.messages...)
}

// Log returns the plugin's log.
func (f *Fake) Log() string { return f.log() }

func (f *Fake) log() string {
	b, _ := os.ReadFile(f.logPath)
	return string(b)
}

func (f *Fake) send(msg []any) error {
	b, err := msgpack.Marshal(msg)
	if err != nil {
		return fmt.Errorf("vigortest: %w", err)
	}
	f.wmu.Lock()
	defer f.wmu.Unlock()
	_, err = f.toP.Write(b)
	return err
}

// read handles what the plugin sends until its output ends.
func (f *Fake) read() {
	dec := msgpackrpc.New(f.fromP)
	for {
		var m wire.Message
		if err := dec.ReadMessage(&m); err != nil {
			if errors.Is(err, wire.ErrMalformed) {
				continue
			}
			f.mu.Lock()
			for token, ch := range f.replies {
				ch <- reply{err: errors.New("the plugin exited")}
				delete(f.replies, token)
			}
			f.mu.Unlock()
			return
		}
		params := make([]any, len(m.Params))
		for i, r := range m.Params {
			_ = msgpackrpc.Unmarshal(r, &params[i])
		}
		switch m.Kind {
		case wire.Request:
			// Each on its own goroutine: a Func may wait for another
			// request, as an editor function that calls the plugin does.
			go f.answer(m.ID, m.Method, params)
		case wire.Notification:
			f.notified(m.Method, params)
		}
	}
}

// answer answers the plugin's request id.
func (f *Fake) answer(id int64, method string, params []any) {
	var res any
	var err error
	switch method {
	case "nvim_call_function":
		fn, args := callParams(params)
		res, err = f.call(fn, args)
	case "nvim_call_atomic":
		res = f.atomic(params)
	default:
		err = fmt.Errorf("the fake editor has no API method %s", method)
	}
	msg := []any{1, id, nil, res}
	if err != nil {
		msg = []any{1, id, []any{0, err.Error()}, nil}
	}
	_ = f.send(msg)
}

// atomic runs nvim_call_atomic's calls: [results, nil | [index, type,
// message]].
func (f *Fake) atomic(params []any) any {
	calls, _ := params[0].([]any)
	results := []any{}
	for i, c := range calls {
		pair, _ := c.([]any)
		var res any
		var err error
		if len(pair) == 2 && pair[0] == "nvim_call_function" {
			fn, args := callParams(pair[1].([]any))
			res, err = f.call(fn, args)
		} else {
			err = fmt.Errorf("the fake editor runs only nvim_call_function in a batch, not %v", pair)
		}
		if err != nil {
			return []any{results, []any{i, 0, err.Error()}}
		}
		results = append(results, res)
	}
	return []any{results, nil}
}

func callParams(params []any) (string, []any) {
	if len(params) != 2 {
		return "", nil
	}
	fn, _ := params[0].(string)
	args, _ := params[1].([]any)
	return fn, args
}

// call runs the editor function fn: the runtime's own, which the SDK's
// Cmd, Exec, Eval and Redraw use, or one of FakeOptions.Funcs.
func (f *Fake) call(fn string, args []any) (any, error) {
	str := func(i int) string {
		if i < len(args) {
			s, _ := args[i].(string)
			return s
		}
		return ""
	}
	dict := func(i int) map[string]any {
		if i < len(args) {
			d, _ := args[i].(map[string]any)
			return d
		}
		return nil
	}
	switch fn {
	case protocol.FuncCmd:
		if f.opts.Cmd == nil {
			return nil, nil
		}
		return nil, f.opts.Cmd(str(0), dict(1))
	case protocol.FuncExec:
		lines, _ := args[1].([]any)
		for i, l := range lines {
			if f.opts.Cmd != nil {
				if err := f.opts.Cmd(fmt.Sprint(l), nil); err != nil {
					return nil, fmt.Errorf("line %d: %w", i+1, err)
				}
			}
		}
		return nil, nil
	case protocol.FuncEval:
		if f.opts.Eval == nil {
			return nil, fmt.Errorf("Vim:E15: the fake editor evaluates no expressions (FakeOptions.Eval): %s", str(0))
		}
		return f.opts.Eval(str(0), dict(1))
	case protocol.FuncRedraw:
		return nil, nil
	case protocol.FuncDispatch:
		return nil, fmt.Errorf("the fake editor has no other plugins (Dispatch to %s)", str(0))
	}
	f.mu.Lock()
	impl := f.opts.Funcs[fn]
	f.mu.Unlock()
	if impl == nil {
		return nil, fmt.Errorf("Vim:E117: Unknown function: %s", fn)
	}
	return impl(args...)
}

// notified handles a notification from the plugin.
func (f *Fake) notified(method string, params []any) {
	if method != "nvim_call_function" {
		return
	}
	fn, args := callParams(params)
	switch fn {
	case protocol.FuncReply:
		// [token, result, error]
		if len(args) != 3 {
			return
		}
		token, _ := args[0].(int64)
		f.mu.Lock()
		ch := f.replies[token]
		delete(f.replies, token)
		f.mu.Unlock()
		if ch == nil {
			return
		}
		if args[2] != nil {
			ch <- reply{err: errors.New(fmt.Sprint(args[2]))}
		} else {
			ch <- reply{result: args[1]}
		}
	case protocol.FuncReady:
		f.ready <- nil
	case protocol.FuncFailed:
		if len(args) == 3 {
			f.ready <- errors.New(fmt.Sprint(args[2]))
		}
	case protocol.FuncEcho:
		if len(args) == 3 {
			f.mu.Lock()
			f.messages = append(f.messages, fmt.Sprintf("[%v] %v", args[1], args[2]))
			f.mu.Unlock()
		}
	case protocol.FuncNotify:
		// (plugin, fn, args): p.Notify.
		if len(args) == 3 {
			name, _ := args[1].(string)
			list, _ := args[2].([]any)
			_, _ = f.call(name, list)
		}
	}
}
