package vigor

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vigorvim/vigor/internal/fakeeditor"
	"github.com/vigorvim/vigor/internal/host"
	"github.com/vigorvim/vigor/internal/protocol"
	"github.com/vigorvim/vigor/internal/wire"
)

// serveTimeout only keeps a broken test from hanging; nothing here is timed.
const serveTimeout = 10 * time.Second

// fakeEditor is serve() connected to the shared fake editor
// (internal/fakeeditor), which speaks Vim's JSON channel or Neovim's
// msgpack-RPC as the editor and the runtime do, runs batches, and records
// every editor function that the plugin called or notified, unwrapped from
// the editor's transport.
type fakeEditor struct {
	t      *testing.T
	kind   string
	ed     *fakeeditor.Editor
	stderr *syncBuffer

	plugin atomic.Pointer[Plugin]
	code   chan int
}

// syncBuffer is a bytes.Buffer that the plugin's logger and the test can
// use at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

var serveKinds = []string{fakeeditor.Vim, fakeeditor.Nvim}

// forEachEditor runs a scenario against a fake Vim and a fake Neovim.
func forEachEditor(t *testing.T, f func(t *testing.T, kind string)) {
	for _, kind := range serveKinds {
		t.Run(kind, func(t *testing.T) { f(t, kind) })
	}
}

type serveOpts struct {
	env map[string]string // added to (or replacing) the default env
	// answer returns the result of a function that the plugin calls, or
	// the editor's error message; nil answers v:null.
	answer func(fn string, args []any) (any, string)
	ctx    context.Context // serve's ctx (its end is SIGTERM); nil means context.Background()
}

// startServe runs serve() for a plugin "demo" (instance "7") with setup,
// talking to a fake editor of kind.
func startServe(t *testing.T, kind string, opts serveOpts, setup func(ctx context.Context, p *Plugin) error) *fakeEditor {
	t.Helper()
	fopts := fakeeditor.Options{Editor: kind, Record: true}
	if opts.answer != nil {
		fopts.Answer = func(fn string, args []any) (any, error) {
			res, msg := opts.answer(fn, args)
			if msg != "" {
				return nil, errors.New(msg)
			}
			return res, nil
		}
	}
	ed, err := fakeeditor.New(fopts)
	if err != nil {
		t.Fatal(err)
	}
	env := ed.Env("demo", "7")
	env[protocol.EnvEditorVersion] = "9.1.0"
	for k, v := range opts.env {
		env[k] = v
	}
	e := &fakeEditor{t: t, kind: kind, ed: ed, stderr: &syncBuffer{}, code: make(chan int, 1)}
	ctx := opts.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	out := &endCheck{w: ed.PluginOut()}
	go func() {
		code := serve(ctx, func(k string) string { return env[k] }, ed.PluginIn(), out, e.stderr,
			func(ctx context.Context, p *Plugin) error {
				e.plugin.Store(p)
				return setup(ctx, p)
			})
		// serve has written everything by now: Main exits when it
		// returns, and the exit ends the process's writes. The output
		// ends here as the exit ends it, and a later write fails the
		// test (endCheck).
		out.seal()
		_ = ed.PluginOut().Close()
		e.code <- code
	}()
	t.Cleanup(func() {
		// EOF for the plugin, and failed writes, so that serve and its
		// session end.
		if err := ed.Close(); err != nil {
			t.Errorf("%s: the fake editor: %v", kind, err)
		}
		select {
		case <-e.code:
		case <-time.After(serveTimeout):
			t.Errorf("serve did not return after the editor went away")
		}
		for _, w := range out.late() {
			t.Errorf("%s: the plugin wrote after serve returned: %s", kind, w)
		}
	})
	return e
}

// endCheck is the plugin's output in these tests: it notes what the
// plugin writes after serve returned (seal), and a write that was under
// way then, and fails those writes as a closed pipe does.
type endCheck struct {
	w io.Writer

	mu sync.Mutex
	// Invariant, under mu: writing counts the writes under way; once
	// sealed is set no write reaches w, and bad lists each write that
	// was under way at the seal or came after it.
	sealed  bool
	writing int
	bad     []string
}

func (c *endCheck) Write(b []byte) (int, error) {
	c.mu.Lock()
	if c.sealed {
		c.bad = append(c.bad, fmt.Sprintf("%.200q", b))
		c.mu.Unlock()
		return 0, io.ErrClosedPipe
	}
	c.writing++
	c.mu.Unlock()
	n, err := c.w.Write(b)
	c.mu.Lock()
	c.writing--
	c.mu.Unlock()
	return n, err
}

// seal marks the return of serve.
func (c *endCheck) seal() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sealed = true
	if c.writing > 0 {
		c.bad = append(c.bad, fmt.Sprintf("%d writes under way when serve returned", c.writing))
	}
}

// late returns the writes that came too late (seal).
func (c *endCheck) late() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.bad...)
}

// p returns the plugin that serve created (after setup started).
func (e *fakeEditor) p() *Plugin {
	e.t.Helper()
	p := e.plugin.Load()
	if p == nil {
		e.t.Fatal("setup has not run")
	}
	return p
}

