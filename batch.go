package vigor

import (
	"context"
	"errors"
	"fmt"
	"reflect"

	"github.com/vigorvim/vigor/internal/host"
	"github.com/vigorvim/vigor/internal/protocol"
)

// Batch records calls to the editor and sends them in one round trip. Get
// one from Plugin.Batch or RunBatch, which pass it to a record func: the
// calls made through the Batch (it is a Caller) are recorded, in order,
// and sent when record returns. Through a Batch, CallInto, EvalInto and
// Cmd return nil (or an error in their arguments, as Plugin.Cmd checks
// them), and functions that return a value, such as CallAs and the std
// wrappers, return the zero value: to receive a result, pass b.Into(&v)
// as the Caller, and v is filled in once the batch has run.
//
// Results of different types need no helper of their own: each b.Into
// takes a pointer of any type, so one batch collects an int, a string
// and a []string (or any 2 to 8 values, or more) in one round trip, each
// decoded into its own type and checked as CallAs checks it (see the
// example).
//
// A Batch belongs to the goroutine that runs its record func: it is not
// safe for concurrent use, and it cannot be used once record has
// returned (a call then fails with an error that says so).
type Batch struct {
	p *Plugin
	// Only the goroutine that runs record uses a Batch, so its fields have
	// no lock. state is batchOpen between calls, batchBusy while one is
	// being recorded, and batchDone once record has returned. A call from
	// another goroutine is a data race, which the race detector reports;
	// when it overlaps a call being recorded, it also finds batchBusy and
	// sets clash, and the batch fails. Atomic checks would cost every
	// recorded call (BENCHMARKS.md) for a bug that the race detector finds
	// anyway.
	state uint8
	clash bool
	batchBufs
	err error // the first call that could not be recorded
	// into is the pointer given to the latest Into, pending while
	// intoSet: the next call recorded through Into's Caller takes it.
	into    any
	intoSet bool
}

// batchBufs are the lists of a Batch, which a finished batch gives,
// emptied, to the next (see Plugin.batchBufs).
type batchBufs struct {
	// calls holds the calls, encoded as they are recorded (it keeps no
	// reference to their arguments).
	calls *host.Batch
	outs  []batchOut
}

// batchOut is a call whose result goes to a pointer.
type batchOut struct {
	index  int
	result any // a non-nil pointer
}

const (
	batchOpen uint8 = iota
	batchBusy
	batchDone
)

var _ Caller = (*Batch)(nil)

// Batch runs record with a new Batch, then sends the calls that record
// made through it in one round trip, in order, and fills in the result
// pointers of those calls (see Into). record returning an error sends
// nothing and returns that error; a batch with no calls sends nothing.
//
// If a call fails, the calls after it do not run: the error is a
// *BatchError with the failed call's index, counting from 0, and the
// results of the calls before it, whose pointers are filled in too. A
// result that does not fit its pointer is an error that names the call
// (`batch call 2, line(): the result: ...`); the other pointers are still
// filled in. Both editors behave the same.
//
// ctx is as for Call: if it ends once the batch is sent, Batch returns
// context.Cause(ctx) at once, and no pointer is filled in; the editor
// still runs the calls.
func (p *Plugin) Batch(ctx context.Context, record func(b *Batch) error) error {
	bufs, _ := p.batchBufs.Get().(*batchBufs)
	if bufs == nil {
		bufs = &batchBufs{calls: p.ed.NewBatch()}
	}
	b := &Batch{p: p, batchBufs: *bufs}
	if b.run(record) {
		// Another goroutine may still hold the lists: they are not reused.
		return errBatchShared
	}
	defer b.recycle(bufs)
	if b.err != nil {
		return b.err
	}
	return b.send(ctx)
}

