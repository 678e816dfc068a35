package main

import "fmt"

// A Selection is the matches of one query and the one that is selected,
// with the part of them that the popup shows: at most Shown matches from
// Top, which always holds the selected one.
//
// Invariants, kept by Set and Move: Sel is 0 when Matches is empty, else
// 0 <= Sel < len(Matches); Top <= Sel < Top+Shown; 0 <= Top and
// Top+Shown <= len(Matches) when there are more than Shown matches, Top
// is 0 otherwise.
type Selection struct {
	Query   string
	Matches []Match
	Sel     int
	Top     int
	Shown   int // how many matches the popup shows, at least 1
}

// Set makes ms, the matches of query, the selection's matches, with the
// first one selected.
func (s *Selection) Set(query string, ms []Match) {
	s.Query, s.Matches, s.Sel, s.Top = query, ms, 0, 0
	if s.Shown < 1 {
		s.Shown = 1
	}
}

// Move moves the selection by step matches (forwards when positive),
// wrapping around at either end, and scrolls the shown part the least
// that keeps the selected match in it.
func (s *Selection) Move(step int) {
	n := len(s.Matches)
	if n == 0 {
		return
	}
	s.Sel = ((s.Sel+step)%n + n) % n
	switch {
	case s.Sel < s.Top:
		s.Top = s.Sel
	case s.Sel >= s.Top+s.Shown:
		s.Top = s.Sel - s.Shown + 1
	}
}

// Selected returns the selected match; ok is false when there is none.
func (s *Selection) Selected() (m Match, ok bool) {
	if len(s.Matches) == 0 {
		return Match{}, false
	}
	return s.Matches[s.Sel], true
}

// View returns the popup's lines (the shown matches, formatted, the
// selected one marked), the line of the selected match in them (from 1, 0
// when there is no match) and the popup's title, which counts the
// matches: "Find 3/12".
func (s *Selection) View() (lines []string, line int, title string) {
	if len(s.Matches) == 0 {
		return []string{"  (no match)"}, 0, "Find"
	}
	end := min(s.Top+s.Shown, len(s.Matches))
	for i := s.Top; i < end; i++ {
		lines = append(lines, Format(s.Matches[i], i == s.Sel))
	}
	return lines, s.Sel - s.Top + 1, fmt.Sprintf("Find %d/%d", s.Sel+1, len(s.Matches))
}
