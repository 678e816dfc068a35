// Package rpc is a symmetric RPC session over a wire.Codec: either side can
// call, notify and answer. It owns one read goroutine (Run), one goroutine
// that runs notifications in the order they arrived, and one goroutine per
// incoming request, so that a request handler can call back into the peer
// while the peer calls the handler's process again (re-entrancy).
//
// Ordering: a request starts only after every notification that arrived
// before it has been handled, so "notify, then request" sees the
// notification's effect. The one exception keeps re-entrancy deadlock-free:
// a request that arrives while one of our own calls is waiting for the peer
// may be nested inside the peer's handling of that call, so it starts at
// once.
package rpc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"
	"time"

	"github.com/vigorvim/vigor/internal/wire"
)

// ErrClosed is wrapped by the error of every call that could not complete
// because the session ended.
var ErrClosed = errors.New("connection closed")

// Handler serves what the peer sends.
type Handler interface {
	// Request answers one request. It runs on a goroutine of its own; the
	// value it returns is sent back as the result.
	Request(ctx context.Context, m *wire.Message) any
	// Notification handles one notification. Notifications run one at a
	// time, in the order they arrived.
	Notification(ctx context.Context, m *wire.Message)
}

// Options configure a Session. Handler is required.
type Options struct {
	Handler Handler
	// Preempt, if set, sees every notification first, on the read
	// goroutine, and returns true if it handled it. It must not block. It is
	// the fast path for interrupts, which must not queue behind other work.
	Preempt func(m *wire.Message) bool
	// BadMessage, if set, is told about messages that could not be decoded
	// but did not break the stream. For a request it returns the value to
	// answer with.
	BadMessage func(m *wire.Message, err error) any
	// Bind, if set, is called on the reading goroutine for every request
	// and every notification that Preempt did not take, in the order they
	// were read, and returns the context that its handler gets. So what
	// Preempt later does to contexts (an interrupt) reaches every message
	// read before it, however late its handler starts. Without Bind,
	// handlers get the session's context.
	Bind func(m *wire.Message) context.Context
	// Input, if set, is what the codec reads from (NewInput). On Linux
	// the session puts its file in blocking mode, and a caller reads its
	// own reply with a blocking read (direct_linux.go).
	Input *Input
	// Large, if set, is called after a message of LargeMessage bytes or
	// more has been read or written, on the goroutine that did it. It
	// must not block. The owner uses it to give the memory of such a
	// message back to the system once it is garbage.
	Large func()
	// Trace, if set, sees every message: in is true for a message read (v
	// is nil), false for one about to be written, whose m has Kind, ID and
	// Method and whose params or result is v. It runs on the goroutine that
	// reads or writes, and must not block for long. It is for debugging
	// (g:vigor#trace); unset, it costs a nil check per message.
	Trace func(in bool, m *wire.Message, v any)
	// Observe, if set, is told how long each Call that got its answer
	// took, on the calling goroutine. It must not block.
	Observe func(time.Duration)
	// Received, if set, is told the id of every request read from the
	// peer, on the reading goroutine, before the next message is read.
	// Answered is told the id once its response has been written and
	// Answering(id) is false; it runs on the request's goroutine. Wrote is
	// told the kind of every message the session wrote (our calls and
	// notifications, and responses), while the session still holds the
	// writer, so it sees the writes in their order; it must not write.
	// None of them may block. They let the owner keep per-editor state
	// about the exchange (internal/host's reminders).
	Received func(id int64)
	Answered func(id int64)
	Wrote    func(kind wire.Kind)
}

// LargeMessage is the size from which a message is large (Options.Large).
const LargeMessage = 16 << 20

// RemoteError is the error value of a response (wire.Message.Error), as
// the peer sent it. What the value holds depends on the peer: the adapter
// that knows it reads Raw (internal/host).
type RemoteError struct {
	Raw   wire.Raw
	codec wire.Codec
}