// run runs record with b and ends b, even if record panics; b.err is
// record's error if it returns one, and shared reports that another
// goroutine used b (see Batch.state).
func (b *Batch) run(record func(b *Batch) error) (shared bool) {
	defer func() {
		shared = b.state == batchBusy || b.clash
		b.state = batchDone
	}()
	if err := record(b); err != nil {
		b.err = err
	}
	return false
}

// maxReusedOuts is the longest result list that a Batch keeps for the
// next.
const maxReusedOuts = 1 << 16

// recycle empties b's lists and puts them in bufs, for the next batch.
func (b *Batch) recycle(bufs *batchBufs) {
	b.calls.Reset()
	clear(b.outs) // the pointers are the caller's, not to be kept
	if cap(b.outs) > maxReusedOuts {
		b.outs = nil
	}
	*bufs, b.batchBufs = batchBufs{b.calls, b.outs[:0]}, batchBufs{}
	b.p.batchBufs.Put(bufs)
}

// RunBatch runs record with the batch of c's calls (see Caller.Batching):
// if c sends each call at once, a new batch of its plugin that is sent when
// record returns, as Plugin.Batch does; if c records them, that batch
// itself, so that the calls record makes join it (nested batches flatten)
// and are sent with it, and a pointer given to Into that no call has taken
// receives nothing. It lets a helper that takes a Caller group its calls,
// whether or not it runs in a batch. The calls record makes through b go
// to the batch, not through c: a wrapping Caller that is to see them
// wraps b.
func RunBatch(ctx context.Context, c Caller, record func(b *Batch) error) error {
	p, b := c.Batching()
	switch {
	case b != nil:
		if err := b.enter(); err != nil {
			return err
		}
		b.into, b.intoSet = nil, false
		b.leave()
		return record(b)
	case p != nil:
		return p.Batch(ctx, record)
	}
	return fmt.Errorf("RunBatch: a batch needs a *vigor.Plugin or a *vigor.Batch, not a %T", c)
}

// Into returns a Caller whose next CallInto or EvalInto is recorded into
// b with its result decoded into result, a non-nil pointer, once the
// batch has run (by the rules of CallAs); the result argument of that
// call is not used. Pass it to the call it is for, right away:
//
//	var n int
//	_, err := vigor.CallAs[int](ctx, b.Into(&n), "line", "$")
//
// Every Caller that Into returns is the same one, b's result view: the
// pointer of the latest Into goes to the first call made through it
// after that Into; its other calls, and its Cmd, go to b as they are.
// An Into before the call that takes the pointer of the one before is
// an error, and the batch fails.
func (b *Batch) Into(result any) Caller {
	b.setInto(result)
	// Small enough to be inlined, so that a call made right away on the
	// Caller is a call of the concrete type, whose args need not escape.
	return (*batchInto)(b)
}

// setInto makes result the pending pointer of Into.
func (b *Batch) setInto(result any) {
	if err := b.enter(); err != nil {
		return // the Caller's calls fail alike
	}
	defer b.leave()
	if result == nil {
		_ = b.fail(fmt.Errorf("batch call %d, Into: the result must go to a non-nil pointer, not nil", b.calls.Len()))
	}
	if b.intoSet {
		_ = b.fail(fmt.Errorf("batch call %d: Into was called again before a call took the pointer of the Into before: pass b.Into(&v) to the call it is for, right away", b.calls.Len()))
	}
	b.into, b.intoSet = result, true
}

// batchInto is the Caller that Into returns: its batch, whose calls take
// the pending pointer of Into. The view costs no allocation, which a
// Caller of its own for each Into would (a batch of typed calls makes
// one each).
type batchInto Batch

func (c *batchInto) CallInto(ctx context.Context, result any, fn string, args ...any) error {
	return (*Batch)(c).add(true, result, fn, args)
}

func (c *batchInto) EvalInto(ctx context.Context, result any, expr string, vars map[string]any) error {
	return (*Batch)(c).add(true, result, protocol.FuncEval, []any{expr, orEmpty(vars)})
}