// closeInput ends the plugin's input, as an editor that goes away does.
func (e *fakeEditor) closeInput() { _ = e.ed.CloseInput() }

// requestAsync sends a request (vigor#request()) and returns where its
// answer arrives.
func (e *fakeEditor) requestAsync(method string, params ...any) <-chan fakeeditor.Reply {
	return e.ed.RequestAsync(method, params...)
}

// request sends a request and waits for its answer, [result, error].
func (e *fakeEditor) request(method string, params ...any) []any {
	e.t.Helper()
	return e.await(e.requestAsync(method, params...), method)
}

// await waits for the answer on ch, and returns it as [result, error].
func (e *fakeEditor) await(ch <-chan fakeeditor.Reply, method string) []any {
	e.t.Helper()
	select {
	case r := <-ch:
		if r.Err != nil {
			e.t.Fatalf("%s: no answer to the request %q: %v", e.kind, method, r.Err)
		}
		return r.Tuple()
	case <-time.After(serveTimeout):
		e.t.Fatalf("%s: no answer to the request %q (%v)", e.kind, method, e.ed.Err())
	}
	panic("unreachable")
}

// notify sends a notification (vigor#notify(), or one of the runtime's).
func (e *fakeEditor) notify(method string, params ...any) {
	e.t.Helper()
	if err := e.ed.Notify(method, params...); err != nil {
		e.t.Fatalf("%s: notify %s: %v", e.kind, method, err)
	}
}

// nextWithin returns the next editor function that the plugin called or
// notified, if one comes within d.
func (e *fakeEditor) nextWithin(d time.Duration) (fakeeditor.Call, error) {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	return e.ed.Next(ctx)
}

// next returns the next editor function that the plugin called or
// notified.
func (e *fakeEditor) next() fakeeditor.Call {
	e.t.Helper()
	c, err := e.nextWithin(serveTimeout)
	if err != nil {
		e.t.Fatalf("%s: waiting for the plugin to call the editor: %v", e.kind, err)
	}
	return c
}

// expect reads the next call and checks that it is fn, called (request) or
// notified.
func (e *fakeEditor) expect(fn string, request bool) fakeeditor.Call {
	e.t.Helper()
	c := e.next()
	if c.Fn != fn || c.Request != request {
		e.t.Fatalf("%s: the plugin sent %v, want %s (request %v)", e.kind, c, fn, request)
	}
	return c
}

// ready waits for the ready notification and returns its info.
func (e *fakeEditor) ready() map[string]any {
	e.t.Helper()
	c := e.expect(protocol.FuncReady, false)
	if len(c.Args) != 3 || c.Args[0] != "demo" || c.Args[1] != "7" {
		e.t.Fatalf("%s: ready args %v, want [demo 7 {info}]", e.kind, c.Args)
	}
	info, ok := c.Args[2].(map[string]any)
	if !ok {
		e.t.Fatalf("%s: ready info is %T", e.kind, c.Args[2])
	}
	return info
}

// wait waits for serve to return and returns its exit code.
func (e *fakeEditor) wait() int {
	e.t.Helper()
	select {
	case code := <-e.code:
		e.code <- code // for the cleanup
		return code
	case <-time.After(serveTimeout):
		e.t.Fatalf("%s: serve did not return", e.kind)
	}
	panic("unreachable")
}

func checkEqual(t *testing.T, what string, got, want any) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s = %#v, want %#v", what, got, want)
	}
}

// demoSetup registers a few handlers.
func demoSetup(ctx context.Context, p *Plugin) error {
	p.Handle("add", func(a, b int) int { return a + b })
	p.Handle("greet", func(ctx context.Context, name string) (string, error) {
		return "Hello, " + name + "!", nil
	})
	p.Handle("fail", func() error { return errors.New("bad input") })
	p.Handle("boom", func() string { panic("kaboom") })
	return nil
}

// ---------------------------------------------------------------------------
// Tests

func TestServeWithoutEnv(t *testing.T) {
	for _, env := range []map[string]string{
		{},
		{protocol.EnvPlugin: "demo"},
		{protocol.EnvHost: "vim"},
	} {
		var stderr bytes.Buffer
		setupRan := false
		code := serve(context.Background(), func(k string) string { return env[k] },
			strings.NewReader(""), io.Discard, &stderr, func(context.Context, *Plugin) error {
				setupRan = true
				return nil
			})
		if code != 2 {
			t.Errorf("env %v: serve returned %d, want 2", env, code)
		}
		if !strings.Contains(stderr.String(), "This program is a Vigor plugin") || !strings.Contains(stderr.String(), ":help vigor") {
			t.Errorf("env %v: stderr %q, want the message for people", env, stderr.String())
		}
		if setupRan {
			t.Errorf("env %v: setup ran", env)
		}
	}
}

func TestServeUnknownEditor(t *testing.T) {
	env := map[string]string{protocol.EnvPlugin: "demo", protocol.EnvHost: "emacs"}
	var stderr bytes.Buffer
	code := serve(context.Background(), func(k string) string { return env[k] },
		strings.NewReader(""), io.Discard, &stderr, func(context.Context, *Plugin) error { return nil })
	if code != 2 || !strings.Contains(stderr.String(), `unknown editor "emacs"`) {
		t.Fatalf("serve = %d, stderr %q; want 2 and the unknown editor", code, stderr.String())
	}
}