// Error prints the value: a String as it is, anything else as Go prints
// it.
func (e *RemoteError) Error() string {
	if e.codec == nil {
		return fmt.Sprintf("error from the editor: %q", []byte(e.Raw))
	}
	var v any
	if err := e.codec.Unmarshal(e.Raw, &v); err == nil {
		switch msg := v.(type) {
		case string:
			return msg
		case []byte:
			return string(msg)
		}
		return fmt.Sprint(v)
	}
	return "unreadable error from the editor"
}

// job is a request or notification read from the peer, with the context
// that its handler gets (Options.Bind).
type job struct {
	m   *wire.Message
	ctx context.Context
}

type response struct {
	result wire.Raw
	err    error
}

// Session is one RPC connection. Its goroutines: Run (the caller's), the
// queue goroutine and the request workers, all started by Run or by a
// direct read and all waited for by Run (wg).
type Session struct {
	codec wire.Codec
	opts  Options
	// wr is the one writer; its invariants are next to its type.
	wr *writer

	mu sync.Mutex
	st state // under mu, changed only in update

	// rd is the direct-read path (direct.go), nil when callers do not
	// read their own replies.
	rd *reader

	ctx    context.Context
	cancel context.CancelFunc
	done   chan struct{}
	wg     sync.WaitGroup
	qwake  chan struct{} // capacity 1: the queue has work
	deep   bool          // update also checks the invariants that cost O(n) (tests)
	epoch  time.Time     // New's time: Call times itself against it (Options.Observe)

	// slots holds reply channels (chan response, capacity 1) for Call to
	// reuse, so that a call makes none. The rule that keeps a stale reply
	// out of a reused channel: a channel goes back only from the caller
	// that owns it, and only when nothing is in it and nothing will be
	// sent on it: after the caller received its one reply from it, or
	// after the caller itself removed its entry from pending (drop found
	// it there), since only whoever removes an entry sends on it
	// (take, shutdown). A caller that gave up after its entry was taken
	// drops its channel to the garbage collector.
	slots sync.Pool
}

// state is all of the session's state that more than one goroutine
// changes. Its invariants, checked by update after every change:
//
//   - Ended: once err is set it stays, pending and idle are empty, and no
//     call is added (shutdown answered every call it found).
//   - Ids: every pending id is at most nextID; nextID only grows.
//   - Workers: at most maxIdleWorkers wait in idle.
//   - Order: a request starts at once only if the queue is empty and idle
//     (queue is empty and queueBusy false) or one of our calls is pending;
//     otherwise it goes to the back of the queue, behind the
//     notifications read before it (route).
//   - Answering: an id goes in on the reading goroutine before the next
//     message is read, and out only after its response has been written.
type state struct {
	nextID int64
	// sharedUntil: calls numbered up to it wait on their channels (no
	// direct read); a call made while another is pending raises it to
	// its own id + sharedRun. It only grows.
	sharedUntil int64
	pending     map[int64]chan response // our calls waiting for their reply
	answering   map[int64]struct{}      // the peer's requests read and not yet answered
	queue       []job                   // notifications, and requests behind them, not yet taken
	queueBusy   bool                    // the queue goroutine handles what it took
	idle        []chan job              // workers waiting for a request
	err         error                   // why the session ended; nil while it runs
}

// update is the one place that changes the session's state: f changes it
// under mu, and the invariants are checked before mu goes.
func (s *Session) update(f func(st *state)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f(&s.st)
	if err := s.st.check(s.deep); err != nil {
		panic("rpc: " + err.Error())
	}
}

// check reports a broken invariant of st; the O(n) ones only when deep.
func (st *state) check(deep bool) error {
	switch {
	case st.err != nil && len(st.pending) > 0:
		return fmt.Errorf("ended with %d calls pending", len(st.pending))
	case st.err != nil && len(st.idle) > 0:
		return fmt.Errorf("ended with %d idle workers", len(st.idle))
	case len(st.idle) > maxIdleWorkers:
		return fmt.Errorf("%d idle workers", len(st.idle))
	}
	if deep {
		for id := range st.pending {
			if id <= 0 || id > st.nextID {
				return fmt.Errorf("pending id %d outside 1..%d", id, st.nextID)
			}
		}
	}
	return nil
}

