package vigor

import (
	"context"
	"errors"
	"fmt"
	"reflect"

	"github.com/vigorvim/vigor/internal/host"
	"github.com/vigorvim/vigor/internal/protocol"
	"github.com/vigorvim/vigor/internal/wire"
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
	calls []host.Call
	outs  []batchOut
	intos []batchInto // the Callers that Into returned, in chunks
	err   error       // the first call that could not be recorded
}

// batchBufs are the lists of an emptied Batch, for the next to reuse.
type batchBufs struct {
	calls []host.Call
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
	b := &Batch{p: p}
	bufs, _ := p.batchBufs.Get().(*batchBufs)
	if bufs != nil {
		b.calls, b.outs = bufs.calls, bufs.outs
	}
	shared, err := b.run(record)
	if shared {
		// Another goroutine may still hold the lists: they are not reused.
		return errBatchShared
	}
	defer b.recycle(bufs)
	if err != nil {
		return err
	}
	if b.err != nil {
		return b.err
	}
	return b.send(ctx)
}

// run runs record with b and ends b, even if record panics. shared
// reports that another goroutine used b (see Batch.state).
func (b *Batch) run(record func(b *Batch) error) (shared bool, err error) {
	defer func() {
		shared = b.state == batchBusy || b.clash
		b.state = batchDone
	}()
	return false, record(b)
}

// maxReusedCalls is the longest call list that a Batch keeps for the next.
const maxReusedCalls = 1 << 16

// recycle gives b's lists, emptied, to the next batch, in bufs if they
// came from there.
func (b *Batch) recycle(bufs *batchBufs) {
	calls, outs := b.calls, b.outs
	b.calls, b.outs = nil, nil
	if cap(calls) > maxReusedCalls {
		return
	}
	// The arguments and the pointers are the caller's, not to be kept.
	clear(calls)
	clear(outs)
	if bufs == nil {
		bufs = new(batchBufs)
	}
	bufs.calls, bufs.outs = calls[:0], outs[:0]
	b.p.batchBufs.Put(bufs)
}

// RunBatch runs record with a batch of c: if c is a *Plugin, a new batch
// that is sent when record returns, as Plugin.Batch does; if c is a *Batch,
// or a Caller that Into returned, that batch itself, so that the calls
// record makes join it (nested batches flatten) and are sent with it; the
// pointer given to Into then receives nothing. It lets a helper that takes
// a Caller group its calls, whether or not it runs in a batch.
func RunBatch(ctx context.Context, c Caller, record func(b *Batch) error) error {
	switch c := c.(type) {
	case *Plugin:
		return c.Batch(ctx, record)
	case *Batch:
		return record(c)
	case *batchInto:
		return record(c.b)
	}
	return fmt.Errorf("RunBatch: a batch needs a *vigor.Plugin or a *vigor.Batch, not a %T", c)
}

// Into returns a Caller that records its next CallInto or EvalInto into
// b, with the result decoded into result, a non-nil pointer, once the
// batch has run (by the rules of CallAs); the result argument of that
// call is not used. Its Cmd, and its calls after the first, go to b as
// they are.
//
//	var n int
//	_, err := vigor.CallAs[int](ctx, b.Into(&n), "line", "$")
func (b *Batch) Into(result any) Caller {
	if err := b.enter(); err != nil {
		return &batchInto{b: b, result: result} // its calls fail alike
	}
	defer b.leave()
	// One allocation for many Callers: a batch of typed calls makes one
	// each.
	if len(b.intos) == cap(b.intos) {
		b.intos = make([]batchInto, 0, min(max(2*cap(b.intos), 8), 256))
	}
	b.intos = append(b.intos, batchInto{b: b, result: result})
	return &b.intos[len(b.intos)-1]
}

// batchInto is the Caller that Into returns. used is read and written
// only while its batch is batchBusy (by the goroutine that runs record).
type batchInto struct {
	b      *Batch
	result any
	used   bool
}

func (c *batchInto) take(result any) any {
	if c.used {
		return result
	}
	c.used = true
	return c.result
}

func (c *batchInto) CallInto(ctx context.Context, result any, fn string, args ...any) error {
	if err := c.b.enter(); err != nil {
		return err
	}
	defer c.b.leave()
	return c.b.add(c.take(result), fn, args)
}

func (c *batchInto) EvalInto(ctx context.Context, result any, expr string, vars map[string]any) error {
	if err := c.b.enter(); err != nil {
		return err
	}
	defer c.b.leave()
	return c.b.addEval(c.take(result), expr, vars)
}

