package main

import (
	"fmt"
	"sort"
	"strings"

	"github.com/vigorvim/vigor/internal/gen/internal/gen"
)

// A function is one builtin function as the wrappers see it: its
// parameters (Go names and types), how many must be given, and the Go
// type of its result for each number of arguments.
type function struct {
	name       string
	params     []param // name: the Go name; typ: the Go type
	min, max   int     // the arities that get a wrapper
	variadic   bool    // one wrapper, with args ...any after the required ones
	typeParam  string  // the wrappers' type parameter ("T int | float64"), if generic
	results    map[int]string
	deprecated bool           // Neovim marks it @deprecated
	notes      []string       // facts for the doc comments of its wrappers
	arityNotes map[int]string // a fact for one wrapper: a result type disagreement
}

// A skip is a function that gets no wrapper, and why.
type skip struct{ name, why string }

// side is one editor's view of a function: its rows merged.
type side struct {
	params   []param // editor names; typ is the LuaCATS type (Neovim) or ""
	min, max int
	variadic bool
	elided   bool
	results  map[int]string // Vim: Go types; Neovim: LuaCATS annotations joined by |
	noted    bool
}

// nvimMaxArgs corrects vimfn.lua where the pinned Neovim refuses what it
// documents: the most arguments the function takes, as E118 (too many
// arguments) in Neovim 0.11.4 shows. TestStdFunctions would fail on a
// wrapper that passes more.
var nvimMaxArgs = map[string]int{
	"str2float": 1, // vimfn.lua documents {quoted}; Neovim 0.11.4 takes 1 argument
}

// sideOf merges the rows of one function from one editor's source.
func sideOf(rows []row) side {
	s := side{min: -1, results: map[int]string{}}
	for _, r := range rows {
		for i, p := range r.params {
			if i >= len(s.params) {
				s.params = append(s.params, p)
			} else if s.params[i].name == "" {
				s.params[i].name = p.name
			}
			switch t := s.params[i].typ; {
			case t == "":
				s.params[i].typ = p.typ
			case p.typ != "" && p.typ != t: // overloads: the union
				s.params[i].typ = t + "|" + p.typ
			}
		}
		if s.min < 0 || r.required < s.min {
			s.min = r.required
		}
		s.max = max(s.max, len(r.params))
		s.variadic = s.variadic || r.variadic
		s.elided = s.elided || r.elided
		s.noted = s.noted || r.noted
	}
	s.max = max(s.max, s.min)
	if m, ok := nvimMaxArgs[rows[0].name]; ok && rows[0].typed && m < s.max {
		s.max = m
		s.params = s.params[:m]
	}
	for n := s.min; n <= s.max; n++ {
		var vim []string
		var lua []string
		for _, r := range rows {
			if !r.accepts(n) {
				continue
			}
			if r.typed {
				lua = append(lua, r.result)
			} else {
				vim = append(vim, vimResult(r.result))
			}
		}
		if rows[0].typed {
			s.results[n] = strings.Join(lua, "|")
		} else {
			s.results[n] = union(vim...)
		}
	}
	return s
}

// checked corrects Vim's side s of function name by what Vim's compiler
// accepts (inputs.vimArgs): the numbers of arguments accepted, when the
// probe is conclusive, that is, when it refused some number (E118 or
// E119). A function that Vim9 script refuses altogether (flatten()) or
// compiles specially (exists_compiled()) refuses none and keeps its
// table's arities. probed is the largest number tried: a function that
// accepts it takes any number. It returns the note for the doc comment
// when the table and Vim differ.
func checked(s side, accepted []int, probed int) (side, string) {
	if len(accepted) == 0 || len(accepted) == probed+1 {
		return s, ""
	}
	lo, hi := accepted[0], accepted[len(accepted)-1]
	if hi-lo+1 != len(accepted) { // not a range: keep the table's
		return s, ""
	}
	table := args(arityText(s))
	variadic := hi == probed
	if lo == s.min && (variadic && (s.variadic || s.elided) || !variadic && hi == s.max && !s.variadic && !s.elided) {
		return s, ""
	}
	s.min, s.max, s.variadic, s.elided = lo, hi, variadic, false
	if variadic {
		s.max = max(lo, len(s.params))
	}
	for len(s.params) < s.max {
		s.params = append(s.params, param{})
	}
	if !variadic {
		s.params = s.params[:s.max]
	}
	for n := s.min; n <= s.max; n++ {
		if _, ok := s.results[n]; !ok {
			s.results[n] = s.results[nearest(s.results, n)]
		}
	}
	return s, fmt.Sprintf("Vim's table gives %s; this Vim takes %s (Vim's compiler checks the count).", table, args(arityText(s)))
}

