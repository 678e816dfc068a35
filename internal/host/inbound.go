package host

import (
	"context"
	"errors"
	"fmt"

	"github.com/vigorvim/vigor/internal/protocol"
	"github.com/vigorvim/vigor/internal/rpc"
	"github.com/vigorvim/vigor/internal/wire"
)

// Handler is what the SDK serves the editor with: what the editor sends
// comes as Values. The parts of the editor protocol that are not a
// plugin's (the $pending exchange, the ids of the request_async calls
// being answered, the reading of $async, the editor's own notifications)
// stay in Conn and never reach it.
type Handler interface {
	// Request answers vigor#request() of method, on a goroutine of its
	// own: what it returns is the answer (rpc.Handler.Request).
	Request(ctx context.Context, method string, params Values) any
	// Notification handles vigor#notify() of method, and the runtime's
	// reserved notifications that Conn does not serve, one at a time, in
	// the order they came.
	Notification(ctx context.Context, method string, params Values)
	// Async handles a request_async call in its turn among the
	// notifications; its answer goes with Conn.Resolve, and Conn.Answered
	// follows it.
	Async(ctx context.Context, call Async)
	// Late gets, on the reading goroutine, a request_async call read once
	// Config.Ending reported true: the call does not run, and Late must
	// answer it (Resolve, then Answered) from a goroutine of its own.
	Late(call Async)
}

// Async is a request_async call (protocol.MethodAsync) that the editor
// made: the method and its params, and the callbacks that its answer
// resolves. Err is set when the params are not a List: the call is then
// answered with Err, without running. The zero Async is no call.
type Async struct {
	Method   string
	Params   Values
	Err      error
	ok, fail string
}

// IsZero reports whether a is no call.
func (a Async) IsZero() bool { return a.ok == "" }

// options returns the session's hooks: c serves the editor's protocol and
// hands the rest to cfg's Handler and hooks.
func (c *Conn) options() rpc.Options {
	cfg := &c.cfg
	o := rpc.Options{
		Handler: (*inbound)(c),
		Preempt: c.preempt,
		Large:   cfg.Large,
		Observe: cfg.Observe,
	}
	if cfg.Bind != nil {
		o.Bind = func(*wire.Message) context.Context { return cfg.Bind() }
	}
	if cfg.BadMessage != nil {
		o.BadMessage = func(m *wire.Message, err error) any { return cfg.BadMessage(m.Method, err) }
	}
	if cfg.Trace != nil {
		o.Trace = c.trace
	}
	return o
}

// inbound serves the messages that the session delivers (rpc.Handler).
type inbound Conn

// Request implements rpc.Handler.
func (in *inbound) Request(ctx context.Context, m *wire.Message) any {
	return in.cfg.Handler.Request(ctx, m.Method, Values{raws: m.Params, codec: in.codec})
}

// Notification implements rpc.Handler: a request_async call goes to
// Handler.Async, the editor's own notifications to the log, the others to
// Handler.Notification.
func (in *inbound) Notification(ctx context.Context, m *wire.Message) {
	c := (*Conn)(in)
	if m.Method == protocol.MethodAsync {
		if call, ok := c.readAsync(m); ok {
			c.cfg.Handler.Async(ctx, call)
		}
		return
	}
	if ok, err := c.ad.EditorNotification(m); ok {
		if err != nil {
			c.log.Error("the editor reported an error", "err", err)
		}
		return
	}
	c.cfg.Handler.Notification(ctx, m.Method, Values{raws: m.Params, codec: c.codec})
}

// preempt sees every notification first, on the reading goroutine
// (rpc.Options.Preempt): it answers $pending, notes a request_async call
// that can be answered as being answered (asyncs), and hands the others
// to Config.Preempt.
func (c *Conn) preempt(m *wire.Message) bool {
	switch m.Method {
	case protocol.MethodPending:
		c.pending(m.Params)
		return true
	case protocol.MethodAsync:
		if sid, ok := c.asyncID(m); ok && c.answerable(m) {
			c.mu.Lock()
			c.asyncs[sid] = struct{}{}
			c.mu.Unlock()
		}
		if c.cfg.Ending == nil || !c.cfg.Ending() {
			return false
		}
		if call, ok := c.readAsync(m); ok {
			c.cfg.Handler.Late(call)
		}
		return true
	}
	return c.cfg.Preempt != nil && c.cfg.Preempt(m.Method, Values{raws: m.Params, codec: c.codec})
}

// asyncID is the success id of the $async message m.
func (c *Conn) asyncID(m *wire.Message) (string, bool) {
	var sid string
	if len(m.Params) == 0 || c.codec.Unmarshal(m.Params[0], &sid) != nil || sid == "" {
		return "", false
	}
	return sid, true
}

