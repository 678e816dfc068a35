package main

import (
	"reflect"
	"testing"
)

var lines = []Line{
	{Buf: 1, Name: "/src/a.go", Lnum: 1, Text: "package main"},
	{Buf: 1, Name: "/src/a.go", Lnum: 2, Text: ""},
	{Buf: 1, Name: "/src/a.go", Lnum: 3, Text: "func mainLoop() {}"},
	{Buf: 2, Name: "/src/b.txt", Lnum: 1, Text: "the Main road"},
	{Buf: 2, Name: "/src/b.txt", Lnum: 2, Text: "   "},
	{Buf: 2, Name: "/src/b.txt", Lnum: 3, Text: "domain names"},
	{Buf: 3, Name: "/src/c.txt", Lnum: 7, Text: "Élan, élan"},
}

// at names a match by buffer, line and column.
type at struct{ Buf, Lnum, Col int }

func ats(ms []Match) []at {
	out := []at{}
	for _, m := range ms {
		out = append(out, at{m.Buf, m.Lnum, m.Col})
	}
	return out
}

func TestFilter(t *testing.T) {
	for _, tc := range []struct {
		query string
		max   int
		want  []at
	}{
		// Lower case folds; word starts first, then the rest, each in order.
		{"main", 0, []at{{1, 1, 8}, {1, 3, 5}, {2, 1, 4}, {2, 3, 2}}},
		// An upper-case letter makes it exact.
		{"Main", 0, []at{{2, 1, 4}}},
		// Mid-word matches only: all in the second tier, in order.
		{"ain", 0, []at{{1, 1, 9}, {1, 3, 6}, {2, 1, 5}, {2, 3, 3}}},
		{"road", 0, []at{{2, 1, 9}}},
		{"main", 2, []at{{1, 1, 8}, {1, 3, 5}}},
		// Blank lines never match, not even the empty query.
		{"", 0, []at{{1, 1, 0}, {1, 3, 0}, {2, 1, 0}, {2, 3, 0}, {3, 7, 0}}},
		// Case folding is by rune, and Col is a byte index.
		{"élan", 0, []at{{3, 7, 0}}},
		{"lan", 0, []at{{3, 7, 2}}},
		{"Élan", 0, []at{{3, 7, 0}}},
		{"nothing", 0, []at{}},
	} {
		if got := ats(Filter(lines, tc.query, tc.max)); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Filter(%q, %d) = %v, want %v", tc.query, tc.max, got, tc.want)
		}
	}
}

// A word start later in a line is the line's match, and ranks it first.
func TestFilterWordStart(t *testing.T) {
	lines := []Line{
		{Buf: 1, Name: "x", Lnum: 1, Text: "remainder"},
		{Buf: 1, Name: "x", Lnum: 2, Text: "domain main"},
	}
	if got, want := ats(Filter(lines, "main", 0)), []at{{1, 2, 7}, {1, 1, 2}}; !reflect.DeepEqual(got, want) {
		t.Errorf("Filter = %v, want %v", got, want)
	}
}

func TestFormat(t *testing.T) {
	m := Match{Line{Buf: 1, Name: "/src/a.go", Lnum: 3, Text: "\t  func x()"}, 3}
	if got, want := Format(m, true), "> a.go:3: func x()"; got != want {
		t.Errorf("Format(selected) = %q, want %q", got, want)
	}
	if got, want := Format(m, false), "  a.go:3: func x()"; got != want {
		t.Errorf("Format = %q, want %q", got, want)
	}
}