// sharedRun is how many calls after one that overlapped another wait for
// their replies on their channels even when alone (Call): with 8 callers,
// calls overlap every few calls, so direct reads stay off while they run,
// and come back after sharedRun calls made one at a time.
const sharedRun = 64

// New returns a session that reads with codec and writes to w. Call Run to
// start it.
func New(codec wire.Codec, w io.Writer, opts Options) *Session {
	s := &Session{
		codec: codec,
		opts:  opts,
		wr:    newWriter(w),
		st: state{
			pending:   make(map[int64]chan response),
			answering: make(map[int64]struct{}),
		},
		done:  make(chan struct{}),
		qwake: make(chan struct{}, 1),
		epoch: time.Now(),
	}
	// Set here, not in Run: a caller that reads its own reply may start a
	// handler before Run has begun.
	s.ctx, s.cancel = context.WithCancel(context.Background())
	if b, ok := codec.(buffered); ok {
		s.rd = newReader(s, b, opts.Input)
	}
	return s
}

// Codec returns the session's codec, for decoding results.
func (s *Session) Codec() wire.Codec { return s.codec }

// Done is closed when the session has ended.
func (s *Session) Done() <-chan struct{} { return s.done }

// Err returns why the session ended, or nil while it runs.
func (s *Session) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.st.err
}

// Run reads and dispatches messages until the stream ends (the owner ends
// it by closing the stream). Handlers get a context that is cancelled when
// ctx is done or the session ends. Run waits for the handlers it started
// before it returns the reason the session ended.
func (s *Session) Run(ctx context.Context) error {
	stop := context.AfterFunc(ctx, s.cancel)
	defer stop()
	s.wg.Add(1)
	go s.runQueue()
	var err error
	for {
		if s.rd != nil && !s.rd.runTurn() {
			continue // a caller read meanwhile; look again
		}
		m := new(wire.Message)
		err = s.read(m)
		var ch chan response
		switch {
		case err != nil:
		case m.Kind == wire.Response:
			// Taken before the turn ends: a caller that reads next must
			// see that its reply has been read (reader.readOwn).
			ch = s.take(m.ID)
		default:
			// Queued before the turn ends: a caller that reads the next
			// notification must queue it behind this one.
			s.dispatch(m)
		}
		if s.rd != nil {
			s.rd.endTurn()
		}
		if err != nil {
			if errors.Is(err, wire.ErrMalformed) {
				s.bad(m, err)
				continue
			}
			break
		}
		if m.Kind == wire.Response {
			s.send(ch, m)
		}
	}
	s.shutdown(err)
	if s.rd != nil {
		s.rd.close()
	}
	s.wg.Wait()
	return err
}

// buffered is a codec that can say whether it holds unread bytes.
type buffered interface{ Buffered() int }

// read reads the next message into m and tells Options.Large about a
// large one.
func (s *Session) read(m *wire.Message) error {
	err := s.codec.ReadMessage(m)
	if s.opts.Trace != nil && err == nil {
		s.opts.Trace(true, m, nil)
	}
	if s.opts.Large != nil && err == nil {
		n := len(m.Result) + len(m.Error)
		for _, p := range m.Params {
			n += len(p)
		}
		if n >= LargeMessage {
			s.opts.Large()
		}
	}
	return err
}

// dispatch handles one message read from the peer, on the goroutine that
// read it.
func (s *Session) dispatch(m *wire.Message) {
	switch m.Kind {
	case wire.Response:
		s.send(s.take(m.ID), m)
	case wire.Request:
		j := s.bind(m)
		if s.opts.Received != nil {
			s.opts.Received(m.ID) // before the handler can answer
		}
		if s.route(j) {
			s.startRequest(j)
		}
	case wire.Notification:
		if s.opts.Preempt != nil && s.opts.Preempt(m) {
			return
		}
		s.enqueue(s.bind(m))
	}
}