func TestServeReady(t *testing.T) {
	forEachEditor(t, func(t *testing.T, kind string) {
		e := startServe(t, kind, serveOpts{}, demoSetup)
		info := e.ready()
		checkEqual(t, "info.protocol", info["protocol"], int64(protocol.Version))
		checkEqual(t, "info.sdk", info["sdk"], SDKVersion)
		checkEqual(t, "info.methods", info["methods"], []any{"add", "boom", "fail", "greet"})
		checkEqual(t, "info.pid", info["pid"], int64(os.Getpid()))
		checkEqual(t, "info.log", info["log"], "the plugin's stderr")
		p := e.p()
		checkEqual(t, "Name", p.Name(), "demo")
		checkEqual(t, "Meta", p.Meta(), Meta{Host: kind, Version: "9.1.0", Platform: "linux", Mode: "test"})
	})
}

func TestServeRequests(t *testing.T) {
	forEachEditor(t, func(t *testing.T, kind string) {
		e := startServe(t, kind, serveOpts{}, demoSetup)
		e.ready()
		checkEqual(t, "add", e.request("add", 2, 3), []any{int64(5), nil})
		checkEqual(t, "greet", e.request("greet", "CI"), []any{"Hello, CI!", nil})
		checkEqual(t, "fail", e.request("fail"), []any{nil, "bad input"})
		checkEqual(t, "unknown method", e.request("nope", 1),
			[]any{nil, `no method "nope"; the plugin has: add, boom, fail, greet`})
		checkEqual(t, "too few arguments", e.request("add", 1), []any{nil, "takes 2 arguments (a Number, a Number), got 1"})
		checkEqual(t, "bad argument", e.request("add", 1, "two"), []any{nil, `argument 2: expected a Number, got a String ("two")`})
	})
}

func TestServeHandlerPanic(t *testing.T) {
	forEachEditor(t, func(t *testing.T, kind string) {
		logPath := filepath.Join(t.TempDir(), "demo.log")
		e := startServe(t, kind, serveOpts{env: map[string]string{protocol.EnvLog: logPath}}, demoSetup)
		checkEqual(t, "info.log", e.ready()["log"], logPath)
		checkEqual(t, "boom", e.request("boom"), []any{nil, "panic: kaboom (stack in " + logPath + ")"})
		// It keeps serving.
		checkEqual(t, "add after the panic", e.request("add", 1, 1), []any{int64(2), nil})
		log, err := os.ReadFile(logPath)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(log), "panic in handler") || !strings.Contains(string(log), "kaboom") {
			t.Fatalf("the log has no stack for the panic:\n%s", log)
		}
	})
}

// A notified method's error is shown to the user.
func TestServeNotificationError(t *testing.T) {
	forEachEditor(t, func(t *testing.T, kind string) {
		e := startServe(t, kind, serveOpts{}, demoSetup)
		e.ready()
		e.notify("fail")
		c := e.expect(protocol.FuncEcho, false)
		checkEqual(t, "echo args", c.Args, []any{"error", "demo", "fail: bad input"})
		e.notify("nope")
		c = e.expect(protocol.FuncEcho, false)
		if len(c.Args) != 3 || !strings.Contains(fmt.Sprint(c.Args[2]), `nope: no method "nope"`) {
			t.Fatalf("echo args %v, want the unknown method", c.Args)
		}
	})
}

// Neovim's nvim_error_event goes to the plugin's log, not to a method.
func TestServeNvimErrorEvent(t *testing.T) {
	e := startServe(t, "nvim", serveOpts{}, demoSetup)
	e.ready()
	e.notify("nvim_error_event", 0, "Vim:E117: Unknown function: Nope")
	e.notify("fail") // a notification after it, to know that it was handled
	c := e.expect(protocol.FuncEcho, false)
	checkEqual(t, "echo args", c.Args, []any{"error", "demo", "fail: bad input"})
	if log := e.stderr.String(); !strings.Contains(log, "Neovim reported an error for a notification: Vim:E117: Unknown function: Nope") {
		t.Fatalf("the log lacks the error:\n%s", log)
	}
}

// A handler calls the editor while the editor waits for it (re-entrancy),
// through Vim's channel callback or nvim_call_function.
func TestServeCallEditor(t *testing.T) {
	forEachEditor(t, func(t *testing.T, kind string) {
		answer := func(fn string, args []any) (any, string) {
			switch fn {
			case "strftime":
				return "2024", ""
			case "Nope":
				return nil, "Vim(call):E117: Unknown function: Nope"
			}
			return nil, ""
		}
		e := startServe(t, kind, serveOpts{answer: answer}, func(ctx context.Context, p *Plugin) error {
			p.Handle("year", func(ctx context.Context) (any, error) { return p.Call(ctx, "strftime", "%Y") })
			p.Handle("nope", func(ctx context.Context) (any, error) {
				_, err := p.Call(ctx, "Nope")
				var ee *EditorError
				if !errors.As(err, &ee) || ee.Fn != "Nope" {
					return nil, fmt.Errorf("got %#v, want an *EditorError", err)
				}
				return nil, err
			})
			return nil
		})
		e.ready()
		checkEqual(t, "year", e.request("year"), []any{"2024", nil})
		checkEqual(t, "the call", e.next(), fakeeditor.Call{Fn: "strftime", Args: []any{"%Y"}, Request: true})
		checkEqual(t, "nope", e.request("nope"), []any{nil, "Nope(): Vim(call):E117: Unknown function: Nope"})
	})
}

