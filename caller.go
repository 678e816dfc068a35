package vigor

import (
	"context"
	"fmt"
	"slices"

	"github.com/vigorvim/vigor/internal/host"
	"github.com/vigorvim/vigor/internal/protocol"
)

// Caller is what code outside this package needs from the editor: calling
// an editor function with its result decoded into a Go value, evaluating
// an expression, running an Ex command, the editor's Meta, and the batch
// that the calls go to. *Plugin implements it, and so does *Batch, which
// records the calls made through it and sends them in one round trip. The
// std packages and an author's own helpers take a Caller, so each of them
// works unchanged in a batch.
//
// The rule for results: CallInto and EvalInto decode the result into
// result, a non-nil pointer (or nil to drop the result), by the rules of a
// handler's parameters (see the package documentation). Through a *Plugin
// the pointer is filled in before the method returns. Through a *Batch the
// call is only recorded and the method returns nil: the pointer is filled
// in when the batch has run, and functions that return a value (CallAs,
// EvalAs and the std wrappers) return the zero value. To receive a result
// from a batch, pass b.Into(&v) as the Caller.
//
// A Caller that wraps another (to log, trace or count the calls) passes
// each of the five methods to the one it wraps, Batching too: CallAs,
// EvalAs and RunBatch ask Batching whether the calls are recorded, and
// make them through the wrapper either way, so that it sees them. A struct
// that embeds the wrapped Caller forwards Batching by itself. A Caller
// with no editor behind it, such as a test double, returns nil, nil.
type Caller interface {
	// CallInto calls the editor function fn with args and decodes its
	// result into result.
	CallInto(ctx context.Context, result any, fn string, args ...any) error
	// EvalInto evaluates the Vim expression expr, with vars visible as l:
	// variables (vars may be nil), and decodes its value into result.
	EvalInto(ctx context.Context, result any, expr string, vars map[string]any) error
	// Cmd runs one Ex command, as Plugin.Cmd does.
	Cmd(ctx context.Context, cmd string, vars map[string]any) error
	// Meta describes the editor.
	Meta() Meta
	// Batching returns the plugin that the calls go to and the batch
	// that records them, or a nil batch if each call is sent at once: a
	// *Plugin returns itself and nil, a *Batch (or a Caller from its
	// Into) its plugin and itself.
	Batching() (*Plugin, *Batch)
}

var _ Caller = (*Plugin)(nil)

// Batching implements Caller: p sends each call at once.
func (p *Plugin) Batching() (*Plugin, *Batch) { return p, nil }

// CallInto implements Caller: it calls fn(args...) and decodes the result
// into result, a non-nil pointer, or nil to drop the result. A result that
// does not fit fails with an error such as
// `toupper(): the result: expected a Number, got a String ("X")`.
func (p *Plugin) CallInto(ctx context.Context, result any, fn string, args ...any) error {
	res, err := p.callEditor(ctx, fn, args)
	if err != nil {
		return p.editorErr(fn, err)
	}
	return p.decodeResult(fn, res, result)
}

// EvalInto implements Caller: it evaluates expr with vars visible as l:
// variables and decodes the value into result, as CallInto does.
func (p *Plugin) EvalInto(ctx context.Context, result any, expr string, vars map[string]any) error {
	res, err := p.eval(ctx, expr, vars)
	if err != nil {
		return err
	}
	return p.decodeResult(protocol.FuncEval, res, result)
}

// eval evaluates expr with vars, for Eval and EvalInto.
func (p *Plugin) eval(ctx context.Context, expr string, vars map[string]any) (host.Value, error) {
	res, err := p.ed.Call(ctx, protocol.FuncEval, []any{expr, orEmpty(vars)})
	if err != nil {
		return host.Value{}, p.runtimeErr(protocol.FuncEval, err, "the expression", "vars")
	}
	return res, nil
}

