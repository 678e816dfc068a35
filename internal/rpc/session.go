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
	"os"
	"runtime"
	"sync"
	"sync/atomic"
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
	// Input, if set, is the file the codec reads from. On Linux the
	// session puts it in blocking mode, and a caller reads its own reply
	// with a blocking read (direct_linux.go).
	Input *os.File
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
	// Wake, if set, appends to b the message that ends the peer's wait
	// for the answer to its request id, for a peer that may drop input
	// it cannot read, answers included (Vim's wake-up [id, 0]). The
	// session writes it for Wake, and reminds the peer of the answers it
	// wrote: see "Reminders" above Session.
	Wake func(b []byte, id int64) []byte
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

// Who reads, and when. Only Run reads, unless direct reads are on (Linux,
// with Options.Input set and a codec that reports its buffered bytes:
// direct_linux.go); then a caller may read its own reply, under these
// rules. The details are next to the code named.
//
//   - The baton: one goroutine at a time reads the codec, the holder of
//     the baton (Run, or a Call in readOwn). It is only ever taken with
//     TryLock, so no one queues on it: a caller that does not get it waits
//     on its channel. Once Run has ended, the baton is never let go again
//     (closeDirect), so no one reads.
//   - Pending entries: a call's entry is taken by whoever reads its reply,
//     before that reader lets the baton go (take), by the caller itself
//     when it gives up (forget: its ctx ended, or its write failed), or by
//     shutdown. So a caller that holds the baton and finds its entry gone
//     knows that its answer is on its channel, and does not read; and a
//     reply whose entry is gone is dropped by whoever reads it.
//   - The codec's buffer: no one waits on the descriptor while a message
//     is in the buffer; Run and callers look at the buffer first. A caller
//     that has read its reply handles the rest of the buffer before it
//     lets the baton go (drain), so that those messages do not wait for
//     Run to come back from its pause.
//   - Between messages a caller blocks only in poll(2) (awaitInput),
//     which wakeUp ends when its ctx ends or the session does. So it stops
//     at once, without having read part of a message: the stream stays in
//     step, and whoever reads next reads its reply and drops it. Inside a
//     message a read may block until the rest comes: the editor writes
//     each message whole (with Vim, the newline after it included).
//   - Run's pause and resume: Run never blocks in read(). It waits for the
//     input on the runtime poller without the baton (waitInput); a caller
//     that takes the baton kicks it out of that wait and waits for its
//     ack. After a direct read, Run stays off the input until callers
//     have made no direct read for idleDelay (pause), or a handler has
//     ended (resumeRun); while a direct read is under way, it waits for
//     that read's end (awaitRead), not on a timer.

// Reminders (Options.Wake). A peer that drops input it cannot read, an
// answer with it, learns of the loss by asking whether a request is still
// being answered (Answering, from Preempt), once its wait for the answer
// gets the time to ask. Vim's wait is a read of the channel for the
// answer's wake-up, which starts again whenever anything arrives on the
// channel: while this side keeps calling, the wait never ends. So the
// session remembers the peer's requests that it answered since it last
// read a request from the peer (unconfirmed), and a second after the
// first of them (remindTimer), if it has written calls or notifications
// of its own since the last answer or look (sent), it writes their
// wake-ups again, and looks again a second later. A peer that got the
// answers drops those; one that waits for one of them gets the time to
// ask. A new request from the peer, or a second without calls of ours,
// clears the list. That costs a busy session at most one small write a
// second, and an idle one nothing. It is best effort: an answer written
// while the timer's function runs may go without reminders.

