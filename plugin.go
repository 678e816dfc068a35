package vigor

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/vigorvim/vigor/internal/host"
	"github.com/vigorvim/vigor/internal/protocol"
	"github.com/vigorvim/vigor/internal/rpc"
	"github.com/vigorvim/vigor/internal/wire"
)

// SDKVersion is the version of this SDK.
const SDKVersion = "0.1.0"

// ErrInterrupted is the cause of a handler's context when the user called
// vigor#interrupt(). Check it with context.Cause(ctx).
var ErrInterrupted = errors.New("interrupted by vigor#interrupt()")

// ErrUnloaded is the cause of every context of a plugin that is being
// unloaded (or whose editor went away).
var ErrUnloaded = errors.New("plugin unloaded")

// Meta describes the editor that runs the plugin.
type Meta struct {
	Host     string // "vim" or "nvim"
	Version  string // the editor's version, such as "9.0.1378" or "0.11.4"
	Platform string // "linux", "mac" or "windows"
	Mode     string // "release", "debug" or "test" (g:vigor#debug, tests)
}

// Plugin is a running plugin: the handle that setup code uses to register
// methods and to reach the editor. Its methods are safe for concurrent use.
type Plugin struct {
	name     string
	instance string
	dir      string
	meta     Meta
	sess     *rpc.Session
	codec    wire.Codec
	ed       host.Adapter
	log      *slog.Logger
	logPath  string

	ctx    context.Context // cancelled (ErrUnloaded) on unload
	cancel context.CancelCauseFunc

	mu       sync.Mutex
	handlers map[string]*handler
	gen      context.Context // the current interrupt generation
	genStop  context.CancelCauseFunc
	onUnload []func(context.Context) error
	unloaded bool

	work sync.WaitGroup // async handlers
	quit chan struct{}  // closed when the plugin should exit
	qmu  sync.Once
}

// Name returns the plugin's name (its directory under vigor/).
func (p *Plugin) Name() string { return p.name }

// Meta returns what the editor told the plugin about itself.
func (p *Plugin) Meta() Meta { return p.meta }

// Dir returns the plugin's source directory (<repo>/vigor/<name>), for
// files that ship with it.
func (p *Plugin) Dir() string { return p.dir }

// Logger returns the plugin's log, a file under Vigor's cache (see
// :help vigor-log). It is for detail; use Infof and friends to tell the user.
func (p *Plugin) Logger() *slog.Logger { return p.log }

// Context returns a context that is cancelled when the plugin is unloaded
// (its cause is ErrUnloaded). Use it for background work.
func (p *Plugin) Context() context.Context { return p.ctx }

// OnUnload registers a function that runs when the plugin is unloaded or
// reloaded, before the process exits. Its ctx ends after a few seconds.
// An error it returns fires VigorPluginUnloadFail.
func (p *Plugin) OnUnload(fn func(ctx context.Context) error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.onUnload = append(p.onUnload, fn)
}

