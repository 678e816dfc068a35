package vigortest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vigorvim/vigor"
	"github.com/vigorvim/vigor/internal/fakeeditor"
	"github.com/vigorvim/vigor/internal/protocol"
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
	// Editor is the editor that the Fake plays, "vim" or "nvim" (one of
	// Kinds): the plugin's Meta().Host, and the protocol on its pipes
	// (Vim's JSON channel, or Neovim's msgpack-RPC). Empty means "nvim".
	Editor string
	// Funcs are the editor functions that the plugin may call, by name
	// (p.Call, vigor.CallAs, the std wrappers, batches, p.Notify), and on
	// Neovim the API methods (nvim_buf_get_lines, say) that std/nvimapi
	// calls. A call of any other function fails with E117, as in the
	// editor.
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
// pipes that carry the protocol of FakeOptions.Editor (Neovim's, unless it
// says "vim"), as the editor and Vigor's runtime speak it, and its calls
// to the editor go to the Go functions of FakeOptions. No Vim script runs:
// to test behaviour that needs a real editor, use Each.
//
// Its methods are safe for concurrent use.
type Fake struct {
	opts    FakeOptions
	ed      *fakeeditor.Editor
	logPath string
	tmp     string   // removed by Close; empty when the test owns it
	done    chan int // serve's exit code

	mu sync.Mutex
	// Invariant, under mu: messages grows only.
	messages []string

	ready chan error // the plugin's setup returned: nil, or why it failed
	stop  sync.Once
}

// NewFake starts the plugin set up by setup against a Fake, waits until
// its setup has returned, and stops it when the test ends. A setup that
// fails fails the test.
func NewFake(t testing.TB, opts FakeOptions, setup func(ctx context.Context, p *vigor.Plugin) error) *Fake {
	t.Helper()
	f, err := startFake(opts, setup, t.TempDir())
	if err != nil {
		t.Fatalf("vigortest: %v", err)
	}
	t.Cleanup(func() {
		if err := f.Close(); err != nil {
			t.Errorf("vigortest: %v", err)
		}
	})
	return f
}

// StartFake is NewFake for code that has no testing.TB (a TestMain, an
// example): it returns the error that NewFake would fail the test with,
// and Close stops the plugin.
func StartFake(opts FakeOptions, setup func(ctx context.Context, p *vigor.Plugin) error) (*Fake, error) {
	dir, err := os.MkdirTemp("", "vigortest-")
	if err != nil {
		return nil, fmt.Errorf("vigortest: %w", err)
	}
	f, err := startFake(opts, setup, dir)
	if err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("vigortest: %w", err)
	}
	f.tmp = dir
	return f, nil
}

func startFake(opts FakeOptions, setup func(ctx context.Context, p *vigor.Plugin) error, dir string) (*Fake, error) {
	if opts.Name == "" {
		opts.Name = "fake"
	}
	if opts.Timeout == 0 {
		opts.Timeout = 10 * time.Second
	}
	f := &Fake{opts: opts, done: make(chan int, 1), ready: make(chan error, 1),
		logPath: filepath.Join(dir, opts.Name+".log")}
	ed, err := fakeeditor.New(fakeeditor.Options{Editor: opts.Editor, Answer: f.answer})
	if err != nil {
		return nil, err
	}
	f.ed = ed
	env := ed.Env(opts.Name, "1")
	env[protocol.EnvLog] = f.logPath
	// serve's goroutine is the Fake's: Close waits for it.
	go func() {
		f.done <- vigor.Serve(context.Background(), func(k string) string { return env[k] },
			ed.PluginIn(), ed.PluginOut(), discard{}, setup)
		ed.PluginOut().Close()
	}()
	select {
	case err := <-f.ready:
		if err == nil {
			return f, nil
		}
		err = fmt.Errorf("%s failed to load: %w", opts.Name, err)
		return nil, errors.Join(err, f.Close())
	case code := <-f.done:
		f.done <- code
		// A setup that fails reports it, then serve returns: both cases
		// may be ready at once, and the setup's error is the one to give.
		select {
		case err := <-f.ready:
			if err == nil {
				return f, nil // it loaded, then exited: its requests say so
			}
			err = fmt.Errorf("%s failed to load: %w", opts.Name, err)
			return nil, errors.Join(err, f.Close())
		default:
		}
		err := fmt.Errorf("%s exited (status %d) before it loaded; its log: %s", opts.Name, code, f.log())
		return nil, errors.Join(err, f.Close())
	case <-time.After(opts.Timeout):
		err := fmt.Errorf("%s did not load within %s", opts.Name, opts.Timeout)
		return nil, errors.Join(err, f.Close())
	}
}

