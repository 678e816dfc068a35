package rpc

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/vigorvim/vigor/internal/wire"
)

// reader is the direct-read path: a caller reads its own reply from the
// input, where otherwise Run reads it and hands it over (on Linux, with
// Options.Input set and a codec that reports its buffered bytes; the
// descriptors are direct's, direct_linux.go). Its rules:
//
//   - The baton: one goroutine at a time reads the codec, the holder of
//     the baton (Run, or a Call in readOwn). It is only ever taken with
//     TryLock, so no one queues on it: a caller that does not get it waits
//     on its channel. Once Run has ended, the baton is never let go again
//     (close), so no one reads.
//   - Pending calls: a call's entry is taken by whoever reads its reply,
//     before that reader lets the baton go (Session.take), by the caller
//     itself when it gives up (its ctx ended, or its write failed), or by
//     shutdown. So a caller that holds the baton and finds its entry gone
//     knows that its answer is on its channel, and does not read; and a
//     reply whose entry is gone is dropped by whoever reads it.
//   - Order: whoever reads a request or notification dispatches it
//     (queues it, or starts it) before it lets the baton go, so the
//     next reader's messages come after it in the queue.
//   - The codec's buffer: no one waits on the descriptor while a message
//     is in the buffer; Run and callers look at the buffer first. A caller
//     that has read its reply handles the rest of the buffer before it
//     lets the baton go (drain), so that those messages do not wait for
//     Run to come back from its pause.
//   - Between messages a caller blocks only in poll(2) (awaitInput),
//     which wakeUp ends when its ctx ends (ctxWake) or the session does.
//     So it stops at once, without having read part of a message: the
//     stream stays in step, and whoever reads next reads its reply and
//     drops it. Inside a
//     message a read may block until the rest comes: the editor writes
//     each message whole (with Vim, the newline after it included).
//   - Holding: with one CPU and one P (direct.hold), a caller's first
//     holdFor of waiting is hidden from the runtime, which then neither
//     hands its P to another thread nor runs anything else of the plugin
//     (holdInput; on a socket, holdRead reads the reply at once, into
//     Input.pend, which counts as the codec's buffer: buffered). It holds
//     only while its call is the only one pending, after it has let the
//     goroutines that were ready run at most yieldEvery holds ago, and until
//     it dispatches a message (mayHold); its ctx's end, a timer's, is seen
//     after the hold.
//   - Alone: a call reads its own reply only if no other call was pending
//     when it was made, nor when any of the sharedRun calls before it was
//     made (Session.Call). With several calls under way, Run
//     reads for them all on the runtime poller: a thread blocked in
//     read() or poll() keeps its processor until the runtime takes it
//     back, and the other callers could not write their requests
//     meanwhile. A direct read that ends with calls still pending ends
//     Run's pause at once (resumeRun), so their replies do not wait.
//   - Run's pause and resume: Run never blocks in read(). It waits for the
//     input on the runtime poller without the baton (waitInput); a caller
//     that takes the baton kicks it out of that wait and waits for its
//     ack. After a direct read, Run stays off the input until callers
//     have made no direct read for idleDelay (pause), or a handler has
//     ended (resumeRun); while a direct read is under way, it waits for
//     that read's end (awaitRead), not on a timer.
type reader struct {
	s   *Session
	buf buffered
	in  *Input
	dir *direct
	// ctxWake wakes the caller that polls (dir.wakeUp) if its poll is
	// under way (polling); it is what the end of a caller's ctx runs, made
	// once: a method value allocates. A ctx's end that comes between
	// polls writes nothing, so the next poll is not woken for nothing.
	// The caller raises polling before it looks at its ctx, and the ctx's
	// end is set before ctxWake looks at polling: one of them sees the
	// other.
	ctxWake func()
	polling atomic.Bool

	baton sync.Mutex
	mu    sync.Mutex // guards runWaiting, kicked and ended
	// runWaiting: Run waits on the poller (waitInput); kicked: a caller
	// kicked it out of that wait and waits for ack; ended: Run has ended,
	// and the baton's last holder closes dir.
	runWaiting, kicked, ended bool
	ack                       chan struct{} // capacity 1: Run is off the input

	// reads counts the callers' direct reads: Run takes the input back
	// only when it has not changed for idleDelay (waitPause). runWaits is
	// true while Run waits on readDone (capacity 1) for a read to end.
	reads    atomic.Uint64
	runWaits atomic.Bool
	readDone chan struct{}

	// wakeCtx is the ctx of the last direct read whose end wakes the
	// reader (context.AfterFunc with ctxWake), and stopWake stops that;
	// only the baton's holder touches them. A handler makes its calls
	// with one ctx, so the registration is made once for them all, not
	// per call; a wake-up after the reader went on only makes a later
	// reader look at its own ctx again.
	wakeCtx  context.Context
	stopWake func() bool

	// spare is the message the baton's holder reads into in readOwn; it
	// is kept for the next read only when nothing else holds it (the
	// message was the reader's own reply, whose values are copied out),
	// so a call allocates no message. Only the baton's holder touches it.
	spare *wire.Message
	// unyielded counts the holds since a caller last yielded (mayHold).
	// Only the baton's holder touches it.
	unyielded int

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

// newReader returns nil when direct reads cannot be made from f.
func newReader(s *Session, b buffered, in *Input) *reader {
	if in == nil {
		return nil
	}
	dir := newDirect(in)
	if dir == nil {
		return nil
	}
	r := &reader{
		s: s, buf: b, in: in, dir: dir,
		ack:        make(chan struct{}, 1),
		readDone:   make(chan struct{}, 1),
		resume:     make(chan struct{}, 1),
		pauseTimer: time.NewTimer(time.Hour),
		idleDelay:  idleDelay,
	}
	r.pauseTimer.Stop()
	r.ctxWake = func() {
		if r.polling.Load() {
			r.dir.wakeUp()
		}
	}
	return r
}

// runTurn is Run's turn to read: true when Run holds the baton and a read
// will not block (endTurn lets it go); false after Run waited, for input
// or for callers to pause, and must look again.
func (r *reader) runTurn() bool {
	if !r.baton.TryLock() {
		r.waitPause() // a caller reads
		return false
	}
	if !r.buffered() && !r.dir.readable() {
		r.baton.Unlock()
		r.waitInput()
		return false
	}
	return true
}

// endTurn ends Run's turn.
func (r *reader) endTurn() { r.baton.Unlock() }

// tryTurn gives a caller the baton if no one holds it; readOwn lets it go.
func (r *reader) tryTurn() bool { return r.baton.TryLock() }

// close closes the direct-read descriptors once no one needs them: Run
// reads no more, and shutdown left no call pending, so a caller that gets
// the baton from now on finds its entry gone and does not read. The
// baton's holder closes them, here or when it lets the baton go
// (release), and keeps the baton.
func (r *reader) close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.ended = true
	if r.baton.TryLock() {
		r.dir.close()
	}
}

