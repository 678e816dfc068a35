package host

import (
	"sync"
	"time"

	"github.com/vigorvim/vigor/internal/codec/msgpackrpc"
)

// callBound is how long the answer to a protocol.MethodCall may take
// before the SDK answers "later" instead: while Neovim waits in
// rpcrequest() it runs nothing but this channel's messages, so no timer,
// CTRL-C or other plugin waits longer than this for a request that takes
// long (docs/ARCHITECTURE.md, "Requests").
const callBound = 5 * time.Millisecond

// calls follows Neovim's rpcrequest()s of vigor#request() on the channel
// (protocol.MethodCall) until each has its response. A call is answered
// by its response when its answer is ready within callBound and no
// notification went out since it was read (the notification would run
// after rpcrequest() returns); else the response is the Number 0,
// "later", and the answer follows as the notification FuncReply, as for a
// protocol.MethodRequest.
//
// Neovim keeps its rpcrequest()s on a stack, and closes the channel when
// a response comes that is not for the top one. It pops a call only once
// rpcrequest() returns, after it has read the response, so two responses
// written together could be read while the first one's call is still on
// the stack; and it may start a nested call while the plugin writes a
// response. The runtime avoids both: it opens at most one MethodCall on a
// channel (a vigor#request() made while one is open is a MethodRequest),
// so the stack here holds one call. For a peer that nests them anyway,
// only the top is answered, one response at a time: the answer of a call
// under the top is kept until it is the top, and the call under a call
// just answered gets its response from the timer, callBound later.
//
// Its invariants, under mu (which the session's writer takes first: the
// codec's Append methods, and the timer's writes through WriteRaw, run
// under it):
//   - stack holds the calls read and not yet given their response, in the
//     order they were read, its top last.
//   - A response is written for the top only, and once written the call
//     leaves the stack.
//   - timer is armed while the stack is not empty: for the top's due, or
//     callBound after the last response when one was just written.
type calls struct {
	mu    sync.Mutex
	stack []call
	notes uint64 // the notifications written
	w     RawWriter
	timer *time.Timer
	bound time.Duration
}

// call is one entry of calls.stack.
type call struct {
	token, id int64 // vigor#request()'s token, Neovim's request id
	notes     uint64
	due       time.Time // callBound after it was read
	turn      time.Time // callBound after the response of the call above it
	// answer, once set, is the call's response (and the FuncReply that
	// follows a "later"), written when the call is the top.
	answer []byte
}

// attach gives c the session that the timer writes to.
func (c *calls) attach(w RawWriter) {
	c.mu.Lock()
	c.w = w
	c.mu.Unlock()
}

// read records the call read as request id with token.
func (c *calls) read(token, id int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	due := time.Now().Add(c.bound)
	c.stack = append(c.stack, call{token: token, id: id, notes: c.notes, due: due})
	if c.w == nil {
		return // not attached: no session writes for the timer
	}
	if c.timer == nil {
		c.timer = time.AfterFunc(c.bound, c.expire)
	} else {
		c.timer.Reset(c.bound)
	}
}

// noted counts a notification written.
func (c *calls) noted() {
	c.mu.Lock()
	c.notes++
	c.mu.Unlock()
}

// answer appends the answer to the call token, if it is on the stack,
// with appendAnswer, which appends its response: the reply v, or "later"
// and the FuncReply with v when later is true. found is false when token
// is not on the stack (a MethodRequest, or a call whose "later" is
// written): the answer is then a FuncReply, for the caller to append.
func (c *calls) answer(b []byte, token int64, appendAnswer func(b []byte, id int64, later bool) ([]byte, error)) (out []byte, found bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	i := len(c.stack) - 1
	for i >= 0 && c.stack[i].token != token {
		i--
	}
	if i < 0 {
		// A FuncReply does not count as a notification: whenever Neovim
		// runs it, it only keeps the answer for its wait.
		return b, false
	}
	e := &c.stack[i]
	later := e.notes != c.notes
	if i < len(c.stack)-1 {
		// Under the top: keep the answer for when it is the top.
		e.answer = appendOr(nil, e.id, later, appendAnswer)
		return b, true
	}
	b = appendOr(b, e.id, later, appendAnswer)
	c.pop()
	return b, true
}

// appendOr appends the answer, or "later" when it cannot be written, so
// that Neovim's rpcrequest() returns whatever happens (the runtime then
// waits for the answer as for any that is late, and can be interrupted).
// The error is dropped: with it the session would drop the write, and
// the answer is lost either way (a Fallible answer has a fallback).
func appendOr(b []byte, id int64, later bool, appendAnswer func(b []byte, id int64, later bool) ([]byte, error)) []byte {
	start := len(b)
	out, err := appendAnswer(b, id, later)
	if err != nil {
		return appendLater(out[:start], id)
	}
	return out
}

// pop takes the top off the stack, after its response. The timer then
// gives the next call, if any, its turn no sooner than callBound later
// (flush).
func (c *calls) pop() {
	c.stack[len(c.stack)-1] = call{}
	c.stack = c.stack[:len(c.stack)-1]
	if c.timer == nil {
		return
	}
	if len(c.stack) == 0 {
		c.timer.Stop()
		return
	}
	c.stack[len(c.stack)-1].turn = time.Now().Add(c.bound)
	c.timer.Reset(c.bound)
}

// flush appends the response of the top, if it has its turn and has one
// (its answer is kept, or it is due), and arms the timer for when it
// will.
func (c *calls) flush(b []byte, now time.Time) []byte {
	if len(c.stack) == 0 {
		return b
	}
	e := &c.stack[len(c.stack)-1]
	at := e.due
	if e.turn.After(at) {
		at = e.turn
	}
	switch {
	case now.Before(at):
		if c.timer != nil {
			c.timer.Reset(at.Sub(now))
		}
		return b
	case e.answer != nil:
		b = append(b, e.answer...)
	default:
		b = appendLater(b, e.id)
	}
	c.pop()
	return b
}

// expire runs on the timer's goroutine: it writes the responses that are
// due (flush).
func (c *calls) expire() {
	c.mu.Lock()
	w := c.w
	c.mu.Unlock()
	if w == nil || w.Err() != nil {
		return
	}
	_ = w.WriteRaw(func(b []byte) []byte {
		c.mu.Lock()
		defer c.mu.Unlock()
		return c.flush(b, time.Now())
	})
}

// appendLater appends the response "later" to Neovim's request id: the
// Number 0, where an answer is a List.
func appendLater(b []byte, id int64) []byte {
	b = msgpackrpc.AppendArrayLen(b, 4)
	b = msgpackrpc.AppendInt(b, 1)
	b = msgpackrpc.AppendInt(b, id)
	b = append(b, nilByte)
	return msgpackrpc.AppendInt(b, 0)
}

// nilByte is msgpack's nil.
const nilByte = 0xc0
