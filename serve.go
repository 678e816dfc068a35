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
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/vigorvim/vigor/internal/host"
	"github.com/vigorvim/vigor/internal/inherited"
	"github.com/vigorvim/vigor/internal/protocol"
	"github.com/vigorvim/vigor/internal/wire"
)

// A plugin holds only its channel and stderr: in a process that the
// runtime started as a plugin (its environment names the plugin and the
// editor, as serve requires), the descriptors inherited from the editor
// are closed here (see package inherited: Vim's jobs inherit the editor's
// ends of the other plugins' pipes, and its sockets). This is package
// initialisation, not Main, because it must come before any code of the
// plugin can start a child process or open a descriptor that is not
// close-on-exec: the package main of a plugin and every package that
// imports this one are initialised after it. Packages initialised before
// it open their files through Go, close-on-exec, so what it closes is
// only what the editor left open. Outside a plugin (a test binary, a tool
// that imports this package) nothing is closed.
func init() {
	if os.Getenv(protocol.EnvPlugin) != "" && os.Getenv(protocol.EnvHost) != "" {
		// If the descriptors cannot be listed, they stay: the plugin
		// works, only less isolated.
		_, _ = inherited.CloseAll()
	}
}

// Main runs a plugin. Call it from func main. setup registers the plugin's
// methods and does any start-up work; the plugin counts as loaded (and
// VigorPluginPost fires) when setup returns nil. If setup returns an error,
// the load fails and the user sees that error.
//
// Main returns only by exiting the process: when the plugin is unloaded, or
// when the editor goes away (it closes the channel, or sends SIGTERM as
// Vim does when it quits). Either way the unload keeps to its budget
// (g:vigor#unload_timeout; protocol.UnloadBudget when the editor goes
// away): the process exits when its unload is done or when the budget
// ends, whatever still runs then. Handlers, unload hooks and a setup that
// ignore their ctx are left behind by the exit, so nothing outlives the
// editor by more than the budget. A channel that ends before any unload
// began gets one line on stderr saying whether the editor or the plugin
// closed it, which the runtime reads to tell the user why the plugin went.
// The processes that the plugin started end with it (see "Child
// processes" in the package documentation): on Linux, when the plugin
// leads a session of its own (as the editor starts it), Main sends their
// process group SIGTERM as it exits, and SIGKILL to what still runs
// after a grace; run any other way (from a shell, by a test), it leaves
// its group alone.
func Main(setup func(ctx context.Context, p *Plugin) error) {
	// The channel moves off fds 0 and 1 (on Unix), and fd 1 then writes
	// to stderr. The input stays a blocking file: the session reads it
	// with blocking system calls, which wake faster than the runtime
	// poller (internal/rpc/direct_linux.go).
	in, out := channelFiles(host.PollWrites(os.Getenv(protocol.EnvHost)))
	// The plugin writes its log itself: fd 2 (and fd 1, once the channel
	// has left it) go to the log file, so that what the plugin, its
	// children and Go's runtime print (a panic's report) costs the editor
	// nothing; the runtime copies only what comes before this line.
	// What the SDK tells the runtime (who closed the channel) goes to the
	// editor's stderr pipe, which the runtime reads.
	toRuntime := io.Writer(os.Stderr)
	if pipe := stderrToLog(os.Getenv(protocol.EnvLog), out != os.Stdout); pipe != nil {
		toRuntime = pipe
	}
	// Stray prints must not corrupt the channel: fmt.Println and friends
	// go to stderr, also where fd 1 is still the channel. The old
	// os.Stdout must stay reachable, or its finalizer closes fd 1, and a
	// file opened later could take its place.
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
	code := serve(ctx, os.Getenv, in, out, toRuntime, setup)
	// What the plugin started ends with it, in the grace that the runtime
	// gives a plugin after its budget.
	endGroup(protocol.UnloadGrace * time.Millisecond)
	stop()
	runtime.KeepAlive(stdout)
	os.Exit(code)
}

