package benchstat

import (
	"math"
	"testing"
)

func TestCalc(t *testing.T) {
	// Numbers that sort differently as strings: denops-benchmark's median
	// of these would be 100 (the "middle" of "10" "100" "9").
	st := Calc([]float64{9, 100, 10})
	if st.Median != 10 {
		t.Fatalf("median = %v, want 10", st.Median)
	}
	if st.Sum != 119 || math.Abs(st.Mean-119.0/3) > 1e-9 {
		t.Fatalf("sum %v mean %v", st.Sum, st.Mean)
	}
	even := Calc([]float64{4, 1, 3, 2})
	if even.Median != 2.5 {
		t.Fatalf("even median = %v, want 2.5", even.Median)
	}
	one := Calc([]float64{2, 2, 2, 2})
	if one.Stddev != 0 || one.Stderr != 0 {
		t.Fatalf("constant samples: %+v", one)
	}
	sd := Calc([]float64{1, 3})
	if sd.Stddev != 1 || math.Abs(sd.Stderr-1/math.Sqrt2) > 1e-12 {
		t.Fatalf("stddev %v stderr %v", sd.Stddev, sd.Stderr)
	}
	if (Calc(nil) != Stats{}) {
		t.Fatal("empty")
	}
}

func TestNewResult(t *testing.T) {
	r := NewResult(64, 1000, []float64{100, 50})
	if r.Opms != 15 { // mean of 10 and 20 ops/ms
		t.Fatalf("opms = %v", r.Opms)
	}
	if r.Cpms != 960 {
		t.Fatalf("cpms = %v", r.Cpms)
	}
	if math.Abs(r.OpmsErr-5/math.Sqrt2) > 1e-9 {
		t.Fatalf("opms stderr = %v", r.OpmsErr)
	}
	lines := r.Lines("vigor call()")
	if lines[0] != "vigor call()" || lines[6] != "  opms:    15.0±3.5 ops/ms" || lines[7] != "  cpms:    960.0±226.3 chars/ms" {
		t.Fatalf("lines: %q", lines)
	}
}