// decodeResult decodes res, the result of fn, into result (a pointer, or
// nil to drop it). Errors call the call fn() (callName), or "the
// expression" for protocol.FuncEval: the name is made only for an error.
func (p *Plugin) decodeResult(fn string, res host.Value, result any) error {
	if result == nil {
		return nil
	}
	if !validResult(result) {
		return fmt.Errorf("%s: the result must go to a non-nil pointer, not %T", resultName(fn), result)
	}
	if err := p.dec.decodeTo(res, result); err != nil {
		p.log.Warn("a result does not fit", "fn", fn, "err", err, "detail", err.detail)
		return fmt.Errorf("%s: %w", resultName(fn), err.in("the result"))
	}
	return nil
}

// resultName is what the errors of decodeResult call the call of fn.
func resultName(fn string) string {
	if fn == protocol.FuncEval {
		return "the expression"
	}
	return fn + "()"
}

// CallAs calls the editor function fn through c and returns its result
// decoded into a T. In a batch (see Caller.Batching) it records the call
// and returns the zero T; pass b.Into(&v) as c to receive the result in v.
func CallAs[T any](ctx context.Context, c Caller, fn string, args ...any) (T, error) {
	var zero T
	// A batch's own Callers are called on their concrete types: they
	// encode the call at once and keep no reference to args, which then
	// stays where the caller made it (on its stack, for a std wrapper's
	// arguments). Passed as it is through the interface, args would have
	// to be made on the heap for every call, so other Callers get a copy.
	switch b := c.(type) {
	case *batchInto:
		return zero, b.CallInto(ctx, nil, fn, args...)
	case *Batch:
		return zero, b.CallInto(ctx, nil, fn, args...)
	case *Plugin:
		return callPlugin[T](ctx, b, fn, args)
	}
	if _, b := c.Batching(); b != nil {
		// No pointer: it would be filled in after CallAs returned, for
		// nobody.
		return zero, c.CallInto(ctx, nil, fn, slices.Clone(args)...)
	}
	v := new(T)
	err := c.CallInto(ctx, v, fn, slices.Clone(args)...)
	return *v, err
}

// callPlugin is CallAs on a *Plugin. On the concrete type args stays on
// the caller's stack (callEditor copies it), and a result that
// scalarAs takes needs no pointer, which would escape: such a call
// allocates nothing of its own.
func callPlugin[T any](ctx context.Context, p *Plugin, fn string, args []any) (T, error) {
	res, err := p.callEditor(ctx, fn, args)
	if err != nil {
		var zero T
		return zero, p.editorErr(fn, err)
	}
	if v, ok := scalarAs[T](res); ok {
		return v, nil
	}
	v := new(T)
	err = p.decodeResult(fn, res, v)
	return *v, err
}

// scalarAs returns res as a T when decodeTo would give the same without
// an error: T any (the editor-neutral form), or T int or string and res a
// Number that fits or a String. Otherwise it reports false, and the
// result goes through decodeTo (its rules and its errors).
func scalarAs[T any](res host.Value) (T, bool) {
	var zero T
	switch any(zero).(type) {
	case int:
		if x, err := res.Any(); err == nil {
			if n, ok := x.(int64); ok && n == int64(int(n)) {
				return any(int(n)).(T), true
			}
		}
	case string:
		if res.Type() == "String" {
			if x, err := res.Any(); err == nil {
				if s, ok := x.(string); ok {
					return any(s).(T), true
				}
			}
		}
	case nil: // T is an interface type
		if _, ok := any(&zero).(*any); ok {
			if x, err := res.Any(); err == nil {
				return any(x).(T), true
			}
		}
	}
	return zero, false
}

// EvalAs evaluates expr through c, with vars visible as l: variables, and
// returns its value decoded into a T. In a batch it records the
// evaluation and returns the zero T, as CallAs does.
func EvalAs[T any](ctx context.Context, c Caller, expr string, vars map[string]any) (T, error) {
	var zero T
	if _, b := c.Batching(); b != nil {
		return zero, c.EvalInto(ctx, nil, expr, vars)
	}
	v := new(T)
	err := c.EvalInto(ctx, v, expr, vars)
	return *v, err
}