// Serve runs a plugin as Main does, but over in and out, with the
// runtime's environment read from getenv, and returns the exit code that
// Main would exit with when the session ends. It leaves the process alone
// (descriptors, signals, GOMAXPROCS). Everything it writes to out is
// written before it returns; what the plugin would write later (a
// handler that the unload left behind) is dropped and logged. It is for
// programs that play the editor, such as vigortest's Fake; a plugin
// calls Main.
func Serve(ctx context.Context, getenv func(string) string, in io.Reader, out io.Writer, stderr io.Writer,
	setup func(ctx context.Context, p *Plugin) error) int {
	return serve(ctx, getenv, in, out, stderr, setup)
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
		handlers:  make(map[string]*handler),
		asyncIdle: make(chan struct{}),
		lateIdle:  make(chan struct{}, 1),
		quit:      make(chan struct{}),
		exitMoved: make(chan struct{}),
	}
	// The stuck check ends with serve (see Plugin.stuckTimer).
	defer func() {
		p.mu.Lock()
		p.stopStuck()
		p.mu.Unlock()
	}()
	p.log, p.logOut, p.logPath = openLog(getenv(protocol.EnvLog), stderr, name)
	if path := getenv(EnvCPUProfile); path != "" {
		stop := startCPUProfile(path+"."+name+".pprof", p.log)
		defer stop()
	}
	// ctx ends the plugin (SIGTERM); it is not the parent of the plugin's
	// contexts, whose cause must be ErrUnloaded then too.
	p.ctx, p.cancel = context.WithCancelCause(context.WithoutCancel(ctx))
	p.gen, p.genStop = context.WithCancelCause(p.ctx)
	intact := channelIntact(out)
	release := time.AfterFunc(time.Hour, p.releaseMemory)
	release.Stop()
	// Nothing is written after serve returns (endWriter).
	gate := &endWriter{w: fastOut(out), log: p.log}
	conn, err := host.Open(host.Config{
		Editor:   hostName,
		VimCalls: getenv(protocol.EnvVimCalls),
		Plugin:   name,
		Instance: p.instance,
		In:       in,
		Out:      gate,

		Handler:    (*dispatcher)(p),
		Preempt:    p.preempt,
		Ending:     p.isEnding,
		Bind:       p.bind,
		BadMessage: p.badMessage,
		Large:      func() { release.Reset(releaseDelay) },
		Trace:      p.tracer(getenv(protocol.EnvTrace) == "1"),
		Observe:    p.rtt.observe,
		Log:        p.log,
	})
	if err != nil {
		release.Stop()
		fmt.Fprintf(stderr, "vigor: %s: %v\n", name, err)
		return 2
	}
	p.conn, p.ed = conn, conn
	defer gate.end(endWriteWait)

	// The session's goroutine is the plugin's: it ends with the channel,
	// after the handlers it started, or is left behind by the exit (a
	// handler that ignores its ctx never returns).
	go func() { _ = p.conn.Run(p.ctx) }()
	// Handlers must see the editor go away: end every context when the
	// session ends.
	go func() {
		select {
		case <-p.conn.Done():
		case <-p.quit: // unloaded: unload cancels the contexts itself
		}
		p.cancel(ErrUnloaded)
	}()

	// Setup runs on a goroutine of its own, so that the editor's going
	// away ends a plugin whose setup does not return.
	setupErr := make(chan error, 1)
	go func() { setupErr <- p.setup(setup) }()
	select {
	case err := <-setupErr:
		if err != nil {
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
	case <-p.conn.Done():
	case <-ctx.Done():
	}
	return p.awaitEnd(ctx, stderr, intact)
}

// awaitEnd waits for the end of the plugin and returns the exit code. The
// end of the channel and SIGTERM (ctx) start an unload with the default
// budget; $unload starts one with its own. Whichever comes first sets
// the time of the exit (exitBy), and a later one can only bring it
// forward: awaitEnd returns when the unload is done, or at that time
// whatever still runs (handlers and hooks that ignore their ctx, a report
// that the editor does not read), so that nothing keeps the process
// after its budget.
//
// A channel that ends before any unload began was not closed by the
// runtime, which unloads first: awaitEnd tells the runtime on stderr who
// closed it (protocol.ClosedByEditor, protocol.ClosedByPlugin, as intact
// reports).
func (p *Plugin) awaitEnd(ctx context.Context, stderr io.Writer, intact func() bool) int {
	closed, term := p.conn.Done(), ctx.Done()
	for {
		p.mu.Lock()
		at, moved := p.exitAt, p.exitMoved
		p.mu.Unlock()
		var expired <-chan time.Time
		if !at.IsZero() {
			// (At most one budget long: it fires once and is dropped.)
			expired = time.After(time.Until(at))
		}
		select {
		case <-closed:
			closed = nil
			p.log.Info("channel closed", "err", p.conn.Err())
			if at.IsZero() {
				// The editor may be gone: not a write to fd 2 itself.
				line := protocol.ClosedByEditor
				if !intact() {
					line = protocol.ClosedByPlugin
				}
				fmt.Fprintln(pipeSafe(stderr), line)
			}
			p.endNow()
		case <-term:
			term = nil
			p.log.Info("terminated")
			p.endNow()
		case <-moved:
		case <-p.quit:
			return 0
		case <-expired:
			p.log.Error("the unload did not end within its budget; exiting without it")
			return 0
		}
	}
}

// endNow ends the plugin because the editor has gone or is quitting: it
// brings the exit forward to the default budget from now and starts the
// unload, unless one is under way. The unload's goroutine belongs to
// awaitEnd, which returns, and so exits, when the budget ends, whether or
// not the unload has.
func (p *Plugin) endNow() {
	budget := protocol.UnloadBudget * time.Millisecond
	p.exitBy(time.Now().Add(budget))
	go p.unload(context.Background(), false, budget)
}

