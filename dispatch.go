package vigor

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"sort"
	"strings"
	"time"

	"github.com/vigorvim/vigor/internal/host"
	"github.com/vigorvim/vigor/internal/protocol"
	"github.com/vigorvim/vigor/internal/wire"
)

// bind returns the context of the handler of a message just read: the
// current interrupt generation, which an interrupt read after the message
// cancels however late the handler starts. It is cancelled by unload, and
// when the editor goes away. The session calls it on its reading
// goroutine, in the order the messages came (rpc.Options.Bind).
// It also notes a request_async call as being answered (asyncs).
func (p *Plugin) bind(m *wire.Message) context.Context {
	var sid string
	if m.Method == protocol.MethodAsync {
		sid = p.asyncID(m)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if sid != "" {
		p.asyncs[sid] = struct{}{}
	}
	return p.gen
}

// asyncID is the success id of the $async message m, or "".
func (p *Plugin) asyncID(m *wire.Message) string {
	var sid string
	if len(m.Params) == 0 || p.codec.Unmarshal(m.Params[0], &sid) != nil {
		return ""
	}
	return sid
}

// asyncAnswered notes that the request_async call sid has been answered,
// or will not be.
func (p *Plugin) asyncAnswered(sid string) {
	p.mu.Lock()
	delete(p.asyncs, sid)
	p.mu.Unlock()
}

// stuckFloor is the least time that a handler has to return after its
// interrupt before it counts as stuck, whatever the budget: a handler
// that watches its ctx may not have been scheduled yet to see it, and a
// budget of 0 (g:vigor#unload_timeout) would restart its plugin.
const stuckFloor = 100 * time.Millisecond

// interrupt cancels every handler's context and starts a new generation.
// The handlers it cancels are to return within budget (stuck); a
// request_async call that it cancels fails at once, whether or not its
// handler returns.
func (p *Plugin) interrupt(reason string, budget time.Duration) {
	cause := ErrInterrupted
	if reason != "" {
		cause = fmt.Errorf("%w: %s", ErrInterrupted, reason)
	}
	now := time.Now()
	cancelled := 0
	var failed []runEntry
	p.mu.Lock()
	p.genStop(cause)
	p.gen, p.genStop = context.WithCancelCause(p.ctx)
	p.stuckBudget = budget
	if !p.unloaded {
		for i := range p.runs {
			e := &p.runs[i]
			if e.ctx == nil || !e.interrupted.IsZero() || !errors.Is(context.Cause(e.ctx), ErrInterrupted) {
				continue
			}
			p.interrupted(e, now)
			cancelled++
			if e.ok != "" && !e.answered {
				e.answered = true
				failed = append(failed, *e)
			}
		}
	}
	p.mu.Unlock()
	p.log.Info("interrupted", "reason", reason, "handlers", cancelled)
	if len(failed) > 0 {
		// Preempt must not block on a write: the answers go from a
		// goroutine of their own, which ends with the writes (a session
		// that has ended fails them).
		go func() {
			for _, e := range failed {
				p.resolve(e.ok, e.fail, e.method, nil, context.Cause(e.ctx))
			}
		}()
	}
}

// runEntry is a handler that is running, in its slot of Plugin.runs: its
// method, its context (nil for a free slot), and when an interrupt
// cancelled that (zero before) with what budget. ok and fail are the
// callbacks of a request_async call ("" for the others); answered is set
// once its one answer goes, the handler's or the interrupt's.
type runEntry struct {
	method      string
	ctx         context.Context
	interrupted time.Time
	budget      time.Duration
	ok, fail    string
	answered    bool
}

// track puts a handler that starts in a free slot of runs and returns
// the slot. A handler whose ctx an interrupt has already cancelled (it
// started after the interrupt that its message's generation got) counts
// as interrupted now, and its request_async call is answered by the
// caller (early). Under mu.
func (p *Plugin) track(ctx context.Context, method, ok, fail string) (slot int, early bool) {
	if n := len(p.runFree); n > 0 {
		slot = p.runFree[n-1]
		p.runFree = p.runFree[:n-1]
	} else {
		slot = len(p.runs)
		p.runs = append(p.runs, runEntry{})
	}
	e := &p.runs[slot]
	*e = runEntry{method: method, ctx: ctx, ok: ok, fail: fail}
	if ctx.Err() != nil && !p.unloaded && errors.Is(context.Cause(ctx), ErrInterrupted) {
		p.interrupted(e, time.Now())
		if ok != "" {
			e.answered, early = true, true
		}
	}
	return slot, early
}

// untrack frees the slot of a handler that has returned, and reports
// whether its request_async call is still to be answered.
func (p *Plugin) untrack(slot int) (owed bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	owed = !p.runs[slot].answered
	p.runs[slot] = runEntry{}
	p.runFree = append(p.runFree, slot)
	return owed
}

// interrupted notes that an interrupt cancelled e's handler at now, and
// sets the stuck check for the end of its budget. Under mu.
func (p *Plugin) interrupted(e *runEntry, now time.Time) {
	e.interrupted, e.budget = now, max(p.stuckBudget, stuckFloor)
	p.armStuck(now.Add(e.budget))
}

// armStuck makes the stuck check run at at, or before. Under mu.
func (p *Plugin) armStuck(at time.Time) {
	switch {
	case p.stuckTold || p.unloaded || p.stuckOff:
	case p.stuckTimer == nil:
		p.stuckTimer = time.AfterFunc(time.Until(at), p.stuck)
		p.stuckAt = at
	case p.stuckAt.IsZero() || at.Before(p.stuckAt):
		p.stuckTimer.Reset(time.Until(at))
		p.stuckAt = at
	}
}

// stopStuck stops the stuck check for good: the plugin unloads, or serve
// returns. Under mu.
func (p *Plugin) stopStuck() {
	p.stuckOff = true
	if p.stuckTimer != nil {
		p.stuckTimer.Stop()
	}
}

// stuck tells the runtime, once, of the handlers that an interrupt
// cancelled and that still run at the end of their budget: Go cannot stop
// a goroutine, and one that ignores its context keeps a CPU busy (or
// holds what it holds) for nothing, one more at each interrupt. The
// runtime then says so and restarts the plugin (protocol.FuncStuck). It
// runs on stuckTimer's goroutine, and sets the timer again for a budget
// that has not ended yet.
func (p *Plugin) stuck() {
	now := time.Now()
	var oldest *runEntry
	var methods []string
	p.mu.Lock()
	p.stuckAt = time.Time{}
	if p.unloaded || p.stuckTold || p.stuckOff {
		p.mu.Unlock()
		return
	}
	for i := range p.runs {
		e := &p.runs[i]
		if e.ctx == nil || e.interrupted.IsZero() {
			continue
		}
		// Those interrupted later go with the restart too.
		methods = append(methods, e.method)
		if oldest == nil || e.interrupted.Add(e.budget).Before(oldest.interrupted.Add(oldest.budget)) {
			oldest = e
		}
	}
	if oldest == nil {
		p.mu.Unlock()
		return
	}
	if at := oldest.interrupted.Add(oldest.budget); at.After(now) {
		p.armStuck(at)
		p.mu.Unlock()
		return
	}
	p.stuckTold = true
	method, budget := oldest.method, oldest.budget
	p.mu.Unlock()
	sort.Strings(methods)
	p.log.Error("handlers did not return after their interrupt; the runtime restarts the plugin", "methods", methods, "budget", budget)
	err := p.ed.Notify(context.WithoutCancel(p.ctx), protocol.FuncStuck, []any{p.name, p.instance, method, len(methods) - 1, budget.Milliseconds()})
	if err != nil {
		p.log.Error("cannot tell the editor of the handlers that ignore their interrupt", "err", err)
	}
}

// preempt serves the runtime's messages that go before the queue, on the
// reading goroutine (rpc.Options.Preempt): see reserved.
func (p *Plugin) preempt(m *wire.Message) bool { return p.reserved(nil, m, true) }

// reserved is the one place where the runtime's reserved methods
// (protocol.Method*) and the editor's own notifications are routed, in
// both of the turns in which the session hands a message over: preempt
// (ctx nil), on the reading goroutine before the message is queued, and
// in the message's turn. It reports whether the message was served (and
// so, in preempt, is not queued); a request of a reserved method is
// answered by Request.
func (p *Plugin) reserved(ctx context.Context, m *wire.Message, preempt bool) bool {
	switch m.Method {
	case protocol.MethodUnload:
		if preempt {
			// The budget starts now, as the runtime's kill timer does,
			// even if the unload waits behind a notification handler
			// that never returns: the process exits when it ends
			// (awaitEnd). The unload itself runs in its turn.
			p.exitBy(time.Now().Add(p.unloadBudget(m.Params)))
			p.mu.Lock()
			p.ending = true
			p.mu.Unlock()
			return false
		}
		p.unload(ctx, true, p.unloadBudget(m.Params))
		return true
	case protocol.MethodPending:
		p.pending(m.Params)
		return true
	case protocol.MethodInterrupt:
		// [reason, budget], both optional; the reason may be null.
		var reason string
		if len(m.Params) > 0 {
			var v any
			if err := p.codec.Unmarshal(m.Params[0], &v); err == nil && v != nil {
				reason = fmt.Sprint(v)
			}
		}
		p.interrupt(reason, p.unloadBudget(m.Params[min(1, len(m.Params)):]))
		return true
	case protocol.MethodAsync:
		if preempt {
			return p.asyncEnding(m)
		}
		p.async(ctx, m)
		return true
	}
	if preempt {
		return false
	}
	if ok, err := p.ed.EditorNotification(m); ok {
		if err != nil {
			p.log.Error("the editor reported an error", "err", err)
		}
		return true
	}
	return false
}

// pending answers the runtime's question whether the request with a
// token (a Number), or the request_async call with a success id (a
// String), is still running (protocol.MethodPending). It looks on the
// reading goroutine, after the request was read: one that is not being
// answered any more has its answer written ahead of this one, so that
// the runtime, which reads both in order, knows an answer it did not get
// was lost. For a request, on Vim, the wake-up of its wait follows, so
// that the wait sees the answer at once (host.Reminder.Wake). The answer is
// written on a goroutine of its own, as Preempt must not block on a
// write; the goroutine ends with the writes (a session that has ended
// fails them), or is left behind by the exit.
func (p *Plugin) pending(params []wire.Raw) {
	var token int64
	var sid string
	var id any
	var running bool
	switch {
	case len(params) != 1:
	case p.codec.Unmarshal(params[0], &token) == nil:
		id, running = token, p.conn.Answering(token)
	case p.codec.Unmarshal(params[0], &sid) == nil:
		p.mu.Lock()
		_, running = p.asyncs[sid]
		p.mu.Unlock()
		id = sid
	}
	if id == nil {
		p.log.Error("bad $pending message", "params", len(params))
		return
	}
	p.log.Debug("the editor asks whether a request runs", "id", id, "running", running)
	go func() {
		// Also while the plugin unloads: the request still waits.
		err := p.ed.Notify(context.WithoutCancel(p.ctx), protocol.FuncPending, []any{id, running})
		if err == nil && sid == "" {
			err = p.conn.Wake(token)
		}
		if err != nil {
			p.log.Error("cannot tell the editor whether a request runs", "id", id, "err", err)
		}
	}()
}

func (p *Plugin) badMessage(m *wire.Message, err error) any {
	p.log.Error("bad message from the editor", "err", err)
	return p.answer(m.Method, nil, err)
}

// dispatcher serves the editor's messages (rpc.Handler).
type dispatcher Plugin

// Request implements rpc.Handler: vigor#request(). A result that the
// editor cannot take fails the request (wire.Fallible): the editor waits
// for an answer, so one must go.
func (d *dispatcher) Request(ctx context.Context, m *wire.Message) any {
	p := (*Plugin)(d)
	res, err := p.run(ctx, m.Method, m.Params, "", "")
	return p.answer(m.Method, res, err)
}

// answer is the one place where the answer to a request of the runtime
// is made: the reply tuple [result, null], or [null, message] when the
// request failed, or when its result cannot be sent (Fallback). host's
// codecs write it as the editor's protocol has it.
func (p *Plugin) answer(method string, res any, err error) *reply {
	r := &reply{p: p, method: method}
	if err != nil {
		r.tuple[protocol.ReplyError] = err.Error()
	} else {
		r.tuple[protocol.ReplyResult] = res
	}
	return r
}

// reply is the answer to a request (answer), a wire.Fallible.
type reply struct {
	tuple  [protocol.ReplyLen]any
	p      *Plugin
	method string
}

func (r *reply) Value() any { return r.tuple[:] }

func (r *reply) Fallback(err error) any {
	msg := resultError(err, 1)
	r.p.log.Error("the result cannot be sent", "method", r.method, "err", msg, "detail", errDetail(err))
	var failed reply
	failed.tuple[protocol.ReplyError] = msg
	return failed.tuple[:]
}

// resultError is the message for a result that cannot be sent to the
// editor, err from the codec: the result is the value at depth in the
// path of a *wire.ValueError.
func resultError(err error, depth int) string {
	var ve *wire.ValueError
	if errors.As(err, &ve) {
		return "the result cannot be sent to the editor: " + ve.At(depth)
	}
	return "the result cannot be sent to the editor: " + err.Error()
}

// errDetail is the encoder's or decoder's own error behind err, for the
// log.
func errDetail(err error) error {
	var ve *wire.ValueError
	if errors.As(err, &ve) && ve.Detail != nil {
		return ve.Detail
	}
	if u := errors.Unwrap(err); u != nil {
		return u
	}
	return err
}

// Notification implements rpc.Handler: vigor#notify(), request_async and the
// runtime's own messages.
func (d *dispatcher) Notification(ctx context.Context, m *wire.Message) {
	p := (*Plugin)(d)
	if p.reserved(ctx, m, false) {
		return
	}
	if _, err := p.run(ctx, m.Method, m.Params, "", ""); err != nil {
		p.tellError(m.Method, err)
	}
}

// asyncCall reads the callbacks and the method of the $async message m.
// A message that has none is logged, and false returned.
func (p *Plugin) asyncCall(m *wire.Message) (ok, fail, method string, good bool) {
	if len(m.Params) != 4 {
		p.log.Error("bad $async message", "params", len(m.Params))
		return "", "", "", false
	}
	err := errors.Join(p.codec.Unmarshal(m.Params[0], &ok), p.codec.Unmarshal(m.Params[1], &fail),
		p.codec.Unmarshal(m.Params[2], &method))
	if err != nil {
		p.log.Error("bad $async message", "err", err)
		return "", "", "", false
	}
	return ok, fail, method, true
}

// asyncEnding takes, on the reading goroutine (preempt), a request_async
// call read once the plugin is ending, and reports whether it did: the
// call does not run, and it fails with ErrUnloaded. Its answer goes from
// a goroutine of its own, as Preempt must not block on a write, and the
// unload waits for it (lateAnswers): the call may wait in the queue
// behind the unload itself, and its answer must go before serve returns.
func (p *Plugin) asyncEnding(m *wire.Message) bool {
	p.mu.Lock()
	ending := p.ending // (once set, it stays)
	p.mu.Unlock()
	if !ending {
		return false
	}
	ok, fail, method, good := p.asyncCall(m)
	if !good {
		return true
	}
	p.mu.Lock()
	p.asyncs[ok] = struct{}{}
	p.lateAnswers++
	p.mu.Unlock()
	go func() {
		defer p.lateAnswered()
		p.resolve(ok, fail, method, nil, ErrUnloaded)
	}()
	return true
}

// lateAnswered counts out an answer of asyncEnding.
func (p *Plugin) lateAnswered() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.lateAnswers--
	if p.lateAnswers == 0 {
		select {
		case p.lateIdle <- struct{}{}:
		default:
		}
	}
}

