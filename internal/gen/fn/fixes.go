package main

import (
	"fmt"
	"sort"
	"strings"
)

// A fix corrects the types that the rules of types.go give a function
// where the sources' words mislead them, from the function's description
// in both editors' help (what it returns, what it takes).
type fix struct {
	// result is the Go type of the result at every arity; at gives it
	// for the arities it lists, and wins over result.
	result string
	at     map[int]string
	none   bool // no result: the wrappers return an error only
	// params are Go types by the editor's parameter name (Vim's, for a
	// function both editors have).
	params map[string]string
	// numeric makes the wrappers generic in numericParam: the argument
	// is an int or a float64 and the result has its type, as the
	// function returns a Number for a Number and a Float for a Float.
	numeric bool
	why     string // for the wrappers' doc
}

// numericParam is the type parameter of a numeric fix.
const numericParam = "T int | float64"

// A Number result that Neovim's vimfn.lua annotates 0|1 is a bool by the
// rules; these are a count, a code or a status (1 is a failure for
// append() and the asserts), which a bool loses or inverts.
const (
	statusWhy = "The result is a Number, not a Boolean: 1 is a failure and 0 a success (:help %s)."
	codeWhy   = "The result is a Number, not a Boolean: %s."
)

// fixes are the corrections, by the editor's function name. A fix for a
// function the pinned editors lack, or for a parameter it does not have,
// fails the generation (inputs.strict).
var fixes = map[string]fix{
	// Numbers that vimfn.lua annotates 0|1.
	"append":           {result: "int", why: fmt.Sprintf(statusWhy, "append()")},
	"appendbufline":    {result: "int", why: fmt.Sprintf(statusWhy, "append()"), params: map[string]string{"lnum": anyType, "text": anyType}},
	"assert_beeps":     {result: "int", why: fmt.Sprintf(statusWhy, "assert-return")},
	"assert_equal":     {result: "int", why: fmt.Sprintf(statusWhy, "assert-return")},
	"assert_equalfile": {result: "int", why: fmt.Sprintf(statusWhy, "assert-return")},
	"assert_exception": {result: "int", why: fmt.Sprintf(statusWhy, "assert-return")},
	"assert_fails":     {result: "int", why: fmt.Sprintf(statusWhy, "assert-return")},
	"assert_false":     {result: "int", why: fmt.Sprintf(statusWhy, "assert-return")},
	"assert_inrange":   {result: "int", why: fmt.Sprintf(statusWhy, "assert-return")},
	"assert_match":     {result: "int", why: fmt.Sprintf(statusWhy, "assert-return")},
	"assert_nobeep":    {result: "int", why: fmt.Sprintf(statusWhy, "assert-return")},
	"assert_notequal":  {result: "int", why: fmt.Sprintf(statusWhy, "assert-return")},
	"assert_notmatch":  {result: "int", why: fmt.Sprintf(statusWhy, "assert-return")},
	"assert_report":    {result: "int", why: fmt.Sprintf(statusWhy, "assert-return")},
	"assert_true":      {result: "int", why: fmt.Sprintf(statusWhy, "assert-return")},
	"char2nr":          {result: "int", why: fmt.Sprintf(codeWhy, "the character's code")},
	"executable":       {result: "int", why: fmt.Sprintf(codeWhy, "1 when it is found, 0 when not, -1 when the system cannot tell")},
	"filewritable":     {result: "int", why: fmt.Sprintf(codeWhy, "1 for a writable file, 2 for a writable directory, 0 otherwise")},
	"haslocaldir":      {result: "int", why: fmt.Sprintf(codeWhy, "1 for a window-local directory (:lcd), 2 for a tab-local one (:tcd), 0 otherwise")},
	"islocked":         {result: "int", why: fmt.Sprintf(codeWhy, "1 when locked, 0 when not, -1 when the variable does not exist")},
	"chansend":         {result: "int", why: fmt.Sprintf(codeWhy, "the number of bytes written, 0 on failure")},
	"chanclose":        {result: "int", why: fmt.Sprintf(codeWhy, "1 when the channel or stream was closed, 0 otherwise")},

	// Results whose type a flag argument changes.
	"glob":     {at: map[int]string{1: "string", 2: "string", 3: anyType, 4: anyType}, why: "The result is a String, or a List when list is TRUE."},
	"globpath": {at: map[int]string{2: "string", 3: "string", 4: anyType, 5: anyType}, why: "The result is a String, or a List when list is TRUE."},
	"getenv":   {result: "*string", why: "The result is nil when the variable is not set (getenv() returns v:null)."},
	"readfile": {at: map[int]string{2: anyType, 3: anyType}, why: `The result is a List of Strings, or a Blob when type is "B".`},

	// Parameters that take more than vimfn.lua says: a line number is a
	// Number or a String ("$", "."), the text a String or a List of
	// Strings, and a Dict is no String.
	"getbufline":       {params: map[string]string{"lnum": anyType, "end": anyType}},
	"getbufoneline":    {params: map[string]string{"lnum": anyType}},
	"setbufline":       {params: map[string]string{"lnum": anyType}},
	"matchadd":         {params: map[string]string{"dict": "map[string]any"}},
	"matchaddpos":      {params: map[string]string{"dict": "map[string]any"}},
	"setcharsearch":    {params: map[string]string{"dict": "map[string]any"}, none: true, why: "It has no result (:help setcharsearch())."},
	"sign_unplacelist": {params: map[string]string{"list": "[]map[string]any"}},

	// A Number for a Number and a Float for a Float.
	"abs": {numeric: true, why: "It returns the type of its argument: an int for an int (no precision is lost), a float64 for a float64."},
}

// applyFixes corrects funcs (by editor name, before goParams names their
// parameters) by fixes. It returns what fixes name that funcs lack.
func applyFixes(funcs map[string]*function) []string {
	var stale []string
	for _, name := range sortedKeys(fixes) {
		x := fixes[name]
		f := funcs[name]
		if f == nil {
			stale = append(stale, name+"()")
			continue
		}
		for n := range f.results {
			if t, ok := x.at[n]; ok {
				f.results[n] = t
			} else if x.result != "" {
				f.results[n] = x.result
			} else if x.none {
				f.results[n] = voidType
			}
			if x.result != "" || x.at != nil || x.numeric || x.none {
				delete(f.arityNotes, n)
			}
		}
		for p, t := range x.params {
			i := f.param(p)
			if i < 0 {
				stale = append(stale, fmt.Sprintf("%s(): parameter %s", name, p))
				continue
			}
			f.params[i].typ = t
		}
		if x.numeric {
			if len(f.params) != 1 || f.variadic {
				stale = append(stale, name+"(): not one parameter")
				continue
			}
			f.typeParam = numericParam
			f.params[0].typ = "T"
			for n := range f.results {
				f.results[n] = "T"
			}
		}
		if x.why != "" {
			f.notes = append(f.notes, x.why)
		}
	}
	return stale
}

// param is the index of the parameter named name, or -1.
func (f *function) param(name string) int {
	for i, p := range f.params {
		if p.name == name {
			return i
		}
	}
	return -1
}

// fixesIn is applyFixes over the functions of all the packages, and an
// error that lists the stale entries.
func fixesIn(pkgs []*pkg) error {
	all := map[string]*function{}
	for _, p := range pkgs {
		for n, f := range p.funcs {
			all[n] = f
		}
	}
	stale := applyFixes(all)
	if len(stale) == 0 {
		return nil
	}
	sort.Strings(stale)
	return fmt.Errorf("fixes.go names what the pinned editors lack: %s", strings.Join(stale, ", "))
}