func (c *batchInto) Cmd(ctx context.Context, cmd string, vars map[string]any) error {
	return (*Batch)(c).Cmd(ctx, cmd, vars)
}

func (c *batchInto) Meta() Meta { return c.p.meta }

func (c *batchInto) Batching() (*Plugin, *Batch) { return c.p, (*Batch)(c) }

// CallInto implements Caller: it records the call of fn with args, whose
// result goes to result (a non-nil pointer, or nil to drop it) once the
// batch has run. args are encoded now, so b keeps no reference to them;
// one that cannot be sent is an error, and the batch then fails. ctx is
// not used: the batch is sent with the ctx of Plugin.Batch.
func (b *Batch) CallInto(ctx context.Context, result any, fn string, args ...any) error {
	return b.add(false, result, fn, args)
}

// EvalInto implements Caller: it records the evaluation of expr, as
// Plugin.EvalInto makes it, whose value goes to result once the batch has
// run.
func (b *Batch) EvalInto(ctx context.Context, result any, expr string, vars map[string]any) error {
	return b.add(false, result, protocol.FuncEval, []any{expr, orEmpty(vars)})
}

// Cmd implements Caller: it records cmd, one Ex command, as Plugin.Cmd
// runs it (a cmd of several lines is an error, and is not recorded).
func (b *Batch) Cmd(ctx context.Context, cmd string, vars map[string]any) error {
	return b.add(false, nil, protocol.FuncCmd, []any{cmd, orEmpty(vars)})
}

// Meta implements Caller.
func (b *Batch) Meta() Meta { return b.p.meta }

// Batching implements Caller: b records the calls of its plugin.
func (b *Batch) Batching() (*Plugin, *Batch) { return b.p, b }

// enter starts recording a call (see Batch.state).
func (b *Batch) enter() error {
	switch b.state {
	case batchOpen:
		b.state = batchBusy
		return nil
	case batchDone:
		return errors.New("Batch: used after its record func returned: make the calls inside record, or start another batch")
	}
	b.clash = true
	return errBatchShared
}

var errBatchShared = errors.New("Batch: two goroutines recorded calls at once: a Batch is for the goroutine that runs its record func only")

func (b *Batch) leave() {
	if b.state == batchBusy {
		b.state = batchOpen
	}
}

// fail returns err, and keeps it as the batch's error if it is the first:
// a batch with a call that could not be recorded is not sent, even if
// record returns nil. Only the call that holds batchBusy calls it.
// Fail makes the batch fail with err, unless it has failed already:
// nothing is sent, and the batch returns that error even if record
// returns nil. It is for a helper that finds, while a batch records, that
// a call cannot be made: the std wrappers of a function that the editor
// does not have call it, so that a record func that ignores their errors
// does not send the other calls as if nothing were missing. A nil err,
// or a batch whose record func has returned, is left as it is.
func (b *Batch) Fail(err error) {
	if err != nil && b.state != batchDone {
		b.fail(err)
	}
}

func (b *Batch) fail(err error) error {
	if b.err == nil {
		b.err = err
	}
	return err
}

// orEmpty is vars, or an empty map for nil: the editor's side of Eval and
// Cmd takes a Dictionary.
func orEmpty(vars map[string]any) map[string]any {
	if vars == nil {
		return map[string]any{}
	}
	return vars
}

// add records a call of fn whose result goes to result, or, if view
// (a call through Into's Caller) and Into's pointer is pending, to that
// pointer, which it takes. A Cmd's args are its command and vars.
func (b *Batch) add(view bool, result any, fn string, args []any) error {
	if err := b.enter(); err != nil {
		return err
	}
	defer b.leave()
	if view && b.intoSet {
		result, b.into, b.intoSet = b.into, nil, false
	}
	if result != nil && !validResult(result) {
		return b.fail(fmt.Errorf("batch call %d, %s: the result must go to a non-nil pointer, not %T", b.calls.Len(), callName(fn), result))
	}
	if fn == protocol.FuncCmd {
		if err := cmdLines(args[0].(string)); err != nil {
			return b.fail(err)
		}
	}
	if err := b.calls.Add(fn, args); err != nil {
		var ae *host.ArgError
		if errors.As(err, &ae) {
			b.p.logArgError(ae)
			return b.fail(fmt.Errorf("batch call %d, %s", ae.Call, argMsg(ae)))
		}
		return b.fail(err)
	}
	if result != nil {
		b.outs = append(b.outs, batchOut{index: b.calls.Len() - 1, result: result})
	}
	return nil
}