// Cmd sends one command line; Exec sends its lines, split at line
// breaks, with the plugin's name; their errors name the method.
func TestServeCmdAndExec(t *testing.T) {
	forEachEditor(t, func(t *testing.T, kind string) {
		answer := func(fn string, args []any) (any, string) {
			if fn == protocol.FuncExec && len(args) == 2 && len(args[1].([]any)) == 1 {
				return nil, "line 1: Vim(echo):E121: Undefined variable: x"
			}
			return nil, ""
		}
		e := startServe(t, kind, serveOpts{answer: answer}, func(ctx context.Context, p *Plugin) error {
			p.Handle("cmd", func(ctx context.Context, cmd string) error { return p.Cmd(ctx, cmd, nil) })
			p.Handle("exec", func(ctx context.Context, lines ...string) error { return p.Exec(ctx, lines...) })
			p.Handle("exec_fn", func(ctx context.Context, lines ...string) string {
				var ee *EditorError
				if errors.As(p.Exec(ctx, lines...), &ee) {
					return ee.Fn
				}
				return ""
			})
			return nil
		})
		e.ready()
		checkEqual(t, "cmd of 3 lines", e.request("cmd", "a\nb\nc"),
			[]any{nil, "Cmd runs one Ex command, and this one has 3 lines: use Exec to run several lines"})
		checkEqual(t, "cmd", e.request("cmd", "let g:x = 1 | let g:y = 2"), []any{nil, nil})
		checkEqual(t, "the call", e.next(), fakeeditor.Call{Fn: protocol.FuncCmd, Args: []any{"let g:x = 1 | let g:y = 2", map[string]any{}}, Request: true})
		checkEqual(t, "exec", e.request("exec", "a\nb", "c"), []any{nil, nil})
		checkEqual(t, "the call", e.next(), fakeeditor.Call{Fn: protocol.FuncExec, Args: []any{"demo", []any{"a", "b", "c"}}, Request: true})
		checkEqual(t, "exec error", e.request("exec", "echo x"), []any{nil, "line 1: Vim(echo):E121: Undefined variable: x"})
		e.next()
		checkEqual(t, "exec error's Fn", e.request("exec_fn", "echo x"), []any{"", nil})
	})
}

func TestServeSetupFails(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(ctx context.Context, p *Plugin) error
		want  string // the start of the message
	}{
		{"error", func(context.Context, *Plugin) error { return errors.New("no config file") }, "no config file"},
		{"panic", func(context.Context, *Plugin) error { panic("kaboom") }, "panic: kaboom (stack in the plugin's stderr)"},
		{"bad handler", func(ctx context.Context, p *Plugin) error {
			p.Handle("$x", func() {})
			return nil
		}, `panic: vigor: Handle("$x"): method names that start with $ are reserved for Vigor`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			forEachEditor(t, func(t *testing.T, kind string) {
				e := startServe(t, kind, serveOpts{}, tc.setup)
				c := e.expect(protocol.FuncFailed, true)
				if len(c.Args) != 3 || c.Args[0] != "demo" || c.Args[1] != "7" {
					t.Fatalf("failed args %v, want [demo 7 message]", c.Args)
				}
				if msg, _ := c.Args[2].(string); !strings.HasPrefix(msg, tc.want) {
					t.Fatalf("failed message %q, want it to start with %q", msg, tc.want)
				}
				checkEqual(t, "exit code", e.wait(), 1)
			})
		})
	}
}

func TestServeInterrupt(t *testing.T) {
	forEachEditor(t, func(t *testing.T, kind string) {
		started := make(chan struct{}, 1)
		causes := make(chan error, 1)
		e := startServe(t, kind, serveOpts{}, func(ctx context.Context, p *Plugin) error {
			p.Handle("wait", func(ctx context.Context) error {
				started <- struct{}{}
				<-ctx.Done()
				causes <- context.Cause(ctx)
				return context.Cause(ctx)
			})
			p.Handle("alive", func(ctx context.Context) bool { return ctx.Err() == nil })
			return nil
		})
		e.ready()

		for _, reason := range []any{"user pressed <C-c>", nil} {
			ans := e.requestAsync("wait")
			waitChan(t, started, "the handler to start")
			if reason == nil {
				e.notify(protocol.MethodInterrupt)
			} else {
				e.notify(protocol.MethodInterrupt, reason)
			}
			cause := waitChan(t, causes, "the handler's ctx to end")
			if !errors.Is(cause, ErrInterrupted) {
				t.Fatalf("cause %v, want ErrInterrupted", cause)
			}
			want := ErrInterrupted.Error()
			if reason != nil {
				want += ": " + reason.(string)
			}
			checkEqual(t, "cause", cause.Error(), want)
			checkEqual(t, "answer", e.await(ans, "wait"), []any{nil, want})
			// A new handler gets a fresh ctx; the plugin's own is intact.
			checkEqual(t, "alive", e.request("alive"), []any{true, nil})
			if err := e.p().Context().Err(); err != nil {
				t.Fatalf("the plugin's context ended: %v", err)
			}
		}
	})
}