func (s *Session) bind(m *wire.Message) job {
	if s.opts.Bind == nil {
		return job{m, s.ctx}
	}
	return job{m, s.opts.Bind(m)}
}

// route notes that the peer's request j has been read (answering) and
// says whether it starts at once: when nothing is queued or running in
// the queue, or when one of our calls awaits the peer's answer (the
// request may be nested in the peer's handling of that call). Otherwise
// it queues j behind the notifications read before it.
func (s *Session) route(j job) (now bool) {
	s.update(func(st *state) {
		st.answering[j.m.ID] = struct{}{}
		now = len(st.pending) > 0 || (len(st.queue) == 0 && !st.queueBusy)
		if !now {
			st.queue = append(st.queue, j)
		}
	})
	if !now {
		s.wakeQueue()
	}
	return now
}

// Answering reports whether the peer's request id has been read and its
// response not yet written: it is waiting to start, running, or being
// answered. Called after a later message of the peer has been read (from
// Options.Preempt, say), false means that the response has been written,
// ahead of whatever is written after the call, or that no request id was
// read. The peer's ids must be unique among its requests under way.
func (s *Session) Answering(id int64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.st.answering[id]
	return ok
}

// maxIdleWorkers is how many request goroutines wait for the next request
// instead of exiting. Reusing one saves growing a new goroutine's stack for
// every request (a fifth of a request's cost in BenchmarkServeRequest).
const maxIdleWorkers = 4

// startRequest hands j to an idle worker, or to a new one.
func (s *Session) startRequest(j job) {
	var w chan job
	s.update(func(st *state) {
		if n := len(st.idle); n > 0 {
			w = st.idle[n-1]
			st.idle = st.idle[:n-1]
		}
	})
	if w != nil {
		w <- j
		return
	}
	s.wg.Add(1)
	go s.worker(j)
}

// worker answers requests: j, then whatever startRequest hands it while it
// waits in idle. Once the session has ended it does not wait.
func (s *Session) worker(j job) {
	defer s.wg.Done()
	next := make(chan job, 1)
	for {
		res := s.opts.Handler.Request(j.ctx, j.m)
		id := j.m.ID
		_ = s.Respond(id, res)
		// An idle worker keeps nothing of the request it answered (a
		// large one's params would stay in memory).
		j = job{}
		wait := false
		s.update(func(st *state) {
			delete(st.answering, id)
			if wait = st.err == nil && len(st.idle) < maxIdleWorkers; wait {
				st.idle = append(st.idle, next)
			}
		})
		if s.opts.Answered != nil {
			s.opts.Answered(id)
		}
		if s.rd != nil {
			s.rd.resumeRun()
		}
		if !wait {
			return
		}
		select {
		case j = <-next:
		case <-s.done:
			return
		}
	}
}

func (s *Session) enqueue(j job) {
	s.update(func(st *state) { st.queue = append(st.queue, j) })
	s.wakeQueue()
}

func (s *Session) wakeQueue() {
	select {
	case s.qwake <- struct{}{}:
	default:
	}
}

func (s *Session) bad(m *wire.Message, err error) {
	if s.opts.BadMessage == nil {
		return
	}
	res := s.opts.BadMessage(m, err)
	if m.Kind == wire.Request && m.ID != 0 {
		_ = s.Respond(m.ID, res)
	}
}

// runQueue is the queue goroutine: it runs the notifications one at a
// time in the order they came, and starts the requests queued behind them
// when their turn comes.
func (s *Session) runQueue() {
	defer s.wg.Done()
	for {
		var batch []job
		s.update(func(st *state) {
			batch, st.queue = st.queue, nil
			st.queueBusy = len(batch) > 0
		})
		for _, j := range batch {
			if j.m.Kind == wire.Request {
				s.startRequest(j)
				continue
			}
			s.opts.Handler.Notification(j.ctx, j.m)
			if s.rd != nil {
				s.rd.resumeRun()
			}
		}
		if len(batch) > 0 {
			continue
		}
		select {
		case <-s.qwake:
		case <-s.done:
			return
		}
	}
}