// Close stops the plugin, as an editor that closes the channel does, and
// waits for it to exit. NewFake's Fake is closed when the test ends.
func (f *Fake) Close() error {
	var err error
	f.stop.Do(func() {
		f.ed.CloseInput()
		select {
		case code := <-f.done:
			f.done <- code
		case <-time.After(10 * time.Second):
			err = fmt.Errorf("the plugin %s did not stop within 10 s of the end of its input", f.opts.Name)
		}
		if cerr := f.ed.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("the plugin %s: %w", f.opts.Name, cerr)
		}
		if f.tmp != "" {
			os.RemoveAll(f.tmp)
		}
	})
	return err
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// Request calls method of the plugin with args, as vigor#request() does,
// and returns its result decoded as the editor would see it (a Number is
// an int64, a List an []any, a Dict a map[string]any), or the error that
// vigor#request() would throw, without "[vigor] name.method: ".
func (f *Fake) Request(method string, args ...any) (any, error) {
	ctx, cancel := context.WithTimeoutCause(context.Background(), f.opts.Timeout,
		fmt.Errorf("vigortest: %s.%s did not answer within %s", f.opts.Name, method, f.opts.Timeout))
	defer cancel()
	r, err := f.ed.Request(ctx, method, args...)
	switch {
	case errors.Is(err, fakeeditor.ErrEnded):
		return nil, errors.New("the plugin exited")
	case err != nil:
		return nil, context.Cause(ctx)
	case r.Error != nil:
		return nil, errors.New(fmt.Sprint(r.Error))
	}
	return r.Result, nil
}

// Notify calls method of the plugin without waiting, as vigor#notify()
// does.
func (f *Fake) Notify(method string, args ...any) error {
	return f.ed.Notify(method, args...)
}

// Messages returns what the plugin showed the user (Infof, Warnf,
// Errorf, the errors of notified methods and of p.Notify's functions),
// one "[name] text" each.
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

// answer runs the editor function fn for the plugin: the runtime's own,
// which the SDK calls, or one of FakeOptions.Funcs.
func (f *Fake) answer(fn string, args []any) (any, error) {
	str := func(i int) string {
		if i < len(args) {
			s, _ := args[i].(string)
			return s
		}
		return ""
	}
	switch fn {
	case protocol.FuncReady:
		f.loaded(nil)
		return nil, nil
	case protocol.FuncFailed:
		f.loaded(errors.New(str(2)))
		return nil, nil
	case protocol.FuncEcho:
		f.echo(str(1), str(2))
		return nil, nil
	case protocol.FuncNotify:
		// (plugin, fn, args): p.Notify; nobody waits, so an error is
		// shown, as vigor#_internal#api#notify() shows it.
		var list []any
		if len(args) == 3 {
			list, _ = args[2].([]any)
		}
		if _, err := f.call(str(1), list); err != nil {
			f.echo(str(0), fmt.Sprintf("%s(): %v", str(1), err))
		}
		return nil, nil
	case protocol.FuncResolve, protocol.FuncUnloaded, protocol.FuncStuck, protocol.FuncPending:
		return nil, nil
	}
	return f.call(fn, args)
}

// loaded reports the end of the plugin's setup, once.
func (f *Fake) loaded(err error) {
	select {
	case f.ready <- err:
	default:
	}
}

func (f *Fake) echo(name, msg string) {
	f.mu.Lock()
	f.messages = append(f.messages, fmt.Sprintf("[%s] %s", name, msg))
	f.mu.Unlock()
}

// call runs fn: the runtime's functions behind Cmd, Exec, Eval, Redraw
// and Dispatch, or one of FakeOptions.Funcs.
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
		var lines []any
		if len(args) > 1 {
			lines, _ = args[1].([]any)
		}
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
	impl := f.opts.Funcs[fn]
	if impl == nil {
		if strings.HasPrefix(fn, "nvim_") {
			return nil, fmt.Errorf("the fake editor has no API method %s (FakeOptions.Funcs)", fn)
		}
		return nil, fmt.Errorf("Vim:E117: Unknown function: %s", fn)
	}
	return impl(args...)
}