func (c *batchInto) Cmd(ctx context.Context, cmd string, vars map[string]any) error {
	return c.b.Cmd(ctx, cmd, vars)
}

func (c *batchInto) Meta() Meta { return c.b.p.meta }

// CallInto implements Caller: it records the call of fn with args, whose
// result goes to result (a non-nil pointer, or nil to drop it) once the
// batch has run. args are read when the batch is sent. ctx is not used:
// the batch is sent with the ctx of Plugin.Batch.
func (b *Batch) CallInto(ctx context.Context, result any, fn string, args ...any) error {
	if err := b.enter(); err != nil {
		return err
	}
	defer b.leave()
	return b.add(result, fn, args)
}

// EvalInto implements Caller: it records the evaluation of expr, as
// Plugin.EvalInto makes it, whose value goes to result once the batch has
// run.
func (b *Batch) EvalInto(ctx context.Context, result any, expr string, vars map[string]any) error {
	if err := b.enter(); err != nil {
		return err
	}
	defer b.leave()
	return b.addEval(result, expr, vars)
}

// Cmd implements Caller: it records cmd, one Ex command, as Plugin.Cmd
// runs it (a cmd of several lines is an error, and is not recorded).
func (b *Batch) Cmd(ctx context.Context, cmd string, vars map[string]any) error {
	if err := b.enter(); err != nil {
		return err
	}
	defer b.leave()
	if err := cmdLines(cmd); err != nil {
		return b.fail(err)
	}
	if vars == nil {
		vars = map[string]any{}
	}
	return b.add(nil, protocol.FuncCmd, []any{cmd, vars})
}

// Meta implements Caller.
func (b *Batch) Meta() Meta { return b.p.meta }

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
func (b *Batch) fail(err error) error {
	if b.err == nil {
		b.err = err
	}
	return err
}

func (b *Batch) addEval(result any, expr string, vars map[string]any) error {
	if vars == nil {
		vars = map[string]any{}
	}
	return b.add(result, protocol.FuncEval, []any{expr, vars})
}

// add records a call of fn whose result goes to result.
func (b *Batch) add(result any, fn string, args []any) error {
	if result != nil {
		if t := reflect.TypeOf(result); t.Kind() != reflect.Pointer || reflect.ValueOf(result).IsNil() {
			return b.fail(fmt.Errorf("batch call %d, %s: the result must go to a non-nil pointer, not %T", len(b.calls), callName(fn), result))
		}
		b.outs = append(b.outs, batchOut{index: len(b.calls), result: result})
	}
	b.calls = append(b.calls, host.Call{Fn: fn, Args: args})
	return nil
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
	if len(b.calls) == 0 {
		return nil
	}
	p := b.p
	raws, err := p.ed.Batch(ctx, b.calls)
	derr := b.fill(raws)
	if err == nil {
		return derr
	}
	var be *host.BatchError
	if errors.As(err, &be) {
		p.logEditorError(be.Fn, be.Msg, be.Full)
		fn := userFn(be.Fn)
		results, rerr := b.results(raws)
		if rerr != nil {
			return rerr
		}
		return &BatchError{Index: be.Index, Fn: fn, Results: results, Err: &EditorError{Fn: fn, Msg: be.Msg}}
	}
	var ae *host.ArgError
	if errors.As(err, &ae) {
		p.logArgError(ae)
		return fmt.Errorf("batch call %d, %s", ae.Call, b.argMsg(ae))
	}
	return err
}

// argMsg says which argument of a call cannot be sent, and why.
func (b *Batch) argMsg(ae *host.ArgError) string {
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
func (b *Batch) fill(raws []wire.Raw) error {
	var first error
	for _, o := range b.outs {
		if o.index >= len(raws) {
			break
		}
		fn := b.calls[o.index].Fn
		if err := b.p.dec.decodeTo(b.p.codec, raws[o.index], o.result); err != nil {
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
func (b *Batch) results(raws []wire.Raw) ([]any, error) {
	results := make([]any, len(raws))
	for i, r := range raws {
		if b.calls[i].Fn == protocol.FuncCmd {
			continue
		}
		if err := b.p.codec.Unmarshal(r, &results[i]); err != nil {
			fn := b.calls[i].Fn
			b.p.log.Warn("a result does not decode", "fn", fn, "err", err)
			return results[:i], fmt.Errorf("batch call %d, %w", i, resultErr(userFn(fn), err))
		}
	}
	return results, nil
}