// An interrupted request_async call fails at once, also when its handler
// ignores its ctx; a budget after the interrupt, the handlers that still
// run are told to the runtime once (protocol.FuncStuck), and one that
// returned when interrupted is not.
func TestServeInterruptIgnored(t *testing.T) {
	forEachEditor(t, func(t *testing.T, kind string) {
		started := make(chan struct{}, 2)
		release := make(chan struct{})
		defer close(release)
		e := startServe(t, kind, serveOpts{}, func(ctx context.Context, p *Plugin) error {
			p.Handle("spin", func() int {
				started <- struct{}{}
				<-release
				return 1
			})
			p.Handle("wait", func(ctx context.Context) error {
				<-ctx.Done()
				return context.Cause(ctx)
			})
			p.Handle("one", func() int { return 1 })
			return nil
		})
		e.ready()
		want := ErrInterrupted.Error() + ": stop"
		failed := map[string]any{"name": "VigorError", "plugin": "demo", "method": "spin", "message": want}
		e.notify(protocol.MethodAsync, "vigor:1", "vigor:2", "spin", []any{})
		waitChan(t, started, "the handler to start")
		e.notify(protocol.MethodInterrupt, "stop", 100)
		c := e.expect(protocol.FuncResolve, false)
		checkEqual(t, "resolve args", c.Args, []any{"vigor:1", "vigor:2", false, failed})
		// A second one, interrupted by the next interrupt, counts with it.
		e.notify(protocol.MethodAsync, "vigor:3", "vigor:4", "spin", []any{})
		waitChan(t, started, "the handler to start")
		e.notify(protocol.MethodInterrupt, "stop", 100)
		c = e.expect(protocol.FuncResolve, false)
		checkEqual(t, "resolve args", c.Args, []any{"vigor:3", "vigor:4", false, failed})
		c = e.expect(protocol.FuncStuck, false)
		checkEqual(t, "stuck args", c.Args, []any{"demo", "7", "spin", int64(1), int64(100)})
		// A polite handler's interrupt tells nothing, nor a later one.
		e.notify(protocol.MethodAsync, "vigor:5", "vigor:6", "wait", []any{})
		e.notify(protocol.MethodInterrupt, "stop", 50)
		c = e.expect(protocol.FuncResolve, false)
		checkEqual(t, "resolve args", c.Args[:3], []any{"vigor:5", "vigor:6", false})
		time.Sleep(150 * time.Millisecond)
		checkEqual(t, "answer after the interrupts", e.request("one"), []any{int64(1), nil})
	})
}

// A handler whose goroutine starts only after the interrupt that its
// message's generation got (request_async then vigor#interrupt() at once)
// is reported as stuck too: it starts with its ctx cancelled. GOMAXPROCS
// 1 makes the late start likely; the rounds make it happen.
func TestServeInterruptBeforeHandlerStarts(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	forEachEditor(t, func(t *testing.T, kind string) {
		for round := range 10 {
			release := make(chan struct{})
			e := startServe(t, kind, serveOpts{}, func(ctx context.Context, p *Plugin) error {
				p.Handle("spin", func() int {
					<-release
					return 1
				})
				return nil
			})
			t.Cleanup(func() { close(release) })
			e.ready()
			e.notify(protocol.MethodAsync, "vigor:1", "vigor:2", "spin", []any{})
			e.notify(protocol.MethodInterrupt, "stop", 100)
			c := e.expect(protocol.FuncResolve, false)
			checkEqual(t, "resolve args", c.Args[:3], []any{"vigor:1", "vigor:2", false})
			c, err := e.nextWithin(time.Second)
			if err != nil {
				t.Fatalf("round %d: no %s within 1 s of the interrupt of a handler that ignores it: %v", round, protocol.FuncStuck, err)
			}
			if c.Fn != protocol.FuncStuck {
				t.Fatalf("round %d: the plugin sent %v, want %s", round, c, protocol.FuncStuck)
			}
			checkEqual(t, "stuck args", c.Args, []any{"demo", "7", "spin", int64(0), int64(100)})
		}
	})
}