// async runs a request_async call on its own goroutine and resolves the
// editor's callbacks.
func (p *Plugin) async(ctx context.Context, m *wire.Message) {
	ok, fail, method, good := p.asyncCall(m)
	if !good {
		p.asyncAnswered(p.asyncID(m))
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
		if perr != nil {
			// The runtime checks this; an answer is still owed, or the
			// callbacks leak.
			p.log.Error("bad $async params", "method", method, "err", perr)
			p.resolve(ok, fail, method, nil, fmt.Errorf("its arguments must be a List, not a %s", p.codec.TypeName(m.Params[3])))
			return
		}
		_, _ = p.run(ctx, method, params, ok, fail)
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
	defer p.asyncAnswered(ok)
	failure := func(msg string) []any {
		return []any{ok, fail, false, protocol.ErrorObject(p.name, method, msg)}
	}
	args := []any{ok, fail, true, res}
	if err != nil {
		args = failure(err.Error())
	}
	// The plugin may be unloading (p.ctx is cancelled then); the answer
	// must still reach the editor, or its callbacks leak.
	ctx := context.WithoutCancel(p.ctx)
	if err := p.ed.Notify(ctx, protocol.FuncResolve, args); err != nil {
		p.resolveFailed(ctx, method, err, failure)
	}
}

// resolveFailed handles err, the error of resolving a request_async call
// of method: a result that cannot be sent resolves the call's failure
// callback instead (failure(msg) is its arguments).
func (p *Plugin) resolveFailed(ctx context.Context, method string, err error, failure func(string) []any) {
	var ae *host.ArgError
	if errors.As(err, &ae) {
		// The result (argument 4 of resolve) cannot be sent: fail.
		msg := "the result cannot be sent to the editor: " + ae.Msg()
		p.log.Error("the result cannot be sent", "method", method, "err", msg, "detail", errDetail(err))
		err = p.ed.Notify(ctx, protocol.FuncResolve, failure(msg))
	}
	if err != nil {
		p.log.Error("cannot resolve request_async", "method", method, "err", err)
	}
}

// run calls a handler with panic recovery. ok and fail are the callbacks
// of a request_async call, which run answers, and "" for other calls.
// Exactly one answer goes: the handler's, or the interrupt's when that
// comes first, so that an interrupted call fails at once even if its
// handler ignores its ctx (its late result is dropped; see interrupt).
func (p *Plugin) run(ctx context.Context, method string, params []wire.Raw, ok, fail string) (res any, err error) {
	p.mu.Lock()
	h := p.handlers[method]
	var slot int
	var early bool
	if h != nil {
		slot, early = p.track(ctx, method, ok, fail)
	}
	p.mu.Unlock()
	if h == nil {
		if method == protocol.MethodStats {
			res = p.stats()
		} else {
			err = fmt.Errorf("no method %q; the plugin has: %s", method, strings.Join(p.methodNames(), ", "))
		}
		if ok != "" {
			p.resolve(ok, fail, method, res, err)
		}
		return res, err
	}
	if early {
		p.resolve(ok, fail, method, nil, context.Cause(ctx))
	}
	res, err = p.call(ctx, h, method, params)
	if p.untrack(slot) && ok != "" {
		p.resolve(ok, fail, method, res, err)
	}
	return res, err
}

// call runs the handler h of method, and turns a panic into an error.
func (p *Plugin) call(ctx context.Context, h *handler, method string, params []wire.Raw) (res any, err error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer func() {
		if r := recover(); r != nil {
			p.logPanic("panic in handler", r, debug.Stack(), "method", method)
			res, err = nil, fmt.Errorf("panic: %v (stack in %s)", r, p.logPath)
		}
	}()
	res, err = h.call(ctx, p.codec, &p.dec, params)
	if de, ok := err.(*decodeError); ok {
		p.log.Warn("arguments do not fit", "method", method, "err", de, "detail", de.detail)
	}
	return res, err
}

// tellError shows an error from a notified method to the user.
func (p *Plugin) tellError(method string, err error) {
	p.log.Error("notified method failed", "method", method, "err", err)
	_ = p.ed.Notify(p.ctx, protocol.FuncEcho, []any{"error", p.name, method + ": " + err.Error()})
}
