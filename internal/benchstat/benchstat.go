// Package benchstat computes and prints benchmark statistics the way
// denops-benchmark does, so that Vigor's figures compare with denops's:
// per iteration times in ms, and ops/ms and chars/ms as the mean ± stderr
// of their per-iteration values. Unlike denops-benchmark (which sorts the
// numbers as strings), the median is the numeric one.
package benchstat

import (
	"fmt"
	"math"
	"slices"
)

// WarmUp is how many untimed runs of each workload come before the timed
// ones, on both sides of a comparison (the vigor-benchmark plugin and the
// limit clients): they warm up caches, buffers and the Go runtime.
const WarmUp = 3

// Workers is how many goroutines the parallel workload makes its calls
// from, each making its share in turn (the vigor-benchmark plugin).
const Workers = 8

// Stats summarises samples.
type Stats struct {
	Sum    float64 `json:"sum"`
	Mean   float64 `json:"mean"`
	Median float64 `json:"median"`
	Stddev float64 `json:"stddev"` // population standard deviation, as denops-benchmark
	Stderr float64 `json:"stderr"` // Stddev / sqrt(n)
}

// Calc returns the statistics of xs (which it does not modify).
func Calc(xs []float64) Stats {
	n := len(xs)
	if n == 0 {
		return Stats{}
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	var st Stats
	for _, x := range s {
		st.Sum += x
	}
	st.Mean = st.Sum / float64(n)
	if n%2 == 1 {
		st.Median = s[n/2]
	} else {
		st.Median = (s[n/2-1] + s[n/2]) / 2
	}
	var sq float64
	for _, x := range s {
		sq += (x - st.Mean) * (x - st.Mean)
	}
	st.Stddev = math.Sqrt(sq / float64(n))
	st.Stderr = st.Stddev / math.Sqrt(float64(n))
	return st
}

// Result is one workload: count operations per iteration, n iterations,
// with payloads of size characters.
type Result struct {
	Size    int       `json:"size"`
	Count   int       `json:"count"`
	N       int       `json:"n"`
	Samples []float64 `json:"samples_ms"` // the iterations' times
	Time    Stats     `json:"time_ms"`
	Opms    float64   `json:"opms"`        // mean of count/ms
	OpmsErr float64   `json:"opms_stderr"` // its stderr
	Cpms    float64   `json:"cpms"`        // mean of size*count/ms
	CpmsErr float64   `json:"cpms_stderr"`
}

// NewResult computes a Result from per-iteration times in ms.
func NewResult(size, count int, samples []float64) Result {
	ops := make([]float64, len(samples))
	chars := make([]float64, len(samples))
	for i, ms := range samples {
		ops[i] = float64(count) / ms
		chars[i] = float64(size*count) / ms
	}
	o, c := Calc(ops), Calc(chars)
	return Result{Size: size, Count: count, N: len(samples), Samples: samples, Time: Calc(samples),
		Opms: o.Mean, OpmsErr: o.Stderr, Cpms: c.Mean, CpmsErr: c.Stderr}
}

// Lines prints r as denops-benchmark does, under the heading title (such
// as "vigor call()").
func (r Result) Lines(title string) []string {
	return []string{
		title,
		fmt.Sprintf("  sum:     %.0f ms", r.Time.Sum),
		fmt.Sprintf("  mean:    %.1f ms", r.Time.Mean),
		fmt.Sprintf("  median:  %.1f ms", r.Time.Median),
		fmt.Sprintf("  stddev:  %.1f", r.Time.Stddev),
		fmt.Sprintf("  stderr:  %.1f ms", r.Time.Stderr),
		fmt.Sprintf("  opms:    %.1f±%.1f ops/ms", r.Opms, r.OpmsErr),
		fmt.Sprintf("  cpms:    %.1f±%.1f chars/ms", r.Cpms, r.CpmsErr),
	}
}

// Info prints the settings block.
func Info(size, count, n int) []string {
	return []string{
		"info",
		fmt.Sprintf("  size:   %d bytes", size),
		fmt.Sprintf("  count:  %d", count),
		fmt.Sprintf("  n:      %d", n),
	}
}
