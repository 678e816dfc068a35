package bench

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/vigorvim/vigor/internal/benchstat"
)

// The targets: Vigor's figure over the limit of its own protocol, in the
// same run.
const (
	TargetCall  = 0.90
	TargetBatch = 0.90
)

// Ratios returns Vigor/limit ops/ms for call and batch.
func (r EditorReport) Ratios(l LimitResult) (call, batch float64) {
	if l.Call.Opms == 0 || l.Batch.Opms == 0 {
		return 0, 0
	}
	return r.Vigor.Call.Opms / l.Call.Opms, r.Vigor.Batch.Opms / l.Batch.Opms
}

// ParallelRatios returns Vigor's parallel over its own call and batch,
// ops/ms, of the same run.
func (r EditorReport) ParallelRatios() (call, batch float64) {
	if r.Vigor.Call.Opms == 0 || r.Vigor.Batch.Opms == 0 {
		return 0, 0
	}
	return r.Parallel.Opms / r.Vigor.Call.Opms, r.Parallel.Opms / r.Vigor.Batch.Opms
}

// The targets of the parallel workload, to report: over Vigor's own
// sequential call and batch, in the same run.
const (
	TargetParallelCall  = 3.0
	TargetParallelBatch = 0.5
)

// Same returns the limit of Vigor's own protocol, if it ran.
func (r EditorReport) Same() (LimitResult, bool) {
	for _, l := range r.Limits {
		if l.Same {
			return l, true
		}
	}
	return LimitResult{}, false
}

func cpusNote(list string) string {
	if list == "" {
		return "all CPUs"
	}
	return "taskset -c " + list
}

// WriteText prints the reports as denops-benchmark does, one block per
// editor, with the ratios to each limit line.
func WriteText(w io.Writer, reps []EditorReport) {
	for i, r := range reps {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "== %s: %s (%s)\n", r.Editor, r.Version, cpusNote(r.CPUs))
		c := r.Vigor.Call
		lines := benchstat.Info(c.Size, c.Count, c.N)
		lines = append(lines, r.Vigor.Call.Lines("vigor call()")...)
		lines = append(lines, r.Vigor.Batch.Lines("vigor batch()")...)
		lines = append(lines, r.Parallel.Lines(fmt.Sprintf("vigor parallel() (%d goroutines)", benchstat.Workers))...)
		for _, l := range r.Limits {
			lines = append(lines, fmt.Sprintf("limit %s: %s", l.Name, l.About))
			lines = append(lines, l.Call.Lines("limit "+l.Name+" call()")...)
			lines = append(lines, l.Batch.Lines("limit "+l.Name+" batch()")...)
		}
		for _, l := range lines {
			fmt.Fprintln(w, l)
		}
		pc, pb := r.ParallelRatios()
		fmt.Fprintf(w, "vigor parallel/ (ops/ms)    call   batch\n")
		fmt.Fprintf(w, "  vigor                    %5.2f  %5.2f\n", pc, pb)
		fmt.Fprintf(w, "  target                   %5.2f  %5.2f\n", TargetParallelCall, TargetParallelBatch)
		if len(r.Limits) == 0 {
			continue
		}
		fmt.Fprintf(w, "vigor/limit (ops/ms)        call   batch\n")
		for _, l := range r.Limits {
			call, batch := r.Ratios(l)
			name := l.Name
			if l.Same {
				name += " (same protocol)"
			}
			fmt.Fprintf(w, "  %-24s %5.2f  %5.2f\n", name, call, batch)
		}
		fmt.Fprintf(w, "  target (same protocol)   %5.2f  %5.2f\n", TargetCall, TargetBatch)
	}
}

type jsonFigures struct {
	Opms       float64 `json:"opms"`
	OpmsStderr float64 `json:"opms_stderr"`
	Cpms       float64 `json:"cpms"`
	CpmsStderr float64 `json:"cpms_stderr"`
	MeanMs     float64 `json:"mean_ms"`
	MedianMs   float64 `json:"median_ms"`
}

type jsonLimit struct {
	About string             `json:"about"`
	Same  bool               `json:"same_protocol"`
	Call  jsonFigures        `json:"call"`
	Batch jsonFigures        `json:"batch"`
	Ratio map[string]float64 `json:"ratio"`
}

type jsonEditor struct {
	Version string      `json:"version"`
	CPUs    string      `json:"cpus"`
	Size    int         `json:"size"`
	Count   int         `json:"count"`
	N       int         `json:"n"`
	Call    jsonFigures `json:"call"`
	Batch   jsonFigures `json:"batch"`
	// Parallel is Vigor's parallel workload, ParallelRatio its ratio to
	// Vigor's own "call" and "batch".
	Parallel      jsonFigures           `json:"parallel"`
	ParallelRatio map[string]float64    `json:"parallel_ratio"`
	Limits        map[string]*jsonLimit `json:"limits,omitempty"`
	Limit         string                `json:"limit,omitempty"`
	Ratio         map[string]float64    `json:"ratio,omitempty"`
}

func figures(r benchstat.Result) jsonFigures {
	return jsonFigures{Opms: r.Opms, OpmsStderr: r.OpmsErr, Cpms: r.Cpms, CpmsStderr: r.CpmsErr,
		MeanMs: r.Time.Mean, MedianMs: r.Time.Median}
}

// WriteJSON prints one JSON object: for each editor that ran, under "vim"
// or "nvim", "cpus" (taskset's list, or "" for all), Vigor's "call",
// "batch" and "parallel" (each with "opms" and "opms_stderr"),
// "parallel_ratio" (parallel over Vigor's "call" and "batch"), and with limits,
// "limits" (by name: "call", "batch" and Vigor's "ratio" to it), "limit"
// (the name of the one of Vigor's protocol) and "ratio" (Vigor's to it).
func WriteJSON(w io.Writer, reps []EditorReport) error {
	out := map[string]jsonEditor{}
	for _, r := range reps {
		e := jsonEditor{Version: r.Version, CPUs: r.CPUs, Size: r.Vigor.Call.Size, Count: r.Vigor.Call.Count, N: r.Vigor.Call.N,
			Call: figures(r.Vigor.Call), Batch: figures(r.Vigor.Batch), Parallel: figures(r.Parallel)}
		pc, pb := r.ParallelRatios()
		e.ParallelRatio = map[string]float64{"call": pc, "batch": pb}
		for _, l := range r.Limits {
			if e.Limits == nil {
				e.Limits = map[string]*jsonLimit{}
			}
			call, batch := r.Ratios(l)
			ratio := map[string]float64{"call": call, "batch": batch}
			e.Limits[l.Name] = &jsonLimit{About: l.About, Same: l.Same, Call: figures(l.Call), Batch: figures(l.Batch), Ratio: ratio}
			if l.Same {
				e.Limit, e.Ratio = l.Name, ratio
			}
		}
		out[r.Editor] = e
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
