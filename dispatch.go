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
// goroutine, in the order the messages came (host.Config.Bind).
func (p *Plugin) bind() context.Context {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.gen
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
			if !e.async.IsZero() && !e.answered {
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
				p.resolve(e.async, nil, context.Cause(e.ctx))
			}
		}()
	}
}

// runEntry is a handler that is running, in its slot of Plugin.runs: its
// method, its context (nil for a free slot), and when an interrupt
// cancelled that (zero before) with what budget. async is the
// request_async call that it answers (zero for the others); answered is
// set once its one answer goes, the handler's or the interrupt's.
type runEntry struct {
	method      string
	ctx         context.Context
	interrupted time.Time
	budget      time.Duration
	async       host.Async
	answered    bool
}

// track puts a handler that starts in a free slot of runs and returns
// the slot. A handler whose ctx an interrupt has already cancelled (it
// started after the interrupt that its message's generation got) counts
// as interrupted now, and its request_async call is answered by the
// caller (early). Under mu.
func (p *Plugin) track(ctx context.Context, method string, async host.Async) (slot int, early bool) {
	if n := len(p.runFree); n > 0 {
		slot = p.runFree[n-1]
		p.runFree = p.runFree[:n-1]
	} else {
		slot = len(p.runs)
		p.runs = append(p.runs, runEntry{})
	}
	e := &p.runs[slot]
	*e = runEntry{method: method, ctx: ctx, async: async}
	if ctx.Err() != nil && !p.unloaded && errors.Is(context.Cause(ctx), ErrInterrupted) {
		p.interrupted(e, time.Now())
		if !async.IsZero() {
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
// reading goroutine (host.Config.Preempt): see reserved.
func (p *Plugin) preempt(method string, params host.Values) bool {
	return p.reserved(nil, method, params, true)
}

// reserved is the one place where the runtime's reserved methods
// (protocol.Method*) that are the plugin's are routed, in both of the
// turns in which the session hands a message over: preempt (ctx nil), on
// the reading goroutine before the message is queued, and in the
// message's turn. It reports whether the message was served (and so, in
// preempt, is not queued); a request of a reserved method ($stats) is
// answered by Request. The editor protocol's own messages ($pending, the
// reading of $async, the editor's notifications) are host.Conn's, which
// hands a request_async call to Async.
func (p *Plugin) reserved(ctx context.Context, method string, params host.Values, preempt bool) bool {
	switch method {
	case protocol.MethodUnload:
		if preempt {
			// The budget starts now, as the runtime's kill timer does,
			// even if the unload waits behind a notification handler
			// that never returns: the process exits when it ends
			// (awaitEnd). The unload itself runs in its turn.
			p.exitBy(time.Now().Add(p.unloadBudget(params)))
			p.mu.Lock()
			p.ending = true
			p.mu.Unlock()
			return false
		}
		p.unload(ctx, true, p.unloadBudget(params))
		return true
	case protocol.MethodInterrupt:
		// [reason, budget], both optional; the reason may be null.
		var reason string
		if params.Len() > 0 {
			var v any
			if err := params.At(0).Decode(&v); err == nil && v != nil {
				reason = fmt.Sprint(v)
			}
		}
		p.interrupt(reason, p.unloadBudget(params.Slice(min(1, params.Len()), params.Len())))
		return true
	}
	return false
}

func (p *Plugin) badMessage(method string, err error) any {
	p.log.Error("bad message from the editor", "err", err)
	return p.answer(method, nil, err)
}

// dispatcher serves the editor's messages (host.Handler).
type dispatcher Plugin

// Request implements host.Handler: vigor#request(). A result that the
// editor cannot take fails the request (wire.Fallible): the editor waits
// for an answer, so one must go.
func (d *dispatcher) Request(ctx context.Context, method string, params host.Values) any {
	p := (*Plugin)(d)
	res, err := p.run(ctx, method, params, host.Async{})
	return p.answer(method, res, err)
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

// Notification implements host.Handler: vigor#notify() and the runtime's
// own messages.
func (d *dispatcher) Notification(ctx context.Context, method string, params host.Values) {
	p := (*Plugin)(d)
	if p.reserved(ctx, method, params, false) {
		return
	}
	if _, err := p.run(ctx, method, params, host.Async{}); err != nil {
		p.tellError(method, err)
	}
}

// Async implements host.Handler: it runs a request_async call on its own
// goroutine, which resolves the editor's callbacks.
func (d *dispatcher) Async(ctx context.Context, call host.Async) {
	p := (*Plugin)(d)
	p.mu.Lock()
	if p.unloaded {
		// It was on its way when the unload began: answer without
		// running it.
		p.mu.Unlock()
		p.resolve(call, nil, ErrUnloaded)
		return
	}
	p.asyncRunning++
	p.mu.Unlock()
	go func() {
		defer p.asyncDone()
		if call.Err != nil {
			p.resolve(call, nil, call.Err)
			return
		}
		_, _ = p.run(ctx, call.Method, call.Params, call)
	}()
}

// isEnding reports whether the plugin is ending (host.Config.Ending).
func (p *Plugin) isEnding() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.ending // (once set, it stays)
}

// Late implements host.Handler: a request_async call read once the plugin
// is ending does not run, and fails with ErrUnloaded. Its answer goes
// from a goroutine of its own, as the reading goroutine must not block on
// a write, and the unload waits for it (lateAnswers): the call may wait in
// the queue behind the unload itself, and its answer must go before serve
// returns.
func (d *dispatcher) Late(call host.Async) {
	p := (*Plugin)(d)
	p.mu.Lock()
	p.lateAnswers++
	p.mu.Unlock()
	go func() {
		defer p.lateAnswered()
		p.resolve(call, nil, ErrUnloaded)
	}()
}

// lateAnswered counts out an answer of Late.
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

// asyncDone counts a request_async handler out (see asyncRunning).
func (p *Plugin) asyncDone() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.asyncRunning--
	if p.asyncRunning == 0 && p.unloaded {
		close(p.asyncIdle)
	}
}

// resolve answers the request_async call: its success callback gets
// res, or its failure callback an error object made from err.
func (p *Plugin) resolve(call host.Async, res any, err error) {
	defer p.conn.Answered(call)
	failure := func(msg string) map[string]any {
		return protocol.ErrorObject(p.name, call.Method, msg)
	}
	// The plugin may be unloading (p.ctx is cancelled then); the answer
	// must still reach the editor, or its callbacks leak.
	ctx := context.WithoutCancel(p.ctx)
	if err != nil {
		err = p.conn.Resolve(ctx, call, false, failure(err.Error()))
	} else {
		err = p.conn.Resolve(ctx, call, true, res)
	}
	if err != nil {
		p.resolveFailed(ctx, call, err, failure)
	}
}

// resolveFailed handles err, the error of resolving the request_async
// call: a result that cannot be sent resolves the call's failure callback
// instead (failure(msg) is its error object).
func (p *Plugin) resolveFailed(ctx context.Context, call host.Async, err error, failure func(string) map[string]any) {
	var ae *host.ArgError
	if errors.As(err, &ae) {
		// The result (argument 4 of resolve) cannot be sent: fail.
		msg := "the result cannot be sent to the editor: " + ae.Msg()
		p.log.Error("the result cannot be sent", "method", call.Method, "err", msg, "detail", errDetail(err))
		err = p.conn.Resolve(ctx, call, false, failure(msg))
	}
	if err != nil {
		p.log.Error("cannot resolve request_async", "method", call.Method, "err", err)
	}
}

// run calls a handler with panic recovery. async is the request_async
// call that run answers, and zero for other calls.
// Exactly one answer goes: the handler's, or the interrupt's when that
// comes first, so that an interrupted call fails at once even if its
// handler ignores its ctx (its late result is dropped; see interrupt).
func (p *Plugin) run(ctx context.Context, method string, params host.Values, async host.Async) (res any, err error) {
	p.mu.Lock()
	h := p.handlers[method]
	if h == nil && strings.HasPrefix(method, LambdaPrefix) {
		h = p.lambdas[method]
	}
	var slot int
	var early bool
	if h != nil {
		slot, early = p.track(ctx, method, async)
	}
	p.mu.Unlock()
	if h == nil {
		if method == protocol.MethodStats {
			res = p.stats()
		} else if strings.HasPrefix(method, LambdaPrefix) {
			err = p.unknownLambda(method)
		} else {
			err = fmt.Errorf("no method %q; the plugin has: %s", method, strings.Join(p.methodNames(), ", "))
		}
		if !async.IsZero() {
			p.resolve(async, res, err)
		}
		return res, err
	}
	if early {
		p.resolve(async, nil, context.Cause(ctx))
	}
	res, err = p.call(ctx, h, method, params)
	if p.untrack(slot) && !async.IsZero() {
		p.resolve(async, res, err)
	}
	return res, err
}

// call runs the handler h of method, and turns a panic into an error.
func (p *Plugin) call(ctx context.Context, h *handler, method string, params host.Values) (res any, err error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer func() {
		if r := recover(); r != nil {
			p.logPanic("panic in handler", r, debug.Stack(), "method", method)
			res, err = nil, fmt.Errorf("panic: %v (stack in %s)", r, p.logPath)
		}
	}()
	res, err = h.call(ctx, &p.dec, params)
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