// Session is one RPC connection.
type Session struct {
	codec wire.Codec
	w     io.Writer
	opts  Options

	wmu  sync.Mutex // guards w, wbuf, sent and the codec's encoder
	wbuf []byte
	sent bool // a call or notification of ours was written since the last answer or reminder (Reminders)

	mu      sync.Mutex
	nextID  int64
	pending map[int64]chan response
	err     error // set once the session has ended
	// answering holds the ids of the peer's requests that have been read
	// and not yet answered (Answering). An id goes in on the goroutine
	// that read the request, before it reads the next message, and out
	// only after its response has been written: so once a message that
	// came after the request has been read, an id that is not here has
	// its response written, ahead of anything written from then on.
	answering map[int64]struct{}
	// unconfirmed, remindOn and remindTimer are the reminders' (see
	// Reminders): the peer's requests answered since a request was last
	// read, at most maxUnconfirmed of them; remindOn is true while the
	// timer is armed: answered arms it, and the timer's function and
	// shutdown disarm it.
	unconfirmed []int64
	remindOn    bool
	remindTimer *time.Timer
	remindAfter time.Duration

	pmu  sync.Mutex
	idle []chan job // workers waiting for a request

	nmu   sync.Mutex
	notes []job
	nbusy bool // the notification goroutine is handling a batch
	nwake chan struct{}

	ctx    context.Context
	cancel context.CancelFunc
	done   chan struct{}
	wg     sync.WaitGroup

	// Direct reads (dir is nil when they are off), under the rules above.
	// baton is held by whoever reads the codec; dmu guards bgWaiting,
	// kicked and dirDone. directReads counts the callers' direct reads:
	// Run takes the input back only when it has not changed for idleDelay
	// (waitPause).
	dir         *direct
	wakeUp      func() // dir.wakeUp, made once: a method value allocates
	baton       sync.Mutex
	dmu         sync.Mutex
	bgWaiting   bool
	kicked      bool
	dirDone     bool // Run has ended: the baton's last holder closes dir
	ack         chan struct{}
	directReads atomic.Uint64
	runWaits    atomic.Bool   // Run waits on readDone for a read to end
	readDone    chan struct{} // capacity 1
	// wakeCtx is the ctx of the last direct read whose end wakes the
	// reader (context.AfterFunc with wakeUp), and stopWake stops that;
	// only the baton's holder touches them. A handler makes its calls
	// with one ctx, so the registration is made once for them all, not
	// per call; a wake-up after the reader went on only makes a later
	// reader look at its own ctx again.
	wakeCtx    context.Context
	stopWake   func() bool
	resume     chan struct{} // capacity 1: a handler ended
	pauseTimer *time.Timer   // Run's, for pause
	idleDelay  time.Duration
}

// idleDelay is how long callers must make no direct read before Run takes
// the input back. Through a run of calls, Run stays asleep: waking it for
// each call costs more than the call (a goroutine that is runnable while
// the caller blocks in read() makes the runtime hand its processor to
// another thread). A request from the editor that comes after a run of
// calls waits up to this long.
const idleDelay = 2 * time.Millisecond