// validResult reports whether result is a non-nil pointer, without
// reflection for the commonest.
func validResult(result any) bool {
	switch p := result.(type) {
	case *any:
		return p != nil
	case *int:
		return p != nil
	case *string:
		return p != nil
	}
	v := reflect.ValueOf(result)
	return v.Kind() == reflect.Pointer && !v.IsNil()
}

// callName is what errors call a call of fn.
func callName(fn string) string {
	switch fn {
	case protocol.FuncCmd:
		return "the command"
	case protocol.FuncEval:
		return "the expression"
	}
	return fn + "()"
}

// userFn is fn as users know it: the editor function they called, or
// empty for Cmd and Eval (as in EditorError).
func userFn(fn string) string {
	if fn == protocol.FuncCmd || fn == protocol.FuncEval {
		return ""
	}
	return fn
}

// send runs the recorded calls and fills in the result pointers.
func (b *Batch) send(ctx context.Context) error {
	if b.calls.Len() == 0 {
		return nil
	}
	p := b.p
	vals, err := p.ed.SendBatch(ctx, b.calls)
	derr := b.fill(vals)
	if err == nil {
		return derr
	}
	var be *host.BatchError
	if errors.As(err, &be) {
		p.logEditorError(be.Fn, be.Msg, be.Full)
		fn := userFn(be.Fn)
		results, rerr := b.results(vals)
		if rerr != nil {
			return rerr
		}
		return &BatchError{Index: be.Index, Fn: fn, Results: results, Err: &EditorError{Fn: fn, Msg: be.Msg}}
	}
	return err
}

// argMsg says which argument of a call cannot be sent, and why.
func argMsg(ae *host.ArgError) string {
	switch ae.Fn {
	case protocol.FuncCmd, protocol.FuncEval:
		if ae.Arg == 1 {
			return "vars: " + ae.Msg()
		}
		return callName(ae.Fn) + ": " + ae.Msg()
	}
	return fmt.Sprintf("%s(): argument %d: %s", ae.Fn, ae.Arg+1, ae.Msg())
}

// fill decodes the results that have a pointer, of the calls that ran,
// and returns the first that does not fit.
func (b *Batch) fill(vals host.Values) error {
	var first error
	for _, o := range b.outs {
		if o.index >= vals.Len() {
			break
		}
		if err := b.p.dec.decodeTo(vals.At(o.index), o.result); err != nil {
			fn := b.calls.Fn(o.index)
			b.p.log.Warn("a result does not fit", "fn", fn, "batch call", o.index, "err", err, "detail", err.detail)
			if first == nil {
				first = fmt.Errorf("batch call %d, %s: %w", o.index, callName(fn), err.in("the result"))
			}
		}
	}
	return first
}

// results decodes the results of the calls that ran, for a BatchError;
// a Cmd's is nil.
func (b *Batch) results(vals host.Values) ([]any, error) {
	results := make([]any, vals.Len())
	for i := range results {
		if b.calls.Fn(i) == protocol.FuncCmd {
			continue
		}
		if err := vals.At(i).Decode(&results[i]); err != nil {
			fn := b.calls.Fn(i)
			b.p.log.Warn("a result does not decode", "fn", fn, "err", err)
			return results[:i], fmt.Errorf("batch call %d, %w", i, resultErr(userFn(fn), err))
		}
	}
	return results, nil
}