// nearest is the key of results closest to n, the larger on a tie.
func nearest(results map[int]string, n int) int {
	best := -1
	for k := range results {
		if best < 0 || abs(k-n) < abs(best-n) || abs(k-n) == abs(best-n) && k > best {
			best = k
		}
	}
	return best
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// vimOnly is the function from Vim's table alone.
func vimOnly(s side) *function {
	f := &function{min: s.min, max: s.max, variadic: s.variadic || s.elided, results: map[int]string{}}
	for _, p := range s.params {
		f.params = append(f.params, param{name: p.name, typ: anyType})
	}
	for n, t := range s.results {
		f.results[n] = t
	}
	return f
}

// nvimOnly is the function from vimfn.lua alone.
func nvimOnly(s side) *function {
	f := &function{min: s.min, max: s.max, variadic: s.variadic, results: map[int]string{}, deprecated: s.noted}
	for _, p := range s.params {
		f.params = append(f.params, param{name: p.name, typ: paramType(p.typ)})
	}
	for n, t := range s.results {
		f.results[n] = luaType(t, true)
	}
	return f
}

// common is the function that both editors have: the arities both take,
// Vim's parameter names (its table is what :help shows), Neovim's
// parameter types, and the result type by merge. Vim's [...] (further
// optional parameters not shown) takes Neovim's parameters.
func common(v, n side) (*function, error) {
	f := &function{min: max(v.min, n.min), results: map[int]string{}, arityNotes: map[int]string{}}
	f.variadic = v.variadic && !v.elided
	params := v.params
	switch {
	case v.elided && len(n.params) > len(v.params):
		params = n.params
		f.max = n.max
	case f.variadic:
		f.max = len(v.params)
	case n.variadic:
		f.max = v.max
	default:
		f.max = min(v.max, n.max)
	}
	if f.min > f.max && !f.variadic {
		return nil, fmt.Errorf("no number of arguments suits both: Vim takes %s and Neovim's vimfn.lua gives %s", args(arityText(v)), args(arityText(n)))
	}
	for i, p := range params {
		if i >= f.max && !f.variadic {
			break
		}
		name := p.name
		if i < len(v.params) && v.params[i].name != "" {
			name = v.params[i].name
		} else if name == "" && i < len(n.params) {
			name = n.params[i].name
		}
		typ := anyType
		if i < len(n.params) {
			typ = paramType(n.params[i].typ)
		}
		f.params = append(f.params, param{name: name, typ: typ})
	}
	if (v.max != n.max || v.min != n.min) && !v.elided {
		f.notes = append(f.notes, fmt.Sprintf("Vim takes %s and Neovim's vimfn.lua gives %s; the wrappers take what both editors do.", args(arityText(v)), args(arityText(n))))
	}
	if n.noted {
		f.notes = append(f.notes, "Neovim marks it deprecated.")
	}
	last := f.max
	if f.variadic {
		last = f.min
	}
	for k := f.min; k <= last; k++ {
		vt, ok := v.results[k]
		if !ok {
			vt = anyType
		}
		nt, ok := n.results[k]
		if !ok {
			nt = "any"
		}
		t, agree := mergeAlts(vt, nt)
		f.results[k] = t
		if !agree {
			f.arityNotes[k] = fmt.Sprintf("Vim's result is %s and Neovim's %s; the wrapper returns %s.", goText(vt), nt, goText(t))
		}
	}
	return f, nil
}

// paramType is the Go type of a parameter of LuaCATS type t. A List of
// values of any type is any, so that a slice of any element type can be
// passed ([]string is no []any).
func paramType(t string) string {
	if g := luaType(t, false); g != voidType && g != "[]any" {
		return g
	}
	return anyType
}

func arityText(s side) string {
	switch {
	case s.variadic || s.elided:
		return fmt.Sprintf("%d or more", s.min)
	case s.min == s.max:
		return fmt.Sprint(s.min)
	}
	return fmt.Sprintf("%d to %d", s.min, s.max)
}

// args is "n arguments", with the right number.
func args(n string) string {
	if n == "1" {
		return "1 argument"
	}
	return n + " arguments"
}

func goText(t string) string {
	if t == voidType {
		return "none"
	}
	return t
}

// A wrapper is one Go function: a function at one arity.
type wrapper struct {
	goName string
	fn     *function
	vim    string // the editor name
	n      int    // how many parameters it takes (the required ones, if variadic)
	result string
}

// wrappers names the wrappers of funcs (by editor name): the one with the
// required parameters only gets the function's Go name, and each longer
// arity that name plus its last parameter's Go name (GetlineEnd); a
// variadic function has one wrapper. A name that is taken gets the number
// of parameters appended (the fallback).
func wrappers(funcs map[string]*function) ([]wrapper, []string) {
	names := sortedKeys(funcs)
	taken := map[string]bool{}
	var out []wrapper
	var collisions []string
	for _, name := range names {
		taken[gen.GoName(name)] = true
	}
	for _, name := range names {
		f := funcs[name]
		base := gen.GoName(name)
		f.goParams()
		last := f.max
		if f.variadic {
			last = f.min
		}
		for n := f.min; n <= last; n++ {
			g := base
			if n > f.min {
				g = base + strings.ToUpper(f.params[n-1].name[:1]) + f.params[n-1].name[1:]
				if taken[g] {
					collisions = append(collisions, fmt.Sprintf("%s(%d arguments) is %s%d, as %s is taken", name, n, g, n, g))
					g = fmt.Sprintf("%s%d", g, n)
				}
				taken[g] = true
			}
			out = append(out, wrapper{goName: g, fn: f, vim: name, n: n, result: f.results[n]})
		}
	}
	return out, collisions
}

// goParams gives the parameters Go names: ParamName of the editor's name
// (argN for a literal), made unique within the function.
func (f *function) goParams() {
	seen := map[string]int{}
	for i := range f.params {
		g := gen.ParamName(f.params[i].name)
		if f.params[i].name == "" {
			g = fmt.Sprintf("arg%d", i+1)
		}
		seen[g]++
		if seen[g] > 1 {
			g = fmt.Sprintf("%s%d", g, seen[g])
		}
		f.params[i].name = g
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