// Handle registers fn as the method called by vigor#request(),
// vigor#notify() and vigor#request_async(). fn is a func whose first
// parameter may be a context.Context; the other parameters are decoded from
// the editor's arguments, in order (a variadic last parameter takes the
// rest). It returns nothing, a result, an error, or (result, error).
//
// Handle panics if fn is not such a func, or if method is empty or starts
// with "$"; during setup that panic fails the load with the message.
func (p *Plugin) Handle(method string, fn any) {
	h, err := newHandler(method, fn)
	if err != nil {
		panic(fmt.Sprintf("vigor: Handle(%q): %v", method, err))
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.handlers[method] = h
}

// Main runs a plugin. Call it from func main. setup registers the plugin's
// methods and does any start-up work; the plugin counts as loaded (and
// VigorPluginPost fires) when setup returns nil. If setup returns an error,
// the load fails and the user sees that error.
//
// Main returns only by exiting the process: when the plugin is unloaded, or
// when the editor goes away.
func Main(setup func(ctx context.Context, p *Plugin) error) {
	// Stdin stays a blocking file: the session reads it with blocking
	// system calls, which wake faster than the runtime poller
	// (internal/rpc/direct_linux.go).
	in := os.Stdin
	out := channelOut(os.Getenv(protocol.EnvHost))
	// Stray prints must not corrupt the channel: fmt.Println and friends
	// go to stderr, which the runtime copies to the plugin's log. The old
	// os.Stdout must stay reachable, or its finalizer closes fd 1.
	stdout := os.Stdout
	os.Stdout = os.Stderr
	// The editor owns the plugin's lifetime. Ctrl-C in the editor's
	// terminal is not for the plugin; SIGTERM (Vim stops its jobs with it
	// when it quits) ends the plugin like an editor that went away: the
	// unload hooks run.
	signal.Ignore(os.Interrupt)
	// One P, unless the user chose: a plugin waits on the editor far more
	// than it computes, and with more Ps its calls cross vCPUs more often
	// (1.5-2x slower calls on 2 cores; BENCHMARKS.md).
	// A plugin that computes in parallel can raise it in setup.
	if os.Getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(1)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	code := serve(ctx, os.Getenv, in, out, os.Stderr, setup)
	stop()
	runtime.KeepAlive(stdout)
	os.Exit(code)
}

// serve is Main without the process: it returns the exit code.
func serve(ctx context.Context, getenv func(string) string, in io.Reader, out io.Writer, stderr io.Writer,
	setup func(ctx context.Context, p *Plugin) error) int {
	name := getenv(protocol.EnvPlugin)
	hostName := getenv(protocol.EnvHost)
	if name == "" || hostName == "" {
		fmt.Fprintf(stderr, "This program is a Vigor plugin. Vim or Neovim starts it; it does nothing on its own.\n"+
			"Put its repository on 'runtimepath' next to Vigor (see :help vigor).\n")
		return 2
	}
	codec, err := host.NewCodec(hostName, getenv(protocol.EnvVimCalls), in)
	if err != nil {
		fmt.Fprintf(stderr, "vigor: %s: %v\n", name, err)
		return 2
	}
	host.SetChunkPrefix(codec, name, getenv(protocol.EnvInstance))
	p := &Plugin{
		name:     name,
		instance: getenv(protocol.EnvInstance),
		dir:      getenv(protocol.EnvDir),
		meta: Meta{
			Host:     hostName,
			Version:  getenv(protocol.EnvEditorVersion),
			Platform: getenv(protocol.EnvPlatform),
			Mode:     getenv(protocol.EnvMode),
		},
		codec:    codec,
		handlers: make(map[string]*handler),
		quit:     make(chan struct{}),
	}
	p.log, p.logPath = openLog(getenv(protocol.EnvLog), stderr, name)
	if path := getenv(EnvCPUProfile); path != "" {
		stop := startCPUProfile(path+"."+name+".pprof", p.log)
		defer stop()
	}
	// ctx ends the plugin (SIGTERM); it is not the parent of the plugin's
	// contexts, whose cause must be ErrUnloaded then too.
	p.ctx, p.cancel = context.WithCancelCause(context.WithoutCancel(ctx))
	p.gen, p.genStop = context.WithCancelCause(p.ctx)
	input, _ := in.(*os.File)
	p.sess = rpc.New(codec, host.NewWriter(hostName, out), rpc.Options{
		Handler:    (*dispatcher)(p),
		Preempt:    p.preempt,
		BadMessage: p.badMessage,
		Input:      input,
	})
	p.ed = host.New(hostName, p.sess, codec)

	runErr := make(chan error, 1)
	go func() { runErr <- p.sess.Run(p.ctx) }()
	// Run waits for the handlers it started before it returns, so they
	// must see the editor go away: end every context when the session ends.
	go func() {
		select {
		case <-p.sess.Done():
		case <-p.quit: // unloaded: unload cancels the contexts itself
		}
		p.cancel(ErrUnloaded)
	}()

	if err := p.setup(setup); err != nil {
		p.log.Error("load failed", "err", err)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_, _ = p.ed.Call(ctx, protocol.FuncFailed, []any{p.name, p.instance, err.Error()})
		cancel()
		return 1
	}
	p.log.Info("loaded", "host", p.meta.Host, "version", p.meta.Version, "sdk", SDKVersion,
		"protocol", protocol.Version, "runtime_protocol", getenv(protocol.EnvProtocol))
	info := map[string]any{
		"protocol": protocol.Version,
		"sdk":      SDKVersion,
		"pid":      os.Getpid(),
		"methods":  p.methodNames(),
		"log":      p.logPath,
	}
	_ = p.ed.Notify(p.ctx, protocol.FuncReady, []any{p.name, p.instance, info})

	select {
	case err := <-runErr:
		// The editor closed the channel: clean up and go.
		p.log.Info("channel closed", "err", err)
		p.unload(context.Background(), false)
		return 0
	case <-ctx.Done():
		// SIGTERM: the editor is quitting.
		p.log.Info("terminated")
		p.unload(context.Background(), false)
		return 0
	case <-p.quit:
		p.work.Wait()
		return 0
	}
}

func (p *Plugin) setup(setup func(ctx context.Context, p *Plugin) error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			p.log.Error("panic during setup", "panic", r, "stack", string(debug.Stack()))
			err = fmt.Errorf("panic: %v (stack in %s)", r, p.logPath)
		}
	}()
	return setup(p.ctx, p)
}