// release lets a caller's baton go, or, once Run has ended, closes the
// direct-read descriptors and keeps it.
func (r *reader) release() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ended {
		r.dir.close()
		return
	}
	r.baton.Unlock()
}

// wakeAll ends the poll of the caller that reads, if any (shutdown).
func (r *reader) wakeAll() { r.dir.wakeUp() }

// waitInput waits until the input is readable, without reading it and
// without holding the baton, or until a caller has taken the input over
// and its calls have paused.
func (r *reader) waitInput() {
	r.mu.Lock()
	r.runWaiting = true
	r.mu.Unlock()
	_ = r.dir.waitReadable()
	r.mu.Lock()
	r.runWaiting = false
	kicked := r.kicked
	r.kicked = false
	if kicked {
		r.dir.unkick()
	}
	r.mu.Unlock()
	if kicked {
		r.ack <- struct{}{}
		r.waitPause()
	}
}

// waitPause returns once callers have made no direct read for idleDelay,
// or once a handler has ended (its calls are over). While a caller's read
// is under way, Run waits for its end (an event), not on a timer: the
// runtime sleeps at least 1 ms when it waits for a timer with nothing to
// run, so timers are only for the pause between calls.
func (r *reader) waitPause() {
	for {
		if !r.baton.TryLock() {
			if r.awaitRead() {
				return
			}
			// A read has ended, so callers are busy: wait for a pause, not
			// for the next read's end, which would wake this goroutine (and
			// with GOMAXPROCS > 1 a thread) once per call.
		} else {
			r.baton.Unlock()
		}
		n := r.reads.Load()
		if r.pause() || r.reads.Load() == n {
			return
		}
	}
}

// awaitRead waits until the direct read under way ends, or a handler ends
// (it then returns true).
func (r *reader) awaitRead() bool {
	n := r.reads.Load()
	r.runWaits.Store(true)
	// Look again after raising the flag, in case the read ended just
	// before: then take the flag back, or take the signal already sent.
	ended := r.reads.Load() != n
	if !ended && r.baton.TryLock() {
		r.baton.Unlock()
		ended = true
	}
	if ended {
		if !r.runWaits.CompareAndSwap(true, false) {
			<-r.readDone
		}
		return false
	}
	select {
	case <-r.readDone:
		return false
	case <-r.resume:
		return true
	}
}

// pause waits idleDelay, or less if a handler ends meanwhile (it then
// returns true).
func (r *reader) pause() bool {
	r.pauseTimer.Reset(r.idleDelay)
	select {
	case <-r.pauseTimer.C:
		return false
	case <-r.resume:
		if !r.pauseTimer.Stop() {
			select { // whatever the go version's timer semantics
			case <-r.pauseTimer.C:
			default:
			}
		}
		return true
	}
}

// resumeRun tells Run, if it waits for callers to pause, that a handler
// has ended: its calls are over, and input (the editor's next request)
// must not wait for idleDelay.
func (r *reader) resumeRun() {
	select {
	case r.resume <- struct{}{}:
	default:
	}
}