// A budget of 0 does not make a handler that returns soon after its
// interrupt count as stuck: the check waits at least stuckFloor.
func TestServeInterruptZeroBudget(t *testing.T) {
	forEachEditor(t, func(t *testing.T, kind string) {
		started := make(chan struct{}, 1)
		e := startServe(t, kind, serveOpts{}, func(ctx context.Context, p *Plugin) error {
			p.Handle("wait", func(ctx context.Context) error {
				started <- struct{}{}
				<-ctx.Done()
				// Winding down takes a moment.
				time.Sleep(10 * time.Millisecond)
				return context.Cause(ctx)
			})
			p.Handle("one", func() int { return 1 })
			return nil
		})
		e.ready()
		e.notify(protocol.MethodAsync, "vigor:1", "vigor:2", "wait", []any{})
		waitChan(t, started, "the handler to start")
		e.notify(protocol.MethodInterrupt, "stop", 0)
		c := e.expect(protocol.FuncResolve, false)
		checkEqual(t, "resolve args", c.Args[:3], []any{"vigor:1", "vigor:2", false})
		time.Sleep(200 * time.Millisecond)
		checkEqual(t, "answer after the interrupt", e.request("one"), []any{int64(1), nil})
		if c, err := e.nextWithin(0); err == nil {
			t.Errorf("the plugin sent %v after a handler returned 10 ms after its interrupt", c)
		}
	})
}

// An interrupt does not queue behind the notification that it interrupts.
func TestServeInterruptNotification(t *testing.T) {
	forEachEditor(t, func(t *testing.T, kind string) {
		started := make(chan struct{}, 1)
		e := startServe(t, kind, serveOpts{}, func(ctx context.Context, p *Plugin) error {
			p.Handle("wait", func(ctx context.Context) error {
				started <- struct{}{}
				<-ctx.Done()
				return context.Cause(ctx)
			})
			return nil
		})
		e.ready()
		e.notify("wait")
		waitChan(t, started, "the handler to start")
		e.notify(protocol.MethodInterrupt, "stop")
		c := e.expect(protocol.FuncEcho, false)
		checkEqual(t, "echo args", c.Args, []any{"error", "demo", "wait: " + ErrInterrupted.Error() + ": stop"})
	})
}

func waitChan[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(serveTimeout):
		t.Fatalf("timed out waiting for %s", what)
	}
	panic("unreachable")
}

func TestServeAsync(t *testing.T) {
	forEachEditor(t, func(t *testing.T, kind string) {
		e := startServe(t, kind, serveOpts{}, demoSetup)
		e.ready()
		e.notify(protocol.MethodAsync, "vigor:1", "vigor:2", "add", []any{40, 2})
		c := e.expect(protocol.FuncResolve, false)
		checkEqual(t, "resolve args", c.Args, []any{"vigor:1", "vigor:2", true, int64(42)})

		e.notify(protocol.MethodAsync, "vigor:3", "vigor:4", "fail", []any{})
		c = e.expect(protocol.FuncResolve, false)
		checkEqual(t, "resolve args", c.Args, []any{"vigor:3", "vigor:4", false, map[string]any{
			"name": "VigorError", "plugin": "demo", "method": "fail", "message": "bad input",
		}})

		e.notify(protocol.MethodAsync, "vigor:5", "vigor:6", "boom", []any{})
		c = e.expect(protocol.FuncResolve, false)
		if len(c.Args) != 4 || c.Args[2] != false {
			t.Fatalf("resolve args %v, want a failure", c.Args)
		}
		if msg := c.Args[3].(map[string]any)["message"]; msg != "panic: kaboom (stack in the plugin's stderr)" {
			t.Fatalf("message %q, want the panic", msg)
		}
	})
}

// $async calls that arrive while the plugin unloads (the runtime had sent
// them before its $unload, or they were on their way) are answered at once
// with ErrUnloaded instead of starting: no handler starts while the unload
// waits for the running ones, which would race that wait.
func TestServeAsyncDuringUnload(t *testing.T) {
	for _, how := range []string{"unload", "sigterm"} {
		t.Run(how, func(t *testing.T) {
			forEachEditor(t, func(t *testing.T, kind string) {
				ctx, terminate := context.WithCancel(context.Background())
				defer terminate()
				started, cancelled, sent := make(chan struct{}), make(chan struct{}), make(chan struct{})
				// The calls below are read before the unload ends: the
				// report's answer waits for them ($unload), and the
				// running handler, which the unload waits for, for a
				// request read after them (SIGTERM, which has no
				// report).
				answer := func(fn string, args []any) (any, string) {
					if fn == protocol.FuncUnloaded {
						<-sent
					}
					return nil, ""
				}
				e := startServe(t, kind, serveOpts{ctx: ctx, answer: answer}, func(ctx context.Context, p *Plugin) error {
					p.Handle("block", func(ctx context.Context) error {
						close(started)
						<-ctx.Done()
						close(cancelled)
						if how == "sigterm" {
							<-sent
						}
						return context.Cause(ctx)
					})
					p.Handle("quick", func() int { return 1 })
					return nil
				})
				e.ready()
				e.notify(protocol.MethodAsync, "ok:0", "ng:0", "block", []any{})
				waitChan(t, started, "the blocking handler to start")
				if how == "unload" {
					e.notify(protocol.MethodUnload)
				} else {
					terminate()
				}
				waitChan(t, cancelled, "the unload to begin")
				const n = 20
				for i := 1; i <= n; i++ {
					e.notify(protocol.MethodAsync, fmt.Sprintf("ok:%d", i), fmt.Sprintf("ng:%d", i), "quick", []any{})
				}
				if how == "sigterm" {
					checkEqual(t, "a request during the unload", e.request("quick"), []any{int64(1), nil})
				}
				close(sent)
				resolved := map[string]any{}
				for len(resolved) < n+1 {
					c := e.next()
					switch c.Fn {
					case protocol.FuncUnloaded:
						if _, ok := resolved["ok:0"]; !ok {
							t.Fatalf("on_unloaded came before the running handler's answer")
						}
						continue
					case protocol.FuncResolve:
					default:
						t.Fatalf("the plugin sent %v", c)
					}
					if len(c.Args) != 4 || c.Args[2] != false {
						t.Fatalf("resolve %v, want a failure", c.Args)
					}
					if msg := c.Args[3].(map[string]any)["message"]; msg != ErrUnloaded.Error() {
						t.Fatalf("resolve %v: message %q, want %q", c.Args, msg, ErrUnloaded)
					}
					resolved[c.Args[0].(string)] = c.Args[3]
				}
				checkEqual(t, "exit code", e.wait(), 0)
			})
		})
	}
}

