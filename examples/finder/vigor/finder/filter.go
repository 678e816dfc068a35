package main

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A Line is one line of a listed buffer.
type Line struct {
	Buf  int    // the buffer's number
	Name string // the buffer's name
	Lnum int    // the line's number, from 1
	Text string
}

// A Match is a Line that holds the query, at byte Col (from 0) of Text.
type Match struct {
	Line
	Col int
}

// Filter returns the lines that hold query, best first, and at most max
// of them (all when max <= 0).
//
// The match is a case-smart substring: a query with no upper-case letter
// matches without regard to case, one with an upper-case letter exactly
// (as 'smartcase' does). Blank lines never match; an empty query matches
// every other line. The ranking is in two tiers: the lines where the query
// starts a word (at the start of the line or after a character that is
// not a letter, a digit or '_') come first, then the others; within a
// tier the lines keep their order (buffer, then line number).
func Filter(lines []Line, query string, max int) []Match {
	fold := strings.ToLower(query) == query
	type ranked struct {
		Match
		word bool
	}
	var out []ranked
	for _, l := range lines {
		if strings.TrimSpace(l.Text) == "" {
			continue
		}
		col, word := find(l.Text, query, fold)
		if col < 0 {
			continue
		}
		out = append(out, ranked{Match{l, col}, word})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].word && !out[j].word })
	if max > 0 && len(out) > max {
		out = out[:max]
	}
	ms := make([]Match, len(out))
	for i, r := range out {
		ms[i] = r.Match
	}
	return ms
}

// find returns the byte index in text of the first occurrence of query
// that starts a word, or else of the first one, and whether it starts a
// word; -1 when text does not hold query. fold compares without regard to
// case.
func find(text, query string, fold bool) (col int, word bool) {
	col = -1
	for i := 0; i <= len(text); {
		if hasPrefix(text[i:], query, fold) {
			if wordStart(text, i) {
				return i, true
			}
			if col < 0 {
				col = i
			}
		}
		if i == len(text) {
			break
		}
		_, n := utf8.DecodeRuneInString(text[i:])
		i += n
	}
	return col, false
}

// hasPrefix reports whether s starts with prefix, rune by rune, without
// regard to case when fold is set.
func hasPrefix(s, prefix string, fold bool) bool {
	for _, p := range prefix {
		r, n := utf8.DecodeRuneInString(s)
		if n == 0 || (r != p && !(fold && unicode.ToLower(r) == unicode.ToLower(p))) {
			return false
		}
		s = s[n:]
	}
	return true
}

// wordStart reports whether byte i of text starts a word.
func wordStart(text string, i int) bool {
	if i == 0 {
		return true
	}
	r, _ := utf8.DecodeLastRuneInString(text[:i])
	return !isWord(r)
}

func isWord(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

// Format returns what the popup shows of m: the buffer's file name, the
// line number and the text without its leading blanks; selected marks the
// match that <CR> jumps to.
func Format(m Match, selected bool) string {
	mark := "  "
	if selected {
		mark = "> "
	}
	return fmt.Sprintf("%s%s:%d: %s", mark, filepath.Base(m.Name), m.Lnum, strings.TrimLeft(m.Text, " \t"))
}
