package bench

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/vigorvim/vigor/internal/benchstat"
)

// The targets: Vigor's figure over the baseline's, in the same run.
const (
	TargetCall  = 0.85
	TargetBatch = 0.90
)

// Ratios returns Vigor/baseline ops/ms for call and batch.
func (r EditorReport) Ratios() (call, batch float64) {
	if r.Baseline == nil || r.Baseline.Call.Opms == 0 || r.Baseline.Batch.Opms == 0 {
		return 0, 0
	}
	return r.Vigor.Call.Opms / r.Baseline.Call.Opms, r.Vigor.Batch.Opms / r.Baseline.Batch.Opms
}

// WriteText prints the reports as denops-benchmark does, one block per
// editor, with the ratios to the baseline.
func WriteText(w io.Writer, reps []EditorReport) {
	for i, r := range reps {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "== %s: %s\n", r.Editor, r.Version)
		c := r.Vigor.Call
		lines := benchstat.Info(c.Size, c.Count, c.N)
		lines = append(lines, r.Vigor.Call.Lines("vigor call()")...)
		lines = append(lines, r.Vigor.Batch.Lines("vigor batch()")...)
		if r.Baseline != nil {
			lines = append(lines, r.Baseline.Call.Lines("baseline call()")...)
			lines = append(lines, r.Baseline.Batch.Lines("baseline batch()")...)
		}
		for _, l := range lines {
			fmt.Fprintln(w, l)
		}
		if r.Baseline != nil {
			call, batch := r.Ratios()
			fmt.Fprintf(w, "vigor/baseline (ops/ms)\n  call:    %.2f (target %.2f)\n  batch:   %.2f (target %.2f)\n",
				call, TargetCall, batch, TargetBatch)
		}
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

type jsonPair struct {
	Call  jsonFigures `json:"call"`
	Batch jsonFigures `json:"batch"`
}

type jsonEditor struct {
	Version  string             `json:"version"`
	Size     int                `json:"size"`
	Count    int                `json:"count"`
	N        int                `json:"n"`
	Call     jsonFigures        `json:"call"`
	Batch    jsonFigures        `json:"batch"`
	Baseline *jsonPair          `json:"baseline,omitempty"`
	Ratio    map[string]float64 `json:"ratio,omitempty"`
}

func figures(r benchstat.Result) jsonFigures {
	return jsonFigures{Opms: r.Opms, OpmsStderr: r.OpmsErr, Cpms: r.Cpms, CpmsStderr: r.CpmsErr,
		MeanMs: r.Time.Mean, MedianMs: r.Time.Median}
}

// WriteJSON prints one JSON object: for each editor that ran, under "vim"
// or "nvim", "call" and "batch" (each with "opms" and "opms_stderr"), and
// with a baseline, "baseline" of the same shape and "ratio".
func WriteJSON(w io.Writer, reps []EditorReport) error {
	out := map[string]jsonEditor{}
	for _, r := range reps {
		e := jsonEditor{Version: r.Version, Size: r.Vigor.Call.Size, Count: r.Vigor.Call.Count, N: r.Vigor.Call.N,
			Call: figures(r.Vigor.Call), Batch: figures(r.Vigor.Batch)}
		if r.Baseline != nil {
			e.Baseline = &jsonPair{Call: figures(r.Baseline.Call), Batch: figures(r.Baseline.Batch)}
			call, batch := r.Ratios()
			e.Ratio = map[string]float64{"call": call, "batch": batch}
		}
		out[r.Editor] = e
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
