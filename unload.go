package vigor

import (
	"context"
	"fmt"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/vigorvim/vigor/internal/host"
	"github.com/vigorvim/vigor/internal/protocol"
)

// unloadPlan divides an unload's budget (protocol.UnloadBudget, or what
// the runtime sent with $unload) between its steps: the running
// request_async handlers answer (within a tenth of the budget, after
// which they are waited for again behind the hooks), the hooks run until
// their ctx ends, a short while is left for hooks that return when it
// ends, and the report to the editor closes the budget. The report keeps a
// fifth of the budget, at most unloadReportTime.
type unloadPlan struct {
	asyncFirst time.Time // the first wait for the request_async handlers ends
	hooksCtx   time.Time // the hooks' ctx ends
	hooksEnd   time.Time // the wait for the hooks (and the handlers) ends
	deadline   time.Time // the report is made, or given up: the budget ends
}

// unloadReportTime caps the part of the budget kept for the report.
const unloadReportTime = 500 * time.Millisecond

func newUnloadPlan(start time.Time, budget time.Duration) unloadPlan {
	report := min(budget/5, unloadReportTime)
	return unloadPlan{
		asyncFirst: start.Add(budget / 10),
		hooksCtx:   start.Add(budget - report),
		hooksEnd:   start.Add(budget - report/2),
		deadline:   start.Add(budget),
	}
}

// unloadBudget reads the budget that the runtime sends with $unload.
func (p *Plugin) unloadBudget(params host.Values) time.Duration {
	if params.Len() > 0 {
		var ms float64
		if err := params.At(0).Decode(&ms); err == nil && ms >= 0 {
			return time.Duration(ms * float64(time.Millisecond))
		}
	}
	return protocol.UnloadBudget * time.Millisecond
}

// unload runs the unload once, within budget: it cancels the plugin's
// contexts, waits for the running request_async handlers to answer, runs
// the unload hooks and, if report is set, tells the editor how they went.
// What has not returned when its part of the budget ends is left behind:
// the process exits next, and at the budget's end in any case (awaitEnd).
func (p *Plugin) unload(ctx context.Context, report bool, budget time.Duration) {
	plan := newUnloadPlan(time.Now(), budget)
	// The process exits at the budget's end whatever this unload is doing
	// then (awaitEnd); an unload already under way keeps its own plan.
	p.exitBy(plan.deadline)
	p.mu.Lock()
	if p.unloaded {
		p.mu.Unlock()
		return
	}
	p.unloaded, p.ending = true, true
	p.stopStuck()
	if p.asyncRunning == 0 {
		close(p.asyncIdle)
	}
	hooks := p.onUnload
	p.mu.Unlock()
	p.cancel(ErrUnloaded)
	// request_async calls that were running answer now (their ctx ended):
	// let their answers go out before the unload report, so that the
	// editor handles them before it sees the process exit.
	p.waitAsync(plan.asyncFirst)
	errs := p.runHooks(ctx, hooks, plan, budget)
	if !p.waitAsync(plan.hooksEnd) {
		p.log.Error("request_async handlers did not return within the unload budget; the editor fails their calls when the process exits",
			"budget", budget)
	}
	p.waitLate(plan.deadline)
	if report {
		var msg any
		if len(errs) > 0 {
			msg = strings.Join(errs, "; ")
			p.log.Error("unload failed", "err", msg)
		}
		rctx, rcancel := context.WithDeadline(context.WithoutCancel(ctx), plan.deadline)
		_, _ = p.ed.Call(rctx, protocol.FuncUnloaded, []any{p.name, p.instance, msg})
		rcancel()
		// The calls read before the report's answer have been taken
		// (asyncEnding); their answers go before the plugin quits.
		p.waitLate(plan.deadline)
	}
	p.qmu.Do(func() { close(p.quit) })
}

// waitLate waits until the answers of the request_async calls read while
// the plugin was ending have been written (asyncEnding), or until the
// time until; what is not written by then is dropped with a log line, as
// serve stops the writes when it returns.
func (p *Plugin) waitLate(until time.Time) {
	t := time.NewTimer(time.Until(until))
	defer t.Stop()
	for {
		p.mu.Lock()
		n := p.lateAnswers
		p.mu.Unlock()
		if n == 0 {
			return
		}
		select {
		case <-p.lateIdle:
		case <-t.C:
			p.log.Error("answers to request_async calls made during the unload were not written within its budget; dropped", "calls", n)
			return
		}
	}
}

// waitAsync waits until the request_async handlers have answered, or until
// the time until. It reports whether they have.
func (p *Plugin) waitAsync(until time.Time) bool {
	t := time.NewTimer(time.Until(until))
	defer t.Stop()
	select {
	case <-p.asyncIdle:
		return true
	case <-t.C:
		return false
	}
}

// runHooks runs the unload hooks, last registered first, on a goroutine of
// its own with a ctx that ends at plan.hooksCtx, and returns their errors.
// It waits for them until plan.hooksEnd; a hook that is still running then
// is left behind (the process exits under it), and that is an error too.
func (p *Plugin) runHooks(ctx context.Context, hooks []func(context.Context) error, plan unloadPlan, budget time.Duration) []string {
	if len(hooks) == 0 {
		return nil
	}
	hctx, cancel := context.WithDeadline(context.WithoutCancel(ctx), plan.hooksCtx)
	defer cancel()
	// The hooks' goroutine owns errs until it closes done; after that,
	// or once the wait has given up, errs is read under mu.
	var mu sync.Mutex
	var errs []string
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := len(hooks) - 1; i >= 0; i-- {
			if err := p.runHook(hctx, hooks[i]); err != nil {
				mu.Lock()
				errs = append(errs, err.Error())
				mu.Unlock()
			}
		}
	}()
	t := time.NewTimer(time.Until(plan.hooksEnd))
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
		mu.Lock()
		errs = append(errs, fmt.Sprintf("an unload hook did not return within the unload budget (%d ms, g:vigor#unload_timeout), so the plugin exited without it",
			budget.Milliseconds()))
		mu.Unlock()
		p.log.Error("an unload hook did not return in time; exiting without it", "budget", budget)
	}
	mu.Lock()
	defer mu.Unlock()
	return append([]string(nil), errs...)
}

func (p *Plugin) runHook(ctx context.Context, fn func(context.Context) error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			p.logPanic("panic in unload hook", r, debug.Stack())
			err = fmt.Errorf("panic: %v (stack in %s)", r, p.logPath)
		}
	}()
	return fn(ctx)
}