func (p *Plugin) methodNames() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	names := make([]string, 0, len(p.handlers))
	for n := range p.handlers {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// handlerContext returns a context for one handler: cancelled by an
// interrupt, by unload, or when the editor goes away.
func (p *Plugin) handlerContext() (context.Context, context.CancelFunc) {
	p.mu.Lock()
	gen := p.gen
	p.mu.Unlock()
	return context.WithCancel(gen)
}

// interrupt cancels every handler's context and starts a new generation.
func (p *Plugin) interrupt(reason string) {
	cause := ErrInterrupted
	if reason != "" {
		cause = fmt.Errorf("%w: %s", ErrInterrupted, reason)
	}
	p.mu.Lock()
	p.genStop(cause)
	p.gen, p.genStop = context.WithCancelCause(p.ctx)
	p.mu.Unlock()
	p.log.Info("interrupted", "reason", reason)
}

func (p *Plugin) preempt(m *wire.Message) bool {
	if m.Method != protocol.MethodInterrupt {
		return false
	}
	var reason string
	if len(m.Params) > 0 {
		var v any
		if err := p.codec.Unmarshal(m.Params[0], &v); err == nil && v != nil {
			reason = fmt.Sprint(v)
		}
	}
	p.interrupt(reason)
	return true
}

func (p *Plugin) badMessage(m *wire.Message, err error) any {
	p.log.Error("bad message from the editor", "err", err)
	return []any{nil, err.Error()}
}

// unload runs the unload hooks once. If report is set, it tells the editor
// how they went.
func (p *Plugin) unload(ctx context.Context, report bool) {
	p.mu.Lock()
	if p.unloaded {
		p.mu.Unlock()
		return
	}
	p.unloaded = true
	hooks := p.onUnload
	p.mu.Unlock()
	p.cancel(ErrUnloaded)
	// request_async calls that were running answer now (their ctx ended):
	// let their answers go out before the unload report, so that the
	// editor handles them before it sees the process exit.
	answered := make(chan struct{})
	go func() { p.work.Wait(); close(answered) }()
	select {
	case <-answered:
	case <-time.After(unloadHookTimeout):
	}

	hctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), unloadHookTimeout)
	defer cancel()
	var errs []string
	for i := len(hooks) - 1; i >= 0; i-- {
		if err := p.runHook(hctx, hooks[i]); err != nil {
			errs = append(errs, err.Error())
		}
	}
	if report {
		var msg any
		if len(errs) > 0 {
			msg = strings.Join(errs, "; ")
			p.log.Error("unload failed", "err", msg)
		}
		// The hooks may have used up their time: the report gets its own.
		rctx, rcancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
		_, _ = p.ed.Call(rctx, protocol.FuncUnloaded, []any{p.name, p.instance, msg})
		rcancel()
	}
	p.qmu.Do(func() { close(p.quit) })
}

func (p *Plugin) runHook(ctx context.Context, fn func(context.Context) error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			p.log.Error("panic in unload hook", "panic", r, "stack", string(debug.Stack()))
			err = fmt.Errorf("panic: %v (stack in %s)", r, p.logPath)
		}
	}()
	return fn(ctx)
}

// EnvCPUProfile names an environment variable: when it is set (in the
// editor's environment), each plugin writes a CPU profile of its whole run
// to <value>.<plugin>.pprof, for `go tool pprof`.
const EnvCPUProfile = "VIGOR_CPUPROFILE"