// New returns a session that reads with codec and writes to w. Call Run to
// start it.
func New(codec wire.Codec, w io.Writer, opts Options) *Session {
	s := &Session{
		codec:       codec,
		w:           w,
		opts:        opts,
		pending:     make(map[int64]chan response),
		answering:   make(map[int64]struct{}),
		nwake:       make(chan struct{}, 1),
		done:        make(chan struct{}),
		ack:         make(chan struct{}, 1),
		readDone:    make(chan struct{}, 1),
		resume:      make(chan struct{}, 1),
		idleDelay:   idleDelay,
		remindAfter: remindAfter,
	}
	// Set here, not in Run: a caller that reads its own reply may start a
	// handler before Run has begun.
	s.ctx, s.cancel = context.WithCancel(context.Background())
	if _, ok := codec.(buffered); ok {
		s.dir = newDirect(opts.Input)
	}
	if opts.Wake != nil {
		s.remindTimer = time.AfterFunc(time.Hour, s.remind)
		s.remindTimer.Stop()
	}
	if s.dir != nil {
		s.wakeUp = s.dir.wakeUp
		s.pauseTimer = time.NewTimer(time.Hour)
		s.pauseTimer.Stop()
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
	return s.err
}

// Run reads and dispatches messages until the stream ends (the owner ends
// it by closing the stream). Handlers get a context that is cancelled when
// ctx is done or the session ends. Run waits for the handlers it started
// before it returns the reason the session ended.
func (s *Session) Run(ctx context.Context) error {
	stop := context.AfterFunc(ctx, s.cancel)
	defer stop()
	s.wg.Add(1)
	go s.runNotifications()
	var err error
	for {
		if s.dir != nil {
			if !s.baton.TryLock() {
				s.waitPause() // a caller reads
				continue
			}
			if s.codec.(buffered).Buffered() == 0 && !s.dir.readable() {
				s.baton.Unlock()
				s.waitInput()
				continue // a caller may have read meanwhile; look again
			}
		}
		m := new(wire.Message)
		err = s.read(m)
		var ch chan response
		if err == nil && m.Kind == wire.Response {
			// Taken before the baton goes: a caller that gets the baton
			// next must see that its reply has been read (readOwn).
			ch = s.take(m.ID)
		}
		if s.dir != nil {
			s.baton.Unlock()
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
			continue
		}
		s.dispatch(m)
	}
	s.shutdown(err)
	if s.dir != nil {
		s.closeDirect()
	}
	s.wg.Wait()
	return err
}

// closeDirect closes the direct-read descriptors once no one needs them:
// Run reads no more, and shutdown left no call pending, so a caller that
// gets the baton from now on finds its entry gone and does not read. The
// baton's holder closes them, here or when it lets the baton go
// (releaseBaton), and keeps the baton.
func (s *Session) closeDirect() {
	s.dmu.Lock()
	defer s.dmu.Unlock()
	s.dirDone = true
	if s.baton.TryLock() {
		s.dir.close()
	}
}

// releaseBaton lets a caller's baton go, or, once Run has ended, closes
// the direct-read descriptors and keeps it.
func (s *Session) releaseBaton() {
	s.dmu.Lock()
	defer s.dmu.Unlock()
	if s.dirDone {
		s.dir.close()
		return
	}
	s.baton.Unlock()
}

// buffered is a codec that can say whether it holds unread bytes.
type buffered interface{ Buffered() int }

// waitInput waits until the input is readable, without reading it and
// without holding the baton, or until a caller has taken the input over
// and its calls have paused.
func (s *Session) waitInput() {
	s.dmu.Lock()
	s.bgWaiting = true
	s.dmu.Unlock()
	_ = s.dir.waitReadable()
	s.dmu.Lock()
	s.bgWaiting = false
	kicked := s.kicked
	s.kicked = false
	if kicked {
		s.dir.unkick()
	}
	s.dmu.Unlock()
	if kicked {
		s.ack <- struct{}{}
		s.waitPause()
	}
}

// waitPause returns once callers have made no direct read for idleDelay,
// or once a handler has ended (its calls are over). While a caller's read
// is under way, Run waits for its end (an event), not on a timer: the
// runtime sleeps at least 1 ms when it waits for a timer with nothing to
// run, so timers are only for the pause between calls.
func (s *Session) waitPause() {
	for {
		if !s.baton.TryLock() {
			if s.awaitRead() {
				return
			}
			// A read has ended, so callers are busy: wait for a pause, not
			// for the next read's end, which would wake this goroutine (and
			// with GOMAXPROCS > 1 a thread) once per call.
		} else {
			s.baton.Unlock()
		}
		n := s.directReads.Load()
		if s.pause() || s.directReads.Load() == n {
			return
		}
	}
}

// awaitRead waits until the direct read under way ends, or a handler ends
// (it then returns true).
func (s *Session) awaitRead() bool {
	n := s.directReads.Load()
	s.runWaits.Store(true)
	// Look again after raising the flag, in case the read ended just
	// before: then take the flag back, or take the signal already sent.
	ended := s.directReads.Load() != n
	if !ended && s.baton.TryLock() {
		s.baton.Unlock()
		ended = true
	}
	if ended {
		if !s.runWaits.CompareAndSwap(true, false) {
			<-s.readDone
		}
		return false
	}
	select {
	case <-s.readDone:
		return false
	case <-s.resume:
		return true
	}
}

// pause waits idleDelay, or less if a handler ends meanwhile (it then
// returns true).
func (s *Session) pause() bool {
	s.pauseTimer.Reset(s.idleDelay)
	select {
	case <-s.pauseTimer.C:
		return false
	case <-s.resume:
		if !s.pauseTimer.Stop() {
			select { // whatever the go version's timer semantics
			case <-s.pauseTimer.C:
			default:
			}
		}
		return true
	}
}

// resumeRun tells Run, if it waits for callers to pause, that a handler
// has ended: its calls are over, and input (the editor's next request)
// must not wait for idleDelay.
func (s *Session) resumeRun() {
	if s.dir == nil {
		return
	}
	select {
	case s.resume <- struct{}{}:
	default:
	}
}

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

// dispatch handles one message read from the peer.
func (s *Session) dispatch(m *wire.Message) {
	switch m.Kind {
	case wire.Response:
		s.deliver(m)
	case wire.Request:
		j := s.bind(m)
		if s.received(m.ID) || s.queueIdle() {
			s.startRequest(j)
			return
		}
		s.enqueue(j)
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

// received notes that the peer's request id has been read (answering),
// and reports whether one of our calls awaits the peer's answer.
func (s *Session) received(id int64) (waiting bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.answering[id] = struct{}{}
	s.unconfirmed = s.unconfirmed[:0]
	return len(s.pending) > 0
}

// answered notes that the response to the peer's request id has been
// written.
func (s *Session) answered(id int64) {
	s.mu.Lock()
	delete(s.answering, id)
	if s.opts.Wake != nil && len(s.unconfirmed) < maxUnconfirmed {
		s.unconfirmed = append(s.unconfirmed, id)
		if !s.remindOn && s.err == nil {
			s.remindOn = true
			s.remindTimer.Reset(s.remindAfter)
		}
	}
	s.mu.Unlock()
}

// remindAfter is how long after an answer the session first reminds the
// peer of it, and then the time between reminders (see Reminders).
const remindAfter = time.Second

// maxUnconfirmed bounds the answers that a reminder names.
const maxUnconfirmed = 64

// remind runs on the reminder timer's goroutine: it writes the wake-ups of
// the unconfirmed answers if calls of ours went out since the last time,
// and arms the timer again; otherwise it clears them and stops.
func (s *Session) remind() {
	s.wmu.Lock()
	sent := s.sent
	s.sent = false
	s.wmu.Unlock()
	s.mu.Lock()
	if !sent || len(s.unconfirmed) == 0 || s.err != nil {
		s.unconfirmed = s.unconfirmed[:0]
		s.remindOn = false
		s.mu.Unlock()
		return
	}
	ids := append([]int64(nil), s.unconfirmed...)
	s.remindTimer.Reset(s.remindAfter)
	s.mu.Unlock()
	_ = s.Wake(ids...)
}

// Wake writes the peer's wake-ups for its requests ids (Options.Wake),
// or nothing without Options.Wake.
func (s *Session) Wake(ids ...int64) error {
	if s.opts.Wake == nil || len(ids) == 0 {
		return nil
	}
	return s.write(writeWake, func(b []byte) ([]byte, error) {
		for _, id := range ids {
			b = s.opts.Wake(b, id)
		}
		return b, nil
	})
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
	_, ok := s.answering[id]
	return ok
}

// queueIdle reports whether no notification is queued or running, so that
// a request may start without waiting its turn.
func (s *Session) queueIdle() bool {
	s.nmu.Lock()
	defer s.nmu.Unlock()
	return len(s.notes) == 0 && !s.nbusy
}

// maxIdleWorkers is how many request goroutines wait for the next request
// instead of exiting. Reusing one saves growing a new goroutine's stack for
// every request (a fifth of a request's cost in BenchmarkServeRequest).
const maxIdleWorkers = 4

func (s *Session) startRequest(j job) {
	s.pmu.Lock()
	if n := len(s.idle); n > 0 {
		w := s.idle[n-1]
		s.idle = s.idle[:n-1]
		s.pmu.Unlock()
		w <- j
		return
	}
	s.pmu.Unlock()
	s.wg.Add(1)
	go s.worker(j)
}

// worker answers requests: j, then whatever startRequest hands it while it
// waits in the idle list.
func (s *Session) worker(j job) {
	defer s.wg.Done()
	next := make(chan job, 1)
	for {
		res := s.opts.Handler.Request(j.ctx, j.m)
		_ = s.Respond(j.m.ID, res)
		s.answered(j.m.ID)
		s.resumeRun()
		// An idle worker keeps nothing of the request it answered (a
		// large one's params would stay in memory).
		j = job{}
		s.pmu.Lock()
		if len(s.idle) >= maxIdleWorkers {
			s.pmu.Unlock()
			return
		}
		s.idle = append(s.idle, next)
		s.pmu.Unlock()
		select {
		case j = <-next:
		case <-s.done:
			return
		}
	}
}

func (s *Session) enqueue(j job) {
	s.nmu.Lock()
	s.notes = append(s.notes, j)
	s.nmu.Unlock()
	select {
	case s.nwake <- struct{}{}:
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

func (s *Session) runNotifications() {
	defer s.wg.Done()
	for {
		s.nmu.Lock()
		batch := s.notes
		s.notes = nil
		s.nbusy = len(batch) > 0
		s.nmu.Unlock()
		for _, j := range batch {
			if j.m.Kind == wire.Request {
				s.startRequest(j)
				continue
			}
			s.opts.Handler.Notification(j.ctx, j.m)
			s.resumeRun()
		}
		if len(batch) > 0 {
			continue
		}
		select {
		case <-s.nwake:
		case <-s.done:
			return
		}
	}
}

func (s *Session) deliver(m *wire.Message) { s.send(s.take(m.ID), m) }

// take removes the call waiting for response id and returns its channel,
// or nil if the caller gave up (its ctx ended).
func (s *Session) take(id int64) chan response {
	s.mu.Lock()
	ch := s.pending[id]
	delete(s.pending, id)
	s.mu.Unlock()
	return ch
}

// isPending reports whether the call id still waits for its response.
func (s *Session) isPending(id int64) bool {
	s.mu.Lock()
	_, ok := s.pending[id]
	s.mu.Unlock()
	return ok
}

// send hands the response m to the caller waiting on ch.
func (s *Session) send(ch chan response, m *wire.Message) {
	if ch == nil {
		return
	}
	r := response{result: m.Result}
	if m.Error != nil {
		r.err = &RemoteError{Raw: m.Error, codec: s.codec}
	}
	ch <- r
	// Let the caller run before this goroutine reads again: its next
	// request then goes out at once, and the read that finds nothing to
	// read yet happens while the editor works on that request.
	runtime.Gosched()
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

func (s *Session) shutdown(reason error) {
	reason = closedErr(reason)
	s.mu.Lock()
	if s.err != nil {
		s.mu.Unlock()
		return
	}
	s.err = reason
	pending := s.pending
	s.pending = nil
	if s.remindOn {
		s.remindTimer.Stop()
		s.remindOn = false
	}
	s.mu.Unlock()
	for _, ch := range pending {
		ch <- response{err: reason}
	}
	if s.dir != nil {
		// A caller waiting for its reply in awaitInput finds its entry
		// gone, and takes the answer above from its channel.
		s.dir.wakeUp()
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
	ch := make(chan response, 1)
	s.mu.Lock()
	if s.err != nil {
		err := s.err
		s.mu.Unlock()
		return nil, err
	}
	s.nextID++
	id := s.nextID
	s.pending[id] = ch
	s.mu.Unlock()

	if s.opts.Trace != nil {
		s.opts.Trace(false, &wire.Message{Kind: wire.Request, ID: id, Method: method}, params)
	}
	var start time.Time
	if s.opts.Observe != nil {
		start = time.Now()
	}
	if err := s.write(writeOurs, func(b []byte) ([]byte, error) { return s.codec.AppendRequest(b, id, method, params) }); err != nil {
		s.forget(id)
		return nil, err
	}
	var res wire.Raw
	var err error
	if s.dir != nil && ctx.Value(noDirectKey{}) == nil && s.baton.TryLock() {
		res, err = s.readOwn(ctx, id, ch)
	} else {
		select {
		case r := <-ch:
			res, err = r.result, r.err
		case <-ctx.Done():
			s.forget(id)
			return nil, context.Cause(ctx)
		}
	}
	if s.opts.Observe != nil && ctx.Err() == nil {
		s.opts.Observe(time.Since(start))
	}
	return res, err
}

type noDirectKey struct{}

// WithoutDirectRead returns a ctx whose calls wait for their reply on a
// channel instead of reading it themselves. Use it for calls that keep the
// peer busy for milliseconds (a batch): a thread blocked in read() that
// long loses its processor, and getting it back costs more than the
// direct read saves.
func WithoutDirectRead(ctx context.Context) context.Context {
	return context.WithValue(ctx, noDirectKey{}, true)
}

// readOwn reads from the input until the reply to id comes, or ctx ends,
// handling whatever else comes first as Run would. The caller holds the
// baton; readOwn releases it.
func (s *Session) readOwn(ctx context.Context, id int64, ch chan response) (wire.Raw, error) {
	if ctx.Done() != nil && ctx != s.wakeCtx {
		// A wake-up that comes after stop (the function had started) ends
		// a later caller's awaitInput for nothing: that caller looks at
		// its own ctx and waits again.
		if s.stopWake != nil {
			s.stopWake()
		}
		s.wakeCtx, s.stopWake = ctx, context.AfterFunc(ctx, s.wakeUp)
	}
	res, ok, err := s.readOwnLocked(ctx, id)
	s.directReads.Add(1)
	if s.runWaits.CompareAndSwap(true, false) {
		s.readDone <- struct{}{}
	}
	if ok {
		return res, err
	}
	// Run read the reply before this caller had the baton, or the session
	// ended: the answer is on its way.
	select {
	case r := <-ch:
		return r.result, r.err
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	}
}

// readOwnLocked is readOwn while holding the baton; ok is false if the
// reply was read by Run (or the session ended) and is on the call's
// channel.
func (s *Session) readOwnLocked(ctx context.Context, id int64) (res wire.Raw, ok bool, err error) {
	defer s.releaseBaton()
	s.dmu.Lock()
	waiting := s.bgWaiting
	if waiting {
		s.kicked = true
		s.dir.kick()
	}
	s.dmu.Unlock()
	if waiting {
		<-s.ack // Run is off the input now
	}
	replied := false
	defer func() {
		// Messages left in the codec's buffer would wait for Run to come
		// back from its pause: handle them now.
		if replied {
			s.drain()
		}
	}()
	// Run read the reply (or the session ended) before this caller had the
	// baton: its answer is on its channel. Once the caller holds the
	// baton, only it reads, so one look is enough.
	if !s.isPending(id) {
		return nil, false, nil
	}
	for {
		if s.codec.(buffered).Buffered() == 0 && !s.dir.awaitInput() {
			// Woken: this caller's ctx has ended, or the session, or the
			// wake-up was meant for an earlier caller.
			if !s.isPending(id) {
				return nil, false, nil // shutdown answered on the channel
			}
			if ctx.Err() != nil {
				s.forget(id)
				return nil, true, context.Cause(ctx)
			}
			continue
		}
		m := new(wire.Message)
		if rerr := s.read(m); rerr != nil {
			if errors.Is(rerr, wire.ErrMalformed) {
				s.bad(m, rerr)
				continue
			}
			// Run meets the same end of input and shuts the session down.
			s.forget(id)
			return nil, true, closedErr(rerr)
		}
		if m.Kind == wire.Response && m.ID == id {
			s.forget(id)
			replied = true
			if m.Error != nil {
				return m.Result, true, &RemoteError{Raw: m.Error, codec: s.codec}
			}
			return m.Result, true, nil
		}
		s.dispatch(m)
	}
}

// drain handles the messages already in the codec's buffer.
func (s *Session) drain() {
	for s.codec.(buffered).Buffered() > 0 {
		m := new(wire.Message)
		if err := s.read(m); err != nil {
			if errors.Is(err, wire.ErrMalformed) {
				s.bad(m, err)
				continue
			}
			return // Run meets the error too
		}
		s.dispatch(m)
	}
}

func (s *Session) forget(id int64) {
	s.mu.Lock()
	delete(s.pending, id)
	s.mu.Unlock()
}

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
	return s.write(writeOurs, func(b []byte) ([]byte, error) { return s.codec.AppendNotification(b, method, params) })
}

// Respond answers the peer's request id.
func (s *Session) Respond(id int64, result any) error {
	if s.opts.Trace != nil {
		s.opts.Trace(false, &wire.Message{Kind: wire.Response, ID: id}, result)
	}
	return s.write(writeAnswer, func(b []byte) ([]byte, error) { return s.codec.AppendResponse(b, id, result) })
}

// maxKeptBuffer is the largest write buffer kept between messages; a larger
// one (after a big payload) is dropped so that an idle plugin stays small.
const maxKeptBuffer = 1 << 20

// writeKind says what a write is, for the reminders (Reminders).
type writeKind uint8

const (
	writeOurs   writeKind = iota // a call or notification of ours
	writeAnswer                  // an answer to the peer's request
	writeWake                    // wake-ups (Wake)
)

// write writes what appendFn appends.
func (s *Session) write(kind writeKind, appendFn func([]byte) ([]byte, error)) error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	switch kind {
	case writeOurs:
		s.sent = true
	case writeAnswer:
		s.sent = false
	}
	b, err := appendFn(s.wbuf[:0])
	if err != nil {
		s.keep(b)
		return err
	}
	_, err = s.w.Write(b)
	if len(b) >= LargeMessage && s.opts.Large != nil {
		s.opts.Large()
	}
	s.keep(b)
	if err != nil {
		return fmt.Errorf("%w: write: %w", ErrClosed, err)
	}
	return nil
}

func (s *Session) keep(b []byte) {
	if cap(b) > maxKeptBuffer {
		b = nil
	}
	s.wbuf = b
}