// take removes the call waiting for response id and returns its channel,
// or nil if the caller gave up (its ctx ended).
func (s *Session) take(id int64) (ch chan response) {
	s.update(func(st *state) {
		ch = st.pending[id]
		delete(st.pending, id)
	})
	return ch
}

// slot returns an empty reply channel for a call.
func (s *Session) slot() chan response {
	if ch, ok := s.slots.Get().(chan response); ok {
		return ch
	}
	return make(chan response, 1)
}

// drop removes call id, whose caller owns ch, and gives ch back if no one
// will send on it (slots). It returns how many calls are still pending.
func (s *Session) drop(id int64, ch chan response) (left int) {
	removed := false
	s.update(func(st *state) {
		_, removed = st.pending[id]
		delete(st.pending, id)
		left = len(st.pending)
	})
	if removed {
		s.reuse(ch)
	}
	return left
}

// reuse gives back ch, which is empty and on which no one will send
// (slots).
func (s *Session) reuse(ch chan response) { s.slots.Put(ch) }

// anyPending reports whether a call waits for its response.
func (s *Session) anyPending() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.st.pending) > 0
}

// pendingOf reports whether call id still waits for its response, and
// whether it is the only call that does.
func (s *Session) pendingOf(id int64) (pending, only bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, pending = s.st.pending[id]
	return pending, pending && len(s.st.pending) == 1
}

// isPending reports whether the call id still waits for its response.
func (s *Session) isPending(id int64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.st.pending[id]
	return ok
}

// send hands the response m to the caller waiting on ch.
func (s *Session) send(ch chan response, m *wire.Message) {
	if ch == nil {
		return
	}
	ch <- s.response(m)
	// Let the caller run before this goroutine reads again: its next
	// request then goes out at once, and the read that finds nothing to
	// read yet happens while the editor works on that request.
	runtime.Gosched()
}

func (s *Session) response(m *wire.Message) response {
	r := response{result: m.Result}
	if m.Error != nil {
		r.err = &RemoteError{Raw: m.Error, codec: s.codec}
	}
	return r
}

// closedErr is the error of calls that the end of the stream (reason, the
// read's error) cut off.
func closedErr(reason error) error {
	if reason == nil || errors.Is(reason, io.EOF) || errors.Is(reason, io.ErrUnexpectedEOF) {
		return fmt.Errorf("%w: the editor closed the channel", ErrClosed)
	} else if !errors.Is(reason, ErrClosed) {
		return fmt.Errorf("%w: %w", ErrClosed, reason)
	}
	return reason
}

// shutdown ends the session: every pending call gets reason, idle workers
// and the queue goroutine stop, and handlers' contexts end.
func (s *Session) shutdown(reason error) {
	reason = closedErr(reason)
	var pending map[int64]chan response
	s.update(func(st *state) {
		if st.err != nil {
			return
		}
		st.err = reason
		pending, st.pending = st.pending, nil
		st.idle = nil // they stop on done
	})
	if pending == nil {
		return
	}
	for _, ch := range pending {
		ch <- response{err: reason}
	}
	if s.rd != nil {
		// A caller waiting for its reply in poll finds its entry gone, and
		// takes the answer above from its channel.
		s.rd.wakeAll()
	}
	s.cancel()
	close(s.done)
}

