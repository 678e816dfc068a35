// Command vigor-benchmark measures how fast a Vigor plugin reaches the
// editor, as denops-benchmark does for denops: `call` is count sequential
// calls of a do-nothing editor function with a string of size characters,
// `batch` is one batch of count such calls, `parallel` (which
// denops-benchmark lacks) the same count calls made by benchstat.Workers
// goroutines at once, each making its share in turn, so that calls of
// different goroutines may be in flight together on the channel; each is
// repeated n times.
//
// Run it with :VigorBenchmark (add <vigor>/benchmark to 'runtimepath'), or
// headless with `vigor-bench` (cmd/vigor-bench).
package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/vigorvim/vigor"
	"github.com/vigorvim/vigor/internal/benchstat"
)

// Options are the benchmark's settings (g:vigor_benchmark_*).
type Options struct {
	Size     int  `json:"size"`
	Count    int  `json:"count"`
	N        int  `json:"n"`
	Progress bool `json:"progress"` // draw a progress bar in the buffer
}

const discard = "vigor_benchmark#discard"

func main() {
	vigor.Main(func(ctx context.Context, p *vigor.Plugin) error {
		p.Handle("run", func(ctx context.Context, o Options) error {
			res, err := run(ctx, p, o)
			if err != nil {
				p.Errorf(ctx, "benchmark failed: %v", err)
				_, _ = p.Call(ctx, "vigor_benchmark#done", map[string]any{"error": err.Error()})
				return err
			}
			_, err = p.Call(ctx, "vigor_benchmark#done", res)
			return err
		})
		return nil
	})
}

func run(ctx context.Context, p *vigor.Plugin, o Options) (map[string]any, error) {
	if o.Size < 0 || o.Count <= 0 || o.N <= 0 {
		return nil, fmt.Errorf("size, count and n must be positive (got %d, %d, %d)", o.Size, o.Count, o.N)
	}
	width, err := vigor.CallAs[int](ctx, p, "winwidth", 0)
	if err != nil {
		return nil, err
	}
	width = min(80, width) / 2
	// The payload is made an any once, as the limit clients make their request
	// once: a string becomes an any through an allocation, which every
	// call would otherwise make.
	var data any = strings.Repeat(".", o.Size)
	// One call first, so that loading the autoload file is not measured.
	if _, err := p.Call(ctx, discard, data); err != nil {
		return nil, err
	}

	call, err := bench(ctx, p, o, "vigor.Plugin.Call()", width, func() error {
		for i := 0; i < o.Count; i++ {
			if _, err := p.Call(ctx, discard, data); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	batch, err := bench(ctx, p, o, "vigor.Plugin.Batch()", width, func() error {
		return p.Batch(ctx, func(b *vigor.Batch) error {
			for i := 0; i < o.Count; i++ {
				if err := b.CallInto(ctx, nil, discard, data); err != nil {
					return err
				}
			}
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	parallel, err := bench(ctx, p, o, fmt.Sprintf("vigor.Plugin.Call() from %d goroutines", benchstat.Workers), width, func() error {
		return callParallel(ctx, p, o.Count, data)
	})
	if err != nil {
		return nil, err
	}
	callRes := benchstat.NewResult(o.Size, o.Count, call)
	batchRes := benchstat.NewResult(o.Size, o.Count, batch)
	parRes := benchstat.NewResult(o.Size, o.Count, parallel)
	lines := benchstat.Info(o.Size, o.Count, o.N)
	lines = append(lines, callRes.Lines("vigor call()")...)
	lines = append(lines, batchRes.Lines("vigor batch()")...)
	lines = append(lines, parRes.Lines(fmt.Sprintf("vigor parallel() (%d goroutines)", benchstat.Workers))...)
	lines = append(lines, fmt.Sprintf("parallel/call: %.2f, parallel/batch: %.2f (ops/ms)",
		ratio(parRes.Opms, callRes.Opms), ratio(parRes.Opms, batchRes.Opms)))
	if err := show(ctx, p, lines); err != nil {
		return nil, err
	}
	return map[string]any{"call": callRes, "batch": batchRes, "parallel": parRes, "lines": lines}, nil
}

// callParallel makes count calls from benchstat.Workers goroutines at once, the
// i-th making calls i, i+benchstat.Workers, ... one after the other, and returns
// when all have returned, with their errors joined. The goroutines are its
// own: it waits for each.
func callParallel(ctx context.Context, p *vigor.Plugin, count int, data any) error {
	var wg sync.WaitGroup
	errs := make([]error, benchstat.Workers)
	for w := range min(benchstat.Workers, count) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < count; i += benchstat.Workers {
				if _, err := p.Call(ctx, discard, data); err != nil {
					errs[w] = err
					return
				}
			}
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

// bench runs f n times and returns each run's time in ms. Between runs
// (outside the timing) it draws the progress bar. First come
// benchstat.WarmUp untimed runs, as in the limit clients.
func bench(ctx context.Context, p *vigor.Plugin, o Options, title string, width int, f func() error) ([]float64, error) {
	for range benchstat.WarmUp {
		if err := f(); err != nil {
			return nil, err
		}
	}
	samples := make([]float64, 0, o.N)
	for i := 0; i < o.N; i++ {
		start := time.Now()
		if err := f(); err != nil {
			return nil, err
		}
		samples = append(samples, float64(time.Since(start).Nanoseconds())/1e6)
		if err := ctx.Err(); err != nil {
			return nil, context.Cause(ctx)
		}
		if o.Progress {
			line := fmt.Sprintf("Benchmarking '%s' ...", title)
			if err := show(ctx, p, []string{line, progressBar(i+1, o.N, width)}); err != nil {
				return nil, err
			}
		}
	}
	return samples, nil
}

// show puts lines in the buffer and redraws, in one round trip.
func show(ctx context.Context, p *vigor.Plugin, lines []string) error {
	return p.Batch(ctx, func(b *vigor.Batch) error {
		if err := b.CallInto(ctx, nil, "setline", 1, lines); err != nil {
			return err
		}
		return b.CallInto(ctx, nil, "vigor_benchmark#redraw")
	})
}

func progressBar(i, n, width int) string {
	done := i * width / n
	return fmt.Sprintf("[%s%s] %3d%%", strings.Repeat("=", done), strings.Repeat(" ", width-done), i*100/n)
}