// answerable reports whether the $async message m names a failure
// callback and a method, by their types alone: one that does not is
// dropped in its turn (readAsync), and never counts as being answered.
func (c *Conn) answerable(m *wire.Message) bool {
	str := func(r wire.Raw) bool { t := c.codec.TypeName(r); return t == "String" || t == "Blob" }
	return len(m.Params) == 4 && str(m.Params[1]) && str(m.Params[2])
}

// readAsync reads the $async message m, [success_id, failure_id, method,
// params]. A message that cannot be answered (its callbacks unreadable)
// is logged and dropped, and no longer counts as being answered.
func (c *Conn) readAsync(m *wire.Message) (Async, bool) {
	var a Async
	err := errors.New("the params are not [success_id, failure_id, method, params]")
	if len(m.Params) == 4 {
		err = errors.Join(c.codec.Unmarshal(m.Params[0], &a.ok), c.codec.Unmarshal(m.Params[1], &a.fail),
			c.codec.Unmarshal(m.Params[2], &a.Method))
	}
	if err == nil && a.ok == "" {
		err = errors.New("the success id is empty")
	}
	if err != nil {
		c.log.Error("bad $async message", "params", len(m.Params), "err", err)
		if sid, ok := c.asyncID(m); ok {
			c.answered(sid)
		}
		return Async{}, false
	}
	raws, err := c.codec.SplitList(m.Params[3])
	if err != nil {
		// The runtime checks this; an answer is still owed, or the
		// callbacks leak.
		c.log.Error("bad $async params", "method", a.Method, "err", err)
		a.Err = fmt.Errorf("its arguments must be a List, not a %s", c.codec.TypeName(m.Params[3]))
		return a, true
	}
	a.Params = Values{raws: raws, codec: c.codec}
	return a, true
}

// Resolve answers the request_async call a: with ok, its success
// callback gets value, else its failure callback gets value (the error
// object). A value that cannot be sent is an *ArgError. The call counts
// as being answered until Answered. The zero Async is an error.
func (c *Conn) Resolve(ctx context.Context, a Async, ok bool, value any) error {
	if a.IsZero() {
		return errors.New("host: Resolve of no request_async call")
	}
	return c.Notify(ctx, protocol.FuncResolve, []any{a.ok, a.fail, ok, value})
}

// Answered notes that the request_async call a has been answered (its
// Resolve written), or will not be: from then on $pending says that it
// does not run.
func (c *Conn) Answered(a Async) {
	if !a.IsZero() {
		c.answered(a.ok)
	}
}

func (c *Conn) answered(sid string) {
	c.mu.Lock()
	delete(c.asyncs, sid)
	c.mu.Unlock()
}

// pending answers the runtime's question whether the request with a
// token (a Number), or the request_async call with a success id (a
// String), is still running (protocol.MethodPending). It looks on the
// reading goroutine, after the request was read: one that is not being
// answered any more has its answer written ahead of this one, so that
// the runtime, which reads both in order, knows an answer it did not get
// was lost. For a request, on Vim, the wake-up of its wait follows, so
// that the wait sees the answer at once (Reminder.Wake). The answer is
// written on a goroutine of its own, as Preempt must not block on a
// write; the goroutine ends with the writes (a session that has ended
// fails them), or is left behind by the plugin's exit.
func (c *Conn) pending(params []wire.Raw) {
	var token int64
	var sid string
	var id any
	var running bool
	switch {
	case len(params) != 1:
	case c.codec.Unmarshal(params[0], &token) == nil:
		id, running = token, c.answering(token)
	case c.codec.Unmarshal(params[0], &sid) == nil:
		c.mu.Lock()
		_, running = c.asyncs[sid]
		c.mu.Unlock()
		id = sid
	}
	if id == nil {
		c.log.Error("bad $pending message", "params", len(params))
		return
	}
	c.log.Debug("the editor asks whether a request runs", "id", id, "running", running)
	go func() {
		// Also while the plugin unloads: the request still waits.
		err := c.Notify(context.Background(), protocol.FuncPending, []any{id, running})
		if err == nil && sid == "" {
			err = c.wake(token)
		}
		if err != nil {
			c.log.Error("cannot tell the editor whether a request runs", "id", id, "err", err)
		}
	}()
}

// trace is the session's Trace hook: a message read goes to Config.Trace
// decoded, with its header only.
func (c *Conn) trace(in bool, m *wire.Message, v any) {
	if !in {
		c.cfg.Trace(false, m, v)
		return
	}
	decode := func(r wire.Raw) any {
		var v any
		if err := c.codec.Unmarshal(r, &v); err != nil {
			return fmt.Sprintf("(undecodable: %v)", err)
		}
		return v
	}
	if m.Kind != wire.Response {
		params := make([]any, len(m.Params))
		for i, r := range m.Params {
			params[i] = decode(r)
		}
		v = params
	} else if m.Error != nil {
		v = []any{decode(m.Result), decode(m.Error)}
	} else {
		v = decode(m.Result)
	}
	c.cfg.Trace(true, &wire.Message{Kind: m.Kind, ID: m.ID, Method: m.Method}, v)
}