// exitBy sets the time by which the process exits, if it is earlier than
// the one set, and tells awaitEnd.
func (p *Plugin) exitBy(at time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.exitAt.IsZero() && !at.Before(p.exitAt) {
		return
	}
	p.exitAt = at
	close(p.exitMoved)
	p.exitMoved = make(chan struct{})
}

// endWriter is the plugin's channel to the editor, which serve ends as
// it returns (end): Main exits then, and Serve's caller owns out again,
// so a write that comes later (the answer of a handler that the unload
// left behind, of a call read after the unload's end) is dropped with a
// log line instead of reaching out. The session writes one message at a
// time; mu is held by the write under way, so that end can wait for it.
type endWriter struct {
	w     io.Writer
	log   *slog.Logger
	mu    sync.Mutex
	ended atomic.Bool // set by end; no write reaches w after end returns
}

// errEnded is the error of a write after serve returned.
var errEnded = errors.New("the plugin has ended")

func (g *endWriter) Write(b []byte) (int, error) {
	if g.ended.Load() {
		return g.drop(b)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.ended.Load() {
		return g.drop(b)
	}
	return g.w.Write(b)
}

// SyscallConn is that of the writer under g, so that what writes through
// g still sees the pipe it writes to (vimjson.NewWriter makes Vim's pipe
// large enough for whole frames, and waits for room in it).
func (g *endWriter) SyscallConn() (syscall.RawConn, error) {
	if sc, ok := g.w.(syscall.Conn); ok {
		return sc.SyscallConn()
	}
	return nil, errors.New("the channel to the editor is not a file")
}

func (g *endWriter) drop(b []byte) (int, error) {
	g.log.Warn("a message to the editor came after the plugin had ended; dropped", "bytes", len(b))
	return 0, errEnded
}

// end stops the writes: none starts after it, and it waits up to wait for
// the one under way. One that is still blocked then (an editor that does
// not read) is left to the exit, and logged.
func (g *endWriter) end(wait time.Duration) {
	g.ended.Store(true)
	// A poll, not a wait on a channel: a channel held by each write costs
	// every write two of its locks, and end comes once.
	deadline := time.Now().Add(wait)
	for !g.mu.TryLock() {
		if time.Now().After(deadline) {
			g.log.Error("a write to the editor was still blocked when the plugin ended", "waited", wait)
			return
		}
		time.Sleep(time.Millisecond)
	}
	g.mu.Unlock()
}

// endWriteWait is how long serve waits, as it returns, for a write to the
// editor under way (endWriter.end).
const endWriteWait = 100 * time.Millisecond

// releaseDelay is how long after the last large message
// (rpc.LargeMessage) the plugin gives its memory back (releaseMemory).
const releaseDelay = 200 * time.Millisecond

// releaseMemory collects the garbage of large messages and returns the
// freed memory to the system. Without it, a plugin that echoed a 100 MiB
// String kept 500-540 MiB of RSS: Go collects when the heap grows, or
// every two minutes, and an idle plugin allocates nothing; and it returns
// freed memory to the system only slowly. It runs on the goroutine of a
// time.AfterFunc timer, releaseDelay after the last large message, and
// costs a GC of the live heap (BENCHMARKS.md, "Memory after a large
// message").
func (p *Plugin) releaseMemory() {
	start := time.Now()
	debug.FreeOSMemory()
	p.log.Debug("gave the memory of large messages back", "took", time.Since(start))
}

func (p *Plugin) setup(setup func(ctx context.Context, p *Plugin) error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			p.logPanic("panic during setup", r, debug.Stack())
			err = fmt.Errorf("panic: %v (stack in %s)", r, p.logPath)
		}
	}()
	return setup(p.ctx, p)
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

// tracer returns the session's Trace hook when on: every message goes to
// the log, decoded, one line each, with the time (g:vigor#trace).
func (p *Plugin) tracer(on bool) func(in bool, m *wire.Message, v any) {
	if !on {
		return nil
	}
	return func(in bool, m *wire.Message, v any) {
		dir := "send"
		if in {
			dir = "recv" // v is what m carries, decoded (host.Config.Trace)
		} else if r, ok := v.(interface{ Value() any }); ok {
			v = r.Value() // a handler's answer
		}
		text := fmt.Sprint(v)
		if len(text) > maxTraced {
			text = fmt.Sprintf("%s... (%d bytes)", text[:maxTraced], len(text))
		}
		p.log.Debug("rpc", "dir", dir, "kind", m.Kind.String(), "id", m.ID, "method", m.Method, "value", text)
	}
}

// maxTraced is how much of a message's value the trace logs.
const maxTraced = 2000