// Call sends a request and waits for its response, for ctx to end, or for the
// session to end.
func (s *Session) Call(ctx context.Context, method string, params []any) (wire.Raw, error) {
	if ctx.Err() != nil {
		return nil, context.Cause(ctx)
	}
	ch := s.slot()
	var id int64
	var err error
	alone := false
	s.update(func(st *state) {
		if err = st.err; err != nil {
			return
		}
		st.nextID++
		id = st.nextID
		if len(st.pending) > 0 {
			st.sharedUntil = id + sharedRun
		}
		alone = len(st.pending) == 0 && id > st.sharedUntil
		st.pending[id] = ch
	})
	if err != nil {
		s.reuse(ch)
		return nil, err
	}

	if s.opts.Trace != nil {
		s.opts.Trace(false, &wire.Message{Kind: wire.Request, ID: id, Method: method}, params)
	}
	var start time.Duration
	if s.opts.Observe != nil {
		start = time.Since(s.epoch) // one clock reading, the monotonic one
	}
	if err := s.write(wire.Request, func(b []byte) ([]byte, error) { return s.codec.AppendRequest(b, id, method, params) }); err != nil {
		s.drop(id, ch)
		return nil, err
	}
	var res wire.Raw
	// A call reads its own reply only when it is the only call, and no
	// call of the last sharedRun overlapped another: a thread blocked in
	// read() keeps its processor until the runtime takes it back, so with
	// other callers about, they could not write their requests meanwhile;
	// their replies come through Run, which reads for them all on the
	// runtime poller. Among concurrent callers one is often alone for a
	// moment; its direct read would stop Run for the others (pause).
	direct := alone && s.rd != nil
	if l, ok := ctx.(long); ok && direct {
		direct = !l.never && s.rd.dir.holdsRead()
	}
	if direct && s.rd.tryTurn() {
		res, err = s.rd.readOwn(ctx, id, ch)
	} else {
		select {
		case r := <-ch:
			res, err = r.result, r.err
			s.reuse(ch)
		case <-ctx.Done():
			s.drop(id, ch)
			return nil, context.Cause(ctx)
		}
	}
	if s.opts.Observe != nil && ctx.Err() == nil {
		s.opts.Observe(time.Since(s.epoch) - start)
	}
	return res, err
}

// long is the ctx of Long. Call knows it by its type, which costs
// nothing, where a ctx.Value would walk the ctx's parents on every call.
type long struct {
	context.Context
	never bool // not even a held read (the tests' WithoutDirectRead)
}

// Long returns a ctx for calls that keep the peer busy for milliseconds
// (a batch). Their callers wait for the reply on a channel instead of
// reading it themselves: a thread blocked in read() that long loses its
// processor, and getting it back costs more than the direct read saves.
// Where the wait would be a held read (one CPU, and a socket, whose
// receive timeout bounds the read: direct.holdRead), the processor is not
// lost, and the caller reads its reply as any other call does
// (BENCHMARKS.md, "The wait for a reply"). Only the ctx that Long returns
// counts, passed to Call as it is: a ctx derived from it is an ordinary
// one.
func Long(ctx context.Context) context.Context { return long{Context: ctx} }

// Notify sends a notification.
func (s *Session) Notify(ctx context.Context, method string, params []any) error {
	if err := ctx.Err(); err != nil {
		return context.Cause(ctx)
	}
	if err := s.Err(); err != nil {
		return err
	}
	if s.opts.Trace != nil {
		s.opts.Trace(false, &wire.Message{Kind: wire.Notification, Method: method}, params)
	}
	return s.write(wire.Notification, func(b []byte) ([]byte, error) { return s.codec.AppendNotification(b, method, params) })
}

// Respond answers the peer's request id.
func (s *Session) Respond(id int64, result any) error {
	if s.opts.Trace != nil {
		s.opts.Trace(false, &wire.Message{Kind: wire.Response, ID: id}, result)
	}
	return s.write(wire.Response, func(b []byte) ([]byte, error) { return s.codec.AppendResponse(b, id, result) })
}

// WriteRaw writes what appendFn appends to its argument as it is, in order
// with the session's other writes (Options.Wrote is not told). The owner
// uses it for bytes of the editor's protocol that are not messages of the
// session (Vim's wake-ups).
func (s *Session) WriteRaw(appendFn func(b []byte) []byte) error {
	return s.write(rawWrite, func(b []byte) ([]byte, error) { return appendFn(b), nil })
}

// rawWrite is the kind of WriteRaw's writes, which Options.Wrote does not
// see.
const rawWrite wire.Kind = 255

// maxKeptBuffer is the largest write buffer kept between messages; a larger
// one (after a big payload) is dropped so that an idle plugin stays small.
const maxKeptBuffer = 1 << 20

