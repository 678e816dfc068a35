package bench

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/vigorvim/vigor/internal/benchstat"
)

func TestReports(t *testing.T) {
	vig := Pair{Call: benchstat.NewResult(64, 1000, []float64{50, 50}), Batch: benchstat.NewResult(64, 1000, []float64{4, 4})}
	base := Pair{Call: benchstat.NewResult(64, 1000, []float64{40, 40}), Batch: benchstat.NewResult(64, 1000, []float64{4, 4})}
	reps := []EditorReport{{Editor: "vim", Version: "VIM 9.0", Vigor: vig, Baseline: &base}, {Editor: "nvim", Version: "NVIM v0.11.4", Vigor: vig}}
	var text bytes.Buffer
	WriteText(&text, reps)
	for _, want := range []string{"== vim: VIM 9.0\ninfo\n  size:   64 bytes\n  count:  1000\n  n:      2\nvigor call()\n",
		"baseline batch()\n", "vigor/baseline (ops/ms)\n  call:    0.80 (target 0.85)\n  batch:   1.00 (target 0.90)\n", "== nvim: NVIM v0.11.4"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, text.String())
		}
	}
	var js bytes.Buffer
	if err := WriteJSON(&js, reps); err != nil {
		t.Fatal(err)
	}
	var got map[string]struct {
		Call     map[string]float64 `json:"call"`
		Batch    map[string]float64 `json:"batch"`
		Baseline *struct {
			Call  map[string]float64 `json:"call"`
			Batch map[string]float64 `json:"batch"`
		} `json:"baseline"`
		Ratio map[string]float64 `json:"ratio"`
	}
	if err := json.Unmarshal(js.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if got["vim"].Call["opms"] != 20 || got["vim"].Baseline.Call["opms"] != 25 || got["vim"].Ratio["call"] != 0.8 {
		t.Errorf("vim: %+v", got["vim"])
	}
	if _, ok := got["vim"].Batch["opms_stderr"]; !ok {
		t.Errorf("no opms_stderr: %s", js.String())
	}
	if got["nvim"].Baseline != nil {
		t.Errorf("nvim has a baseline: %s", js.String())
	}
}