// unloadSetup registers three hooks that record their order; the second
// and third fail.
func unloadSetup(ran *[]int, mu *sync.Mutex, errs map[int]error) func(context.Context, *Plugin) error {
	return func(ctx context.Context, p *Plugin) error {
		for i := 1; i <= 3; i++ {
			p.OnUnload(func(ctx context.Context) error {
				mu.Lock()
				*ran = append(*ran, i)
				mu.Unlock()
				if err := ctx.Err(); err != nil {
					return fmt.Errorf("hook %d: ctx ended: %w", i, err)
				}
				if i == 1 && context.Cause(p.Context()) != ErrUnloaded {
					return fmt.Errorf("hook 1: the plugin's ctx is not cancelled with ErrUnloaded: %v", context.Cause(p.Context()))
				}
				return errs[i]
			})
		}
		return demoSetup(ctx, p)
	}
}

func TestServeUnload(t *testing.T) {
	for _, tc := range []struct {
		name string
		errs map[int]error
		want any // the error reported to the editor
	}{
		{"ok", nil, nil},
		{"hooks fail", map[int]error{2: errors.New("e2"), 3: errors.New("e3")}, "e3; e2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			forEachEditor(t, func(t *testing.T, kind string) {
				var ran []int
				var mu sync.Mutex
				e := startServe(t, kind, serveOpts{}, unloadSetup(&ran, &mu, tc.errs))
				e.ready()
				pctx := e.p().Context()
				e.notify(protocol.MethodUnload)
				c := e.expect(protocol.FuncUnloaded, true)
				checkEqual(t, "unloaded args", c.Args, []any{"demo", "7", tc.want})
				checkEqual(t, "exit code", e.wait(), 0)
				mu.Lock()
				checkEqual(t, "hook order", ran, []int{3, 2, 1})
				mu.Unlock()
				if cause := context.Cause(pctx); cause != ErrUnloaded {
					t.Fatalf("the plugin's context: %v, want ErrUnloaded", cause)
				}
			})
		})
	}
}

// The whole unload keeps to the budget that came with $unload: a hook and
// a request_async handler that ignore their ctx are left behind, the
// report says so, and serve returns, well before the runtime would kill
// the process.
func TestServeUnloadBudget(t *testing.T) {
	forEachEditor(t, func(t *testing.T, kind string) {
		release := make(chan struct{}) // lets the stuck goroutines go once the test is over
		started := make(chan struct{})
		e := startServe(t, kind, serveOpts{}, func(ctx context.Context, p *Plugin) error {
			p.Handle("stuck", func(ctx context.Context) { close(started); <-release })
			p.OnUnload(func(ctx context.Context) error { return errors.New("first") })
			p.OnUnload(func(ctx context.Context) error { <-release; return nil })
			return nil
		})
		t.Cleanup(func() { close(release) })
		e.ready()
		e.notify(protocol.MethodAsync, "ok:1", "ng:1", "stuck", []any{})
		waitChan(t, started, "the handler to start")
		const budget = 400 * time.Millisecond
		begin := time.Now()
		e.notify(protocol.MethodUnload, budget.Milliseconds())
		c := e.expect(protocol.FuncUnloaded, true)
		took := time.Since(begin)
		want := "an unload hook did not return within the unload budget (400 ms, g:vigor#unload_timeout), so the plugin exited without it"
		checkEqual(t, "unloaded args", c.Args, []any{"demo", "7", want})
		checkEqual(t, "exit code", e.wait(), 0)
		// (With 100 ms for the scheduling of a loaded machine.)
		if took < budget/2 || took > budget+100*time.Millisecond {
			t.Errorf("the report came after %v, want it within the budget of %v (and after the hooks' time)", took, budget)
		}
	})
}

