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
	// asyncRunning counts the request_async handlers that have started and
	// not yet answered. Invariant, under mu: a handler starts (the count
	// goes up) only while unloaded is false, and asyncIdle is closed once
	// unloaded is set and the count is 0. So no handler starts while the
	// unload waits for the running ones, and the wait is on a channel.
	asyncRunning int
	asyncIdle    chan struct{}

	quit chan struct{} // closed when the plugin should exit
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
// reloaded, before the process exits. Hooks run one at a time, the last
// registered first. Their ctx ends before the unload budget
// (g:vigor#unload_timeout, 3 s by default) runs out; a hook that has not
// returned soon after is left behind, as the process exits. An error it
// returns, or a hook left behind, fires VigorPluginUnloadFail.
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
	out := channelOut(host.PollWrites(os.Getenv(protocol.EnvHost)))
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
		codec:     codec,
		handlers:  make(map[string]*handler),
		asyncIdle: make(chan struct{}),
		quit:      make(chan struct{}),
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
	p.sess = rpc.New(codec, out, rpc.Options{
		Handler:    (*dispatcher)(p),
		Preempt:    p.preempt,
		Bind:       p.bind,
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
		p.unload(context.Background(), false, protocol.UnloadBudget*time.Millisecond)
		return 0
	case <-ctx.Done():
		// SIGTERM: the editor is quitting.
		p.log.Info("terminated")
		p.unload(context.Background(), false, protocol.UnloadBudget*time.Millisecond)
		return 0
	case <-p.quit:
		// unload has waited for the request_async handlers as long as
		// its budget let it.
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

// bind returns the context of the handler of a message just read: the
// current interrupt generation, which an interrupt read after the message
// cancels however late the handler starts. It is cancelled by unload, and
// when the editor goes away. The session calls it on its reading
// goroutine, in the order the messages came (rpc.Options.Bind).
func (p *Plugin) bind(*wire.Message) context.Context {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.gen
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

// unloadPlan divides an unload's budget (protocol.UnloadBudget, or what
// the runtime sent with $unload) between its steps: the running
// request_async handlers answer (within a tenth of the budget, after
// which they are waited for again behind the hooks), the hooks run until
// their ctx ends, a short while is left for hooks that return when it
// ends, and the report to the editor closes the budget. The report keeps a
// fifth of the budget, at most unloadReportTime.
type unloadPlan struct {
	asyncFirst time.Time // the first wait for the request_async handlers ends
	hooksCtx   time.Time // the hooks' ctx ends
	hooksEnd   time.Time // the wait for the hooks (and the handlers) ends
	deadline   time.Time // the report is made, or given up: the budget ends
}

// unloadReportTime caps the part of the budget kept for the report.
const unloadReportTime = 500 * time.Millisecond

func newUnloadPlan(start time.Time, budget time.Duration) unloadPlan {
	report := min(budget/5, unloadReportTime)
	return unloadPlan{
		asyncFirst: start.Add(budget / 10),
		hooksCtx:   start.Add(budget - report),
		hooksEnd:   start.Add(budget - report/2),
		deadline:   start.Add(budget),
	}
}

// unloadBudget reads the budget that the runtime sends with $unload.
func (p *Plugin) unloadBudget(params []wire.Raw) time.Duration {
	if len(params) > 0 {
		var ms float64
		if err := p.codec.Unmarshal(params[0], &ms); err == nil && ms >= 0 {
			return time.Duration(ms * float64(time.Millisecond))
		}
	}
	return protocol.UnloadBudget * time.Millisecond
}

// unload runs the unload once, within budget: it cancels the plugin's
// contexts, waits for the running request_async handlers to answer, runs
// the unload hooks and, if report is set, tells the editor how they went.
// What has not returned when its part of the budget ends is left behind:
// the process exits next.
func (p *Plugin) unload(ctx context.Context, report bool, budget time.Duration) {
	plan := newUnloadPlan(time.Now(), budget)
	p.mu.Lock()
	if p.unloaded {
		p.mu.Unlock()
		return
	}
	p.unloaded = true
	if p.asyncRunning == 0 {
		close(p.asyncIdle)
	}
	hooks := p.onUnload
	p.mu.Unlock()
	p.cancel(ErrUnloaded)
	// request_async calls that were running answer now (their ctx ended):
	// let their answers go out before the unload report, so that the
	// editor handles them before it sees the process exit.
	p.waitAsync(plan.asyncFirst)
	errs := p.runHooks(ctx, hooks, plan, budget)
	if !p.waitAsync(plan.hooksEnd) {
		p.log.Error("request_async handlers did not return within the unload budget; the editor fails their calls when the process exits",
			"budget", budget)
	}
	if report {
		var msg any
		if len(errs) > 0 {
			msg = strings.Join(errs, "; ")
			p.log.Error("unload failed", "err", msg)
		}
		rctx, rcancel := context.WithDeadline(context.WithoutCancel(ctx), plan.deadline)
		_, _ = p.ed.Call(rctx, protocol.FuncUnloaded, []any{p.name, p.instance, msg})
		rcancel()
	}
	p.qmu.Do(func() { close(p.quit) })
}

// waitAsync waits until the request_async handlers have answered, or until
// the time until. It reports whether they have.
func (p *Plugin) waitAsync(until time.Time) bool {
	t := time.NewTimer(time.Until(until))
	defer t.Stop()
	select {
	case <-p.asyncIdle:
		return true
	case <-t.C:
		return false
	}
}

// runHooks runs the unload hooks, last registered first, on a goroutine of
// its own with a ctx that ends at plan.hooksCtx, and returns their errors.
// It waits for them until plan.hooksEnd; a hook that is still running then
// is left behind (the process exits under it), and that is an error too.
func (p *Plugin) runHooks(ctx context.Context, hooks []func(context.Context) error, plan unloadPlan, budget time.Duration) []string {
	if len(hooks) == 0 {
		return nil
	}
	hctx, cancel := context.WithDeadline(context.WithoutCancel(ctx), plan.hooksCtx)
	defer cancel()
	// The hooks' goroutine owns errs until it closes done; after that,
	// or once the wait has given up, errs is read under mu.
	var mu sync.Mutex
	var errs []string
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := len(hooks) - 1; i >= 0; i-- {
			if err := p.runHook(hctx, hooks[i]); err != nil {
				mu.Lock()
				errs = append(errs, err.Error())
				mu.Unlock()
			}
		}
	}()
	t := time.NewTimer(time.Until(plan.hooksEnd))
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
		mu.Lock()
		errs = append(errs, fmt.Sprintf("an unload hook did not return within the unload budget (%d ms, g:vigor#unload_timeout), so the plugin exited without it",
			budget.Milliseconds()))
		mu.Unlock()
		p.log.Error("an unload hook did not return in time; exiting without it", "budget", budget)
	}
	mu.Lock()
	defer mu.Unlock()
	return append([]string(nil), errs...)
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

// dispatcher serves the editor's messages (rpc.Handler).
type dispatcher Plugin

// Request implements rpc.Handler: vigor#request().
func (d *dispatcher) Request(ctx context.Context, m *wire.Message) any {
	p := (*Plugin)(d)
	res, err := p.run(ctx, m.Method, m.Params)
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
		p.unload(ctx, true, p.unloadBudget(m.Params))
		return
	case protocol.MethodAsync:
		p.async(ctx, m)
		return
	}
	if ok, err := p.ed.EditorNotification(m); ok {
		if err != nil {
			p.log.Error("the editor reported an error", "err", err)
		}
		return
	}
	if _, err := p.run(ctx, m.Method, m.Params); err != nil {
		p.tellError(m.Method, err)
	}
}

// async runs a request_async call on its own goroutine and resolves the
// editor's callbacks.
func (p *Plugin) async(ctx context.Context, m *wire.Message) {
	if len(m.Params) != 4 {
		p.log.Error("bad $async message", "params", len(m.Params))
		return
	}
	var ok, fail, method string
	err := errors.Join(p.codec.Unmarshal(m.Params[0], &ok), p.codec.Unmarshal(m.Params[1], &fail),
		p.codec.Unmarshal(m.Params[2], &method))
	if err != nil {
		p.log.Error("bad $async message", "err", err)
		return
	}
	params, perr := p.codec.SplitList(m.Params[3])
	p.mu.Lock()
	if p.unloaded {
		// It was on its way when the unload began: answer without
		// running it.
		p.mu.Unlock()
		p.resolve(ok, fail, method, nil, ErrUnloaded)
		return
	}
	p.asyncRunning++
	p.mu.Unlock()
	go func() {
		defer p.asyncDone()
		var res any
		var err error
		if perr != nil {
			// The runtime checks this; an answer is still owed, or the
			// callbacks leak.
			p.log.Error("bad $async params", "method", method, "err", perr)
			err = fmt.Errorf("its arguments must be a List, not a %s", p.codec.TypeName(m.Params[3]))
		} else {
			res, err = p.run(ctx, method, params)
		}
		p.resolve(ok, fail, method, res, err)
	}()
}

// asyncDone counts a request_async handler out (see asyncRunning).
func (p *Plugin) asyncDone() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.asyncRunning--
	if p.asyncRunning == 0 && p.unloaded {
		close(p.asyncIdle)
	}
}

// resolve answers a request_async call: its success callback gets res, or
// its failure callback an error object made from err.
func (p *Plugin) resolve(ok, fail, method string, res any, err error) {
	args := []any{ok, fail, true, res}
	if err != nil {
		args = []any{ok, fail, false, map[string]any{
			"name":    "VigorError",
			"plugin":  p.name,
			"method":  method,
			"message": err.Error(),
		}}
	}
	// The plugin may be unloading (p.ctx is cancelled then); the answer
	// must still reach the editor, or its callbacks leak.
	if err := p.ed.Notify(context.WithoutCancel(p.ctx), protocol.FuncResolve, args); err != nil {
		p.log.Error("cannot resolve request_async", "method", method, "err", err)
	}
}

// run calls a handler with panic recovery.
func (p *Plugin) run(ctx context.Context, method string, params []wire.Raw) (res any, err error) {
	p.mu.Lock()
	h := p.handlers[method]
	p.mu.Unlock()
	if h == nil {
		return nil, fmt.Errorf("no method %q; the plugin has: %s", method, strings.Join(p.methodNames(), ", "))
	}
	ctx, cancel := context.WithCancel(ctx)
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
