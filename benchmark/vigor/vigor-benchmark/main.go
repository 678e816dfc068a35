// Command vigor-benchmark measures how fast a Vigor plugin reaches the
// editor, as denops-benchmark does for denops: `call` is count sequential
// calls of a do-nothing editor function with a string of size characters,
// `batch` is one batch of count such calls, each repeated n times.
//
// Run it with :VigorBenchmark (add <vigor>/benchmark to 'runtimepath'), or
// headless with `vigor-bench` (cmd/vigor-bench).
package main

import (
	"context"
	"fmt"
	"strings"
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
	callRes := benchstat.NewResult(o.Size, o.Count, call)
	batchRes := benchstat.NewResult(o.Size, o.Count, batch)
	lines := benchstat.Info(o.Size, o.Count, o.N)
	lines = append(lines, callRes.Lines("vigor call()")...)
	lines = append(lines, batchRes.Lines("vigor batch()")...)
	if err := show(ctx, p, lines); err != nil {
		return nil, err
	}
	return map[string]any{"call": callRes, "batch": batchRes, "lines": lines}, nil
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
