package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigorvim/vigor/internal/benchstat"
)

func TestReports(t *testing.T) {
	vig := Pair{Call: benchstat.NewResult(64, 1000, []float64{50, 50}), Batch: benchstat.NewResult(64, 1000, []float64{4, 4})}
	same := Pair{Call: benchstat.NewResult(64, 1000, []float64{40, 40}), Batch: benchstat.NewResult(64, 1000, []float64{4, 4})}
	other := Pair{Call: benchstat.NewResult(64, 1000, []float64{25, 25}), Batch: benchstat.NewResult(64, 1000, []float64{2, 2})}
	par := benchstat.NewResult(64, 1000, []float64{10, 10})
	reps := []EditorReport{
		{Editor: "vim", Version: "VIM 9.0", CPUs: "1", Vigor: vig, Parallel: par, Limits: []LimitResult{
			{Name: "callback", About: "C job", Same: true, Pair: same},
			{Name: "command", About: "C job too", Pair: other},
		}},
		{Editor: "nvim", Version: "NVIM v0.11.4", Vigor: vig, Parallel: par},
	}
	var text bytes.Buffer
	WriteText(&text, reps)
	for _, want := range []string{"== vim: VIM 9.0 (taskset -c 1)\ninfo\n  size:   64 bytes\n  count:  1000\n  n:      2\nvigor call()\n",
		"limit callback: C job\nlimit callback call()\n", "limit command batch()\n",
		"vigor batch()\n", "vigor parallel() (8 goroutines)\n  sum:     20 ms\n",
		"vigor parallel/ (ops/ms)    call   batch\n  vigor                     5.00   0.40\n  target                    3.00   0.50\n",
		"vigor/limit (ops/ms)        call   batch\n  callback (same protocol)  0.80   1.00\n  command                   0.50   0.50\n  target (same protocol)    0.90   0.90\n",
		"== nvim: NVIM v0.11.4 (all CPUs)"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, text.String())
		}
	}
	var js bytes.Buffer
	if err := WriteJSON(&js, reps); err != nil {
		t.Fatal(err)
	}
	type figs struct {
		Call          map[string]float64 `json:"call"`
		Parallel      map[string]float64 `json:"parallel"`
		ParallelRatio map[string]float64 `json:"parallel_ratio"`
		Batch         map[string]float64 `json:"batch"`
		Ratio         map[string]float64 `json:"ratio"`
	}
	var got map[string]struct {
		figs
		CPUs   *string          `json:"cpus"`
		Limits map[string]*figs `json:"limits"`
		Limit  string           `json:"limit"`
	}
	if err := json.Unmarshal(js.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	vim := got["vim"]
	if vim.Call["opms"] != 20 || vim.Limits["callback"].Call["opms"] != 25 || vim.Ratio["call"] != 0.8 ||
		vim.Limit != "callback" || vim.Limits["command"].Ratio["batch"] != 0.5 || vim.CPUs == nil || *vim.CPUs != "1" {
		t.Errorf("vim: %s", js.String())
	}
	if vim.Parallel["opms"] != 100 || vim.ParallelRatio["call"] != 5 || vim.ParallelRatio["batch"] != 0.4 {
		t.Errorf("vim parallel: %s", js.String())
	}
	if _, ok := vim.Batch["opms_stderr"]; !ok {
		t.Errorf("no opms_stderr: %s", js.String())
	}
	if got["nvim"].Limits != nil || got["nvim"].Limit != "" || got["nvim"].CPUs == nil {
		t.Errorf("nvim: %s", js.String())
	}
}

func TestParseCPUList(t *testing.T) {
	for in, want := range map[string]string{"0": "[0]", "0-1": "[0 1]", "0,2-4,7": "[0 2 3 4 7]"} {
		got, err := parseCPUList(in)
		if err != nil || fmt.Sprint(got) != want {
			t.Errorf("parseCPUList(%q) = %v, %v; want %s", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "a", "3-1", "1-"} {
		if _, err := parseCPUList(bad); err == nil {
			t.Errorf("parseCPUList(%q) did not fail", bad)
		}
	}
}

// The plugin's results carry the parallel workload beside call and batch;
// results without it (an older checkout's plugin) are an error.
func TestReadResults(t *testing.T) {
	dir := t.TempDir()
	res := func(s string) string {
		p := filepath.Join(dir, "result.json")
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	pair, par, err := readResults(res(`{"call": {"samples_ms": [50]}, "batch": {"samples_ms": [4]}, "parallel": {"samples_ms": [10, 12], "opms": 90}}`))
	if err != nil || len(pair.Call.Samples) != 1 || len(pair.Batch.Samples) != 1 || fmt.Sprint(par.Samples) != "[10 12]" {
		t.Errorf("readResults = %+v, %+v, %v", pair, par, err)
	}
	if _, _, err := readResults(res(`{"call": {"samples_ms": [50]}, "batch": {"samples_ms": [4]}}`)); err == nil || !strings.Contains(err.Error(), "parallel") {
		t.Errorf("results without parallel: err = %v", err)
	}
	if _, _, err := readResults(res(`{"error": "benchmark failed"}`)); err == nil || err.Error() != "benchmark failed" {
		t.Errorf("an error result: err = %v", err)
	}
}