// The budget comes with $unload; without one, the plugin takes the
// default. The report closes the budget.
func TestUnloadPlan(t *testing.T) {
	codec, _ := host.NewCodec("vim", "", "demo", "1", strings.NewReader(""))
	p := &Plugin{}
	for _, tt := range []struct {
		params []wire.Raw
		want   time.Duration
	}{
		{nil, protocol.UnloadBudget * time.Millisecond},
		{[]wire.Raw{wire.Raw("1500")}, 1500 * time.Millisecond},
		{[]wire.Raw{wire.Raw("0")}, 0},
		{[]wire.Raw{wire.Raw("-1")}, protocol.UnloadBudget * time.Millisecond},
		{[]wire.Raw{wire.Raw(`"soon"`)}, protocol.UnloadBudget * time.Millisecond},
	} {
		if got := p.unloadBudget(host.NewValues(codec, tt.params)); got != tt.want {
			t.Errorf("unloadBudget(%s) = %v, want %v", tt.params, got, tt.want)
		}
	}
	start := time.Unix(0, 0)
	ms := func(n int) time.Time { return start.Add(time.Duration(n) * time.Millisecond) }
	checkEqual(t, "plan for 3 s", newUnloadPlan(start, 3*time.Second),
		unloadPlan{asyncFirst: ms(300), hooksCtx: ms(2500), hooksEnd: ms(2750), deadline: ms(3000)})
	checkEqual(t, "plan for 1 s", newUnloadPlan(start, time.Second),
		unloadPlan{asyncFirst: ms(100), hooksCtx: ms(800), hooksEnd: ms(900), deadline: ms(1000)})
}

// A panicking hook fails the unload; the other hooks still run.
func TestServeUnloadHookPanics(t *testing.T) {
	forEachEditor(t, func(t *testing.T, kind string) {
		ran := make(chan string, 2)
		e := startServe(t, kind, serveOpts{}, func(ctx context.Context, p *Plugin) error {
			p.OnUnload(func(context.Context) error { ran <- "first"; return nil })
			p.OnUnload(func(context.Context) error { panic("in hook") })
			return nil
		})
		e.ready()
		e.notify(protocol.MethodUnload)
		c := e.expect(protocol.FuncUnloaded, true)
		checkEqual(t, "unloaded args", c.Args, []any{"demo", "7", "panic: in hook (stack in the plugin's stderr)"})
		checkEqual(t, "exit code", e.wait(), 0)
		checkEqual(t, "the other hook", waitChan(t, ran, "the first hook"), "first")
	})
}

// A hook can still call the editor.
func TestServeUnloadHookCallsEditor(t *testing.T) {
	forEachEditor(t, func(t *testing.T, kind string) {
		answer := func(fn string, args []any) (any, string) { return "saved", "" }
		got := make(chan any, 1)
		e := startServe(t, kind, serveOpts{answer: answer}, func(ctx context.Context, p *Plugin) error {
			p.OnUnload(func(ctx context.Context) error {
				v, err := p.Call(ctx, "SaveState")
				got <- v
				return err
			})
			return nil
		})
		e.ready()
		e.notify(protocol.MethodUnload)
		e.expect("SaveState", true)
		c := e.expect(protocol.FuncUnloaded, true)
		checkEqual(t, "unloaded args", c.Args, []any{"demo", "7", nil})
		checkEqual(t, "the hook's call", waitChan(t, got, "the hook"), "saved")
		checkEqual(t, "exit code", e.wait(), 0)
	})
}

// When the editor goes away, serve runs the hooks and returns 0.
func TestServeEditorCloses(t *testing.T) {
	forEachEditor(t, func(t *testing.T, kind string) {
		var ran []int
		var mu sync.Mutex
		e := startServe(t, kind, serveOpts{}, unloadSetup(&ran, &mu, nil))
		e.ready()
		pctx := e.p().Context()
		e.closeInput()
		checkEqual(t, "exit code", e.wait(), 0)
		mu.Lock()
		checkEqual(t, "hook order", ran, []int{3, 2, 1})
		mu.Unlock()
		if cause := context.Cause(pctx); cause != ErrUnloaded {
			t.Fatalf("the plugin's context: %v, want ErrUnloaded", cause)
		}
	})
}

// A handler that is still running when the editor goes away sees its ctx
// end (Run waits for it, so otherwise serve would never return and the
// process would outlive the editor).
func TestServeEditorClosesDuringHandler(t *testing.T) {
	for _, how := range []string{"request", "notify"} {
		t.Run(how, func(t *testing.T) {
			forEachEditor(t, func(t *testing.T, kind string) {
				started := make(chan struct{}, 1)
				causes := make(chan error, 1)
				e := startServe(t, kind, serveOpts{}, func(ctx context.Context, p *Plugin) error {
					p.Handle("wait", func(ctx context.Context) {
						started <- struct{}{}
						<-ctx.Done()
						causes <- context.Cause(ctx)
					})
					return nil
				})
				e.ready()
				if how == "request" {
					e.requestAsync("wait")
				} else {
					e.notify("wait")
				}
				waitChan(t, started, "the handler to start")
				e.closeInput()
				checkEqual(t, "exit code", e.wait(), 0)
				if cause := waitChan(t, causes, "the handler's ctx to end"); cause != ErrUnloaded {
					t.Fatalf("cause %v, want ErrUnloaded", cause)
				}
			})
		})
	}
}
