package main

import (
	"fmt"
	"reflect"
	"testing"
)

// numbered returns n matches of lines 1 to n of one buffer.
func numbered(n int) []Match {
	ms := make([]Match, n)
	for i := range ms {
		ms[i] = Match{Line: Line{Buf: 1, Name: "/x/f.txt", Lnum: i + 1, Text: fmt.Sprint("line ", i+1)}}
	}
	return ms
}

func TestSelectionMove(t *testing.T) {
	for _, tc := range []struct {
		n, shown int
		steps    []int
		sel, top int
	}{
		{n: 5, shown: 3, steps: nil, sel: 0, top: 0},
		{n: 5, shown: 3, steps: []int{1, 1}, sel: 2, top: 0},
		{n: 5, shown: 3, steps: []int{1, 1, 1}, sel: 3, top: 1},
		{n: 5, shown: 3, steps: []int{1, 1, 1, 1, 1}, sel: 0, top: 0}, // wraps to the first
		{n: 5, shown: 3, steps: []int{-1}, sel: 4, top: 2},            // wraps to the last
		{n: 5, shown: 3, steps: []int{-1, -1, -1}, sel: 2, top: 2},
		{n: 5, shown: 3, steps: []int{-1, -1, -1, -1}, sel: 1, top: 1},
		{n: 2, shown: 10, steps: []int{1, 1, 1}, sel: 1, top: 0},
		{n: 2, shown: 10, steps: []int{-7}, sel: 1, top: 0},
		{n: 0, shown: 10, steps: []int{1, -1}, sel: 0, top: 0},
	} {
		s := Selection{Shown: tc.shown}
		s.Set("q", numbered(tc.n))
		for _, st := range tc.steps {
			s.Move(st)
			if s.Top > s.Sel || s.Sel >= s.Top+s.Shown && tc.n > 0 {
				t.Fatalf("n=%d shown=%d steps %v: selection %d is not shown (from %d)", tc.n, tc.shown, tc.steps, s.Sel, s.Top)
			}
		}
		if s.Sel != tc.sel || s.Top != tc.top {
			t.Errorf("n=%d shown=%d steps %v: sel %d top %d, want sel %d top %d", tc.n, tc.shown, tc.steps, s.Sel, s.Top, tc.sel, tc.top)
		}
	}
}

func TestSelectionView(t *testing.T) {
	s := Selection{Shown: 2}
	s.Set("line", numbered(3))
	s.Move(-1)
	lines, line, title := s.View()
	if want := []string{"  f.txt:2: line 2", "> f.txt:3: line 3"}; !reflect.DeepEqual(lines, want) || line != 2 || title != "Find 3/3" {
		t.Errorf("View() = %q, %d, %q; want %q, 2, %q", lines, line, title, want, "Find 3/3")
	}
	if m, ok := s.Selected(); !ok || m.Lnum != 3 {
		t.Errorf("Selected() = %v, %v; want line 3", m, ok)
	}

	s.Set("zzz", nil)
	lines, line, title = s.View()
	if want := []string{"  (no match)"}; !reflect.DeepEqual(lines, want) || line != 0 || title != "Find" {
		t.Errorf("View() of no match = %q, %d, %q", lines, line, title)
	}
	if _, ok := s.Selected(); ok {
		t.Errorf("Selected() of no match is ok")
	}
}