func startCPUProfile(path string, log *slog.Logger) func() {
	f, err := os.Create(path)
	if err != nil {
		log.Error("cannot write the CPU profile", "err", err)
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		log.Error("cannot start the CPU profile", "err", err)
		f.Close()
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}

// unloadHookTimeout bounds the unload hooks; it is shorter than the
// runtime's g:vigor#unload_timeout (3000 ms by default), after which the
// process is killed.
const unloadHookTimeout = 2 * time.Second

// dispatcher serves the editor's messages (rpc.Handler).
type dispatcher Plugin

// Request implements rpc.Handler: vigor#request().
func (d *dispatcher) Request(_ context.Context, m *wire.Message) any {
	p := (*Plugin)(d)
	res, err := p.run(m.Method, m.Params)
	if err != nil {
		return []any{nil, err.Error()}
	}
	return []any{res, nil}
}

// Notification implements rpc.Handler: vigor#notify(), request_async and the
// runtime's own messages.
func (d *dispatcher) Notification(ctx context.Context, m *wire.Message) {
	p := (*Plugin)(d)
	switch m.Method {
	case protocol.MethodUnload:
		p.unload(ctx, true)
		return
	case protocol.MethodAsync:
		p.async(m)
		return
	case "nvim_error_event":
		var v any
		if len(m.Params) > 0 {
			_ = p.codec.Unmarshal(m.Params[len(m.Params)-1], &v)
		}
		p.log.Error("Neovim reported an error for a notification", "err", v)
		return
	}
	if _, err := p.run(m.Method, m.Params); err != nil {
		p.tellError(m.Method, err)
	}
}

// async runs a request_async call on its own goroutine and resolves the
// editor's callbacks.
func (p *Plugin) async(m *wire.Message) {
	if len(m.Params) != 4 {
		p.log.Error("bad $async message", "params", len(m.Params))
		return
	}
	var ok, fail, method string
	var params []wire.Raw
	err := errors.Join(p.codec.Unmarshal(m.Params[0], &ok), p.codec.Unmarshal(m.Params[1], &fail),
		p.codec.Unmarshal(m.Params[2], &method))
	if err == nil {
		params, err = p.codec.SplitList(m.Params[3])
	}
	if err != nil {
		p.log.Error("bad $async message", "err", err)
		return
	}
	p.work.Add(1)
	go func() {
		defer p.work.Done()
		res, err := p.run(method, params)
		var args []any
		if err != nil {
			args = []any{ok, fail, false, map[string]any{
				"name":    "VigorError",
				"plugin":  p.name,
				"method":  method,
				"message": err.Error(),
			}}
		} else {
			args = []any{ok, fail, true, res}
		}
		// The plugin may be unloading (p.ctx is cancelled then); the
		// answer must still reach the editor, or its callbacks leak.
		if err := p.ed.Notify(context.WithoutCancel(p.ctx), protocol.FuncResolve, args); err != nil {
			p.log.Error("cannot resolve request_async", "method", method, "err", err)
		}
	}()
}

// run calls a handler with panic recovery.
func (p *Plugin) run(method string, params []wire.Raw) (res any, err error) {
	p.mu.Lock()
	h := p.handlers[method]
	p.mu.Unlock()
	if h == nil {
		return nil, fmt.Errorf("no method %q; the plugin has: %s", method, strings.Join(p.methodNames(), ", "))
	}
	ctx, cancel := p.handlerContext()
	defer cancel()
	defer func() {
		if r := recover(); r != nil {
			p.log.Error("panic in handler", "method", method, "panic", r, "stack", string(debug.Stack()))
			res, err = nil, fmt.Errorf("panic: %v (stack in %s)", r, p.logPath)
		}
	}()
	return h.call(ctx, p.codec, params)
}

// tellError shows an error from a notified method to the user.
func (p *Plugin) tellError(method string, err error) {
	p.log.Error("notified method failed", "method", method, "err", err)
	_ = p.ed.Notify(p.ctx, protocol.FuncEcho, []any{"error", p.name, method + ": " + err.Error()})
}

// maxLog is the size at which a plugin's log is moved to <log>.1 (replacing
// the older one) when the plugin starts.
const maxLog = 1 << 20

func openLog(path string, fallback io.Writer, name string) (*slog.Logger, string) {
	w := fallback
	shown := "the plugin's stderr"
	if path != "" {
		if st, err := os.Stat(path); err == nil && st.Size() > maxLog {
			_ = os.Rename(path, path+".1")
		}
		if f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600); err == nil {
			w = f
			shown = path
		}
	}
	l := slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelDebug}))
	return l.With("plugin", name, "pid", strconv.Itoa(os.Getpid())), shown
}