// readOwn reads from the input until the reply to id comes, or ctx ends,
// handling whatever else comes first as Run would. The caller holds the
// baton (tryTurn); readOwn releases it.
func (r *reader) readOwn(ctx context.Context, id int64, ch chan response) (wire.Raw, error) {
	if ctx.Done() != nil && ctx != r.wakeCtx {
		// A wake-up that comes after stop (the function had started) ends
		// a later caller's awaitInput for nothing: that caller looks at
		// its own ctx and waits again.
		if r.stopWake != nil {
			r.stopWake()
		}
		r.wakeCtx, r.stopWake = ctx, context.AfterFunc(ctx, r.ctxWake)
	}
	res, ok, left, err := r.readOwnLocked(ctx, id, ch)
	r.reads.Add(1)
	if r.runWaits.CompareAndSwap(true, false) {
		r.readDone <- struct{}{}
	}
	if left > 0 || left < 0 && r.s.anyPending() {
		// Calls made while this one read wait on their channels: Run reads
		// their replies, at once rather than after a pause.
		r.resumeRun()
	}
	if ok {
		return res, err
	}
	// Run read the reply before this caller had the baton, or the session
	// ended: the answer is on its way.
	select {
	case resp := <-ch:
		r.s.reuse(ch)
		return resp.result, resp.err
	case <-ctx.Done():
		return nil, context.Cause(ctx) // the reply still comes on ch: it is not reused
	}
}

// readOwnLocked is readOwn while holding the baton; ok is false if the
// reply was read by Run (or the session ended) and is on the call's
// channel. left is how many calls were pending once it had read its reply,
// or -1 when it did not count them.
func (r *reader) readOwnLocked(ctx context.Context, id int64, ch chan response) (res wire.Raw, ok bool, left int, err error) {
	defer r.release()
	s := r.s
	r.mu.Lock()
	waiting := r.runWaiting
	if waiting {
		r.kicked = true
		r.dir.kick()
	}
	r.mu.Unlock()
	if waiting {
		<-r.ack // Run is off the input now
	}
	replied := false
	defer func() {
		// Messages left in the codec's buffer would wait for Run to come
		// back from its pause: handle them now.
		if replied {
			r.drain()
		}
	}()
	// Run read the reply (or the session ended) before this caller had the
	// baton: its answer is on its channel. Once the caller holds the
	// baton, only it reads, so one look is enough.
	pending, only := s.pendingOf(id)
	if !pending {
		return nil, false, -1, nil
	}
	// hold: the wait may keep the processor (awaitInput, holdInput), while
	// nothing else waits to run: not after this caller dispatched a
	// message, and not while other calls are pending.
	hold := r.dir.holds() && r.mayHold(id, only) && ctx.Err() == nil
	for {
		if !r.buffered() && !r.await(ctx, hold) {
			// Woken: this caller's ctx has ended, or the session, or the
			// wake-up was meant for an earlier caller.
			if !s.isPending(id) {
				return nil, false, -1, nil // shutdown answered on the channel
			}
			if ctx.Err() != nil {
				s.drop(id, ch)
				return nil, true, -1, context.Cause(ctx)
			}
			continue
		}
		m := r.spare
		if m == nil {
			m = new(wire.Message)
		}
		r.spare = nil // dispatched or passed on below, unless it is the reply
		if rerr := s.read(m); rerr != nil {
			if errors.Is(rerr, wire.ErrMalformed) {
				s.bad(m, rerr)
				continue
			}
			// Run meets the same end of input and shuts the session down.
			s.drop(id, ch)
			return nil, true, -1, closedErr(rerr)
		}
		if m.Kind == wire.Response && m.ID == id {
			left := s.drop(id, ch)
			replied = true
			resp := s.response(m)
			*m = wire.Message{}
			r.spare = m
			return resp.result, true, left, resp.err
		}
		s.dispatch(m)
		hold = false
	}
}

// await is dir.awaitInput for a caller whose ctx's end wakes it
// (ctxWake): false when ctx has ended, or the wait was woken.
func (r *reader) await(ctx context.Context, hold bool) bool {
	r.polling.Store(true)
	ok := ctx.Err() == nil && r.dir.awaitInput(hold)
	r.polling.Store(false)
	return ok
}

// mayHold reports whether call id may wait for its reply holding the
// processor: at least every yieldEvery holds it first lets the goroutines
// that are ready run (with one P they could not while it waits), and then
// it must be the only call pending, or they would wait for its reply to
// run again. only is whether it was, before any yield.
func (r *reader) mayHold(id int64, only bool) bool {
	if r.unyielded++; r.unyielded >= yieldEvery {
		r.unyielded = 0
		runtime.Gosched()
		_, only = r.s.pendingOf(id)
	}
	return only
}

// yieldEvery is how many holds may follow one another before a caller lets
// the goroutines that are ready run: one hold lasts a round trip, so they
// wait at most a few round trips, and the Gosched, a visible part of a
// call's cost on one CPU (BENCHMARKS.md, "The wait for a reply"), is paid
// once for them all.
const yieldEvery = 8

// buffered reports whether input has been read that the codec has not
// parsed: in its buffer, or what a hold read (Input.pend).
func (r *reader) buffered() bool { return r.buf.Buffered() > 0 || len(r.in.pend) > 0 }

// drain handles the messages already in the codec's buffer.
func (r *reader) drain() {
	s := r.s
	for r.buffered() {
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