// writer is the one door to the wire. Writes coalesce: the goroutine that
// finds no write under way becomes the flusher and writes; a goroutine
// that comes while a write is under way appends its frame to next and
// waits, and the flusher writes all of next in one write once its write
// ends. So concurrent callers cost one write(2) and one wake-up of the
// peer for all of their messages instead of one each.
//
// Its invariants, under mu:
//   - Flusher: at most one goroutine writes to w, the one that set
//     flushing; it tells Options.Wrote and Options.Large about its batch
//     before it marks it flushed, so Wrote sees the writes in their order.
//   - Order: frames reach w in the order their writers appended them to
//     next; kinds holds their kinds in that order.
//   - Batches: next is batch number batch; every batch numbered at most
//     flushed has been written (or failed); flushed < batch. A writer
//     whose frame went into batch n returns once flushed >= n, with err.
//   - Failure: err, once set, stays; failedAt is the number of the batch
//     whose write failed. A later batch is not written, and its writers
//     and every later writer fail with err (the stream is out of step);
//     the writers of earlier batches do not.
type writer struct {
	mu       sync.Mutex
	done     sync.Cond // on mu: flushed has grown
	w        io.Writer
	next     []byte      // frames queued for the next write
	kinds    []wire.Kind // their kinds, for Options.Wrote
	spare    []byte      // the buffer of the last write, for reuse
	spareK   []wire.Kind
	flushing bool
	batch    uint64 // the number of next
	flushed  uint64
	failedAt uint64
	err      error
}

func newWriter(w io.Writer) *writer {
	wr := &writer{w: w, batch: 1}
	wr.done.L = &wr.mu
	return wr
}

// write appends what appendFn appends to the next write, and returns once
// it has been written: by this goroutine, if no write is under way, along
// with whatever other goroutines queued meanwhile (flush).
func (s *Session) write(kind wire.Kind, appendFn func([]byte) ([]byte, error)) error {
	wr := s.wr
	wr.mu.Lock()
	if wr.err != nil {
		err := wr.err
		wr.mu.Unlock()
		return fmt.Errorf("%w: write: %w", ErrClosed, err)
	}
	n := len(wr.next)
	b, err := appendFn(wr.next)
	if err != nil {
		if cap(b) >= n {
			wr.next = b[:n] // the frames queued before stay
		}
		wr.mu.Unlock()
		return err
	}
	wr.next = b
	wr.kinds = append(wr.kinds, kind)
	my := wr.batch
	if wr.flushing {
		for wr.flushed < my {
			wr.done.Wait()
		}
	} else {
		s.flush(wr)
	}
	err = nil
	if wr.err != nil && my >= wr.failedAt {
		err = wr.err
	}
	wr.mu.Unlock()
	if err != nil {
		return fmt.Errorf("%w: write: %w", ErrClosed, err)
	}
	return nil
}

// flush writes the queued batches until none is left. It is called and
// returns with wr.mu held, and lets it go while it writes.
func (s *Session) flush(wr *writer) {
	wr.flushing = true
	for len(wr.kinds) > 0 {
		b, kinds, n := wr.next, wr.kinds, wr.batch
		wr.next, wr.kinds = wr.spare[:0], wr.spareK[:0]
		wr.spare, wr.spareK = nil, nil
		wr.batch++
		failed := wr.err != nil
		wr.mu.Unlock()
		var err error
		if !failed {
			_, err = wr.w.Write(b)
			if len(b) >= LargeMessage && s.opts.Large != nil {
				s.opts.Large()
			}
			if err == nil && s.opts.Wrote != nil {
				for _, k := range kinds {
					if k != rawWrite {
						s.opts.Wrote(k)
					}
				}
			}
		}
		wr.mu.Lock()
		if err != nil && wr.err == nil {
			wr.err, wr.failedAt = err, n
		}
		if cap(b) > maxKeptBuffer {
			b = nil
		}
		wr.spare, wr.spareK = b[:0], kinds[:0]
		wr.flushed = n
		wr.done.Broadcast()
	}
	wr.flushing = false
}
