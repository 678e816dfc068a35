package vigor

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/vigorvim/vigor/internal/host"
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
	conn     *host.Conn // the channel to the editor
	dec      decoder    // for handler parameters and CallAs
	ed       editor     // conn's Editor (a benchmark may put another in its place)
	// argBufs holds *[]any for the copies of a call's arguments (callEditor).
	argBufs sync.Pool
	log     *slog.Logger
	logOut  io.Writer // what log writes to; logPanic writes there too
	logPath string
	rtt     latencies // the durations of the last calls to the editor
	// batchBufs holds the emptied lists of finished batches
	// (*batchBufs) for Batch to reuse: a 1000-call batch that grows its
	// own lists copies them ten times.
	batchBufs sync.Pool

	ctx    context.Context // cancelled (ErrUnloaded) on unload
	cancel context.CancelCauseFunc

	mu       sync.Mutex
	handlers map[string]*handler
	// lambdas holds the handlers of HandleLambda, by method name
	// ("$lambda:<instance>.<n>"); lambdaSeq is the last n given and
	// lambdaPeak the most entries lambdas has held since it was made.
	// Invariant, under mu: a Go map keeps its buckets when entries are
	// deleted, so Unhandle makes lambdas anew once it holds fewer than a
	// quarter of lambdaPeak (and lambdaPeak is then its size): memory
	// follows the lambdas registered, not the most ever registered.
	lambdas    map[string]*handler
	lambdaSeq  uint64
	lambdaPeak int
	gen        context.Context // the current interrupt generation
	genStop    context.CancelCauseFunc
	onUnload   []func(context.Context) error
	unloaded   bool
	// asyncRunning counts the request_async handlers that have started and
	// not yet answered. Invariant, under mu: a handler starts (the count
	// goes up) only while unloaded is false, and asyncIdle is closed once
	// unloaded is set and the count is 0. So no handler starts while the
	// unload waits for the running ones, and the wait is on a channel.
	asyncRunning int
	asyncIdle    chan struct{}
	// ending is set once the unload has begun, or its $unload has been
	// read (preempt). A request_async call read after that does not run:
	// the reading goroutine hands it to a goroutine of its own that
	// answers it (Late), and lateAnswers counts those answers.
	// Invariant, under mu: lateAnswers goes up on the reading goroutine
	// before the next message is read, and down once the answer has been
	// written or has failed; each time it reaches 0, lateIdle gets a
	// token (capacity 1), and the unload waits for 0 (within its budget)
	// before it quits, so that those answers go before serve returns.
	ending      bool
	lateAnswers int
	lateIdle    chan struct{}
	// runs holds the handlers that are running (run), each in a slot
	// that it takes as it starts and frees as it returns (runFree lists
	// the free ones, for the next handler: a call allocates nothing to be
	// counted), for the interrupt's early answers and the check of the
	// handlers that ignore their interrupt (stuck). stuckBudget is the
	// last interrupt's budget. stuckTold is set once the runtime has been
	// told of stuck handlers.
	runs        []runEntry
	runFree     []int
	stuckBudget time.Duration
	stuckTold   bool
	// stuckTimer runs stuck at stuckAt (zero when it is not set); it is
	// made on the first interrupt and set again by later ones (armStuck).
	// The plugin owns its goroutine: stopStuck stops it and sets stuckOff
	// when the plugin unloads and when serve returns, and stuck does
	// nothing once stuckOff or unloaded is set, so no report goes to an
	// editor that has gone (a check already past that test still sends).
	stuckTimer *time.Timer
	stuckAt    time.Time
	stuckOff   bool

	quit chan struct{} // closed when the plugin should exit
	qmu  sync.Once

	// exitAt is when the process exits, whatever still runs: zero until an
	// unload begins (or $unload is read), then its budget's end, only ever
	// brought forward. exitMoved is closed, and replaced, each time exitAt
	// changes (both under mu; see exitBy and awaitEnd).
	exitAt    time.Time
	exitMoved chan struct{}
}

// editor is how the SDK calls the editor: host.Conn's Editor, whose
// results come as host.Values.
type editor interface {
	Call(ctx context.Context, fn string, args []any) (host.Value, error)
	Notify(ctx context.Context, fn string, args []any) error
	NewBatch() *host.Batch
	SendBatch(ctx context.Context, b *host.Batch) (host.Values, error)
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
//
// The hooks run, within the default budget, when the editor goes away
// too (it closes the channel or sends SIGTERM). Whatever runs them, the
// process exits when the budget ends, even if a hook or a handler never
// returns.
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

// LambdaPrefix starts the method names that HandleLambda gives. Handle
// refuses every name that starts with "$", so these never clash with a
// plugin's own methods.
const LambdaPrefix = "$lambda:"

// HandleLambda registers fn, as Handle takes it, under a new method name
// that it returns: LambdaPrefix, the plugin process's instance number, a
// dot and a sequence number, such as "$lambda:2.17". A name is never
// given twice, not even by a later process of the same plugin (after a
// reload), so an old expression cannot reach a new closure. std/lambda
// builds on it; most plugins use that package.
//
// A call to a name that is not registered (any more) fails with an error
// that says so. The names are not listed where the plugin's methods are
// (:Vigor status, the error for an unknown method).
func (p *Plugin) HandleLambda(fn any) (method string, err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.lambdaSeq++
	method = p.lambdaName(p.lambdaSeq)
	h, err := funcHandler(method, fn)
	if err != nil {
		return "", err
	}
	if p.lambdas == nil {
		p.lambdas = make(map[string]*handler)
	}
	p.lambdas[method] = h
	p.lambdaPeak = max(p.lambdaPeak, len(p.lambdas))
	return method, nil
}

func (p *Plugin) lambdaName(n uint64) string {
	return LambdaPrefix + p.lambdaInstance() + "." + strconv.FormatUint(n, 10)
}

// lambdaInstance is the instance part of the lambda names that this
// process gives ("0" when the runtime gave no instance number).
func (p *Plugin) lambdaInstance() string {
	if p.instance == "" {
		return "0"
	}
	return p.instance
}

// Unhandle removes the handler of method, registered by Handle or
// HandleLambda; later calls of method fail as calls of an unknown method
// do. A call already running finishes. Unhandle of a method that is not
// registered does nothing.
func (p *Plugin) Unhandle(method string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !strings.HasPrefix(method, LambdaPrefix) {
		delete(p.handlers, method)
		return
	}
	if _, ok := p.lambdas[method]; !ok {
		return
	}
	delete(p.lambdas, method)
	if p.lambdaPeak >= 64 && len(p.lambdas) < p.lambdaPeak/4 {
		m := make(map[string]*handler, len(p.lambdas))
		for k, v := range p.lambdas {
			m[k] = v
		}
		p.lambdas = m
		p.lambdaPeak = len(m)
	}
}

// lambdaCount returns how many lambdas are registered (for tests).
func (p *Plugin) lambdaCount() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.lambdas)
}

// unknownLambda is the error of a call of the lambda method that is not
// registered.
func (p *Plugin) unknownLambda(method string) error {
	inst, _, _ := strings.Cut(strings.TrimPrefix(method, LambdaPrefix), ".")
	if inst != p.lambdaInstance() {
		return fmt.Errorf("lambda %s belongs to an earlier process of the plugin (it has reloaded since); register it again", method)
	}
	return fmt.Errorf("lambda %s is not registered (it has been unregistered)", method)
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
