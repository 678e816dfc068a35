package main

import (
	"strings"
)

// The Go types of the wrappers. A result that is none is voidType: the
// wrapper returns an error only.
const (
	voidType = ""
	anyType  = "any"
)

// vimResult is the Go type of a result in Vim's builtin.txt table: its
// words, such as "Number", "List/Blob" or "Float or Number".
func vimResult(words string) string {
	words = strings.TrimSpace(words)
	var types []string
	for _, alt := range strings.FieldsFunc(strings.ReplaceAll(words, " or ", "/"), func(r rune) bool { return r == '/' }) {
		types = append(types, vimWord(strings.TrimSpace(alt)))
	}
	return union(types...)
}

func vimWord(w string) string {
	switch w {
	case "Number":
		return "int"
	case "Float":
		return "float64"
	case "String":
		return "string"
	case "List":
		return "[]any"
	case "Dict", "Dictionary":
		return "map[string]any"
	case "Blob":
		return "[]byte"
	case "Bool", "Boolean":
		return "bool"
	case "none":
		return voidType
	}
	return anyType // any, Funcref, Job, Channel, Special...
}

// union is the Go type that holds every one of types: the type itself
// when they agree, float64 for Number and Float, any otherwise.
func union(types ...string) string {
	if len(types) == 0 {
		return anyType
	}
	u := types[0]
	for _, t := range types[1:] {
		switch {
		case t == u:
		case (t == "int" && u == "float64") || (t == "float64" && u == "int"):
			u = "float64"
		default:
			return anyType
		}
	}
	return u
}

// luaType is the Go type of a type annotation of Neovim's vimfn.lua (a
// LuaCATS type). result says whether it is a result: a union of the
// Numbers 0 and 1 is a Boolean result but a Number parameter, and Lua's
// number (a Number or a Float) is a float64 result but an any parameter,
// as a float64 argument would be a Float that some functions refuse.
func luaType(t string, result bool) string {
	t = strings.TrimSpace(t)
	if alts := splitTop(t, '|'); len(alts) > 1 {
		return luaUnion(alts, result)
	}
	if strings.HasPrefix(t, "(") && strings.HasSuffix(t, ")") {
		return luaType(t[1:len(t)-1], result)
	}
	if strings.HasSuffix(t, "[]") {
		e := luaType(t[:len(t)-2], result)
		if e == voidType || e == "bool" && !result {
			e = anyType
		}
		return "[]" + e
	}
	if strings.HasPrefix(t, "[") && strings.HasSuffix(t, "]") { // a tuple
		var es []string
		for _, e := range splitTop(t[1:len(t)-1], ',') {
			es = append(es, luaType(e, result))
		}
		if u := union(es...); u != "float64" || allSame(es) {
			return "[]" + u
		}
		return "[]any"
	}
	switch {
	case t == "integer":
		return "int"
	case t == "number":
		if result {
			return "float64"
		}
		return anyType
	case t == "string" || isStringLit(t):
		return "string"
	case t == "boolean" || t == "true" || t == "false":
		return "bool"
	case isIntLit(t):
		return "int"
	case strings.HasPrefix(t, "table<string,"), strings.HasPrefix(t, "table<string, "):
		v := luaType(strings.TrimSuffix(t[strings.Index(t, ",")+1:], ">"), result)
		return "map[string]" + v
	case strings.HasPrefix(t, "vim.fn.") || strings.HasPrefix(t, "vim.quickfix."):
		return "map[string]any" // a class: a Dict with known keys
	case t == "nil":
		return voidType
	}
	return anyType // any, table, T, function, fun(...), unknown
}

// luaUnion is the Go type of a union of LuaCATS types.
func luaUnion(alts []string, result bool) string {
	ints, strs, bools := 0, 0, 0
	var zeroOne = true
	for _, a := range alts {
		a = strings.TrimSpace(a)
		switch {
		case isIntLit(a):
			ints++
			if a != "0" && a != "1" {
				zeroOne = false
			}
		case isStringLit(a):
			strs++
		case a == "true" || a == "false" || a == "boolean":
			bools++
		}
	}
	switch len(alts) {
	case ints:
		if zeroOne && result {
			return "bool"
		}
		return "int"
	case strs:
		return "string"
	case bools:
		return "bool"
	}
	return anyType
}

func allSame(ts []string) bool {
	for _, t := range ts {
		if t != ts[0] {
			return false
		}
	}
	return true
}

func isIntLit(s string) bool {
	s = strings.TrimPrefix(s, "-")
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

func isStringLit(s string) bool {
	return len(s) >= 2 && (s[0] == '\'' && s[len(s)-1] == '\'' || s[0] == '"' && s[len(s)-1] == '"')
}

// splitTop splits s at sep outside brackets, parentheses and angles.
func splitTop(s string, sep rune) []string {
	var out []string
	depth, start := 0, 0
	for i, r := range s {
		switch r {
		case '(', '[', '<', '{':
			depth++
		case ')', ']', '>', '}':
			depth--
		case sep:
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	return append(out, strings.TrimSpace(s[start:]))
}

// merge is the Go type of a result of a function both editors have, from
// Vim's table (vim) and Neovim's annotation (nvim): the one that says more
// when one refines the other (Vim's List and Neovim's string[] is a
// []string; Vim's Number and Neovim's 0|1 a bool), and otherwise the wider
// type. agree is false when they disagree, so that the package doc can
// list it.
func merge(vim, nvim string) (t string, agree bool) {
	switch {
	case vim == nvim:
		return vim, true
	case vim == anyType:
		return nvim, true
	case nvim == anyType:
		return vim, true
	case vim == voidType || nvim == voidType:
		return voidType, false
	case vim == "int" && nvim == "bool":
		return "bool", true
	case vim == "int" && nvim == "float64": // Lua's number: a Number or a Float
		return "int", true
	case vim == "[]any" && strings.HasPrefix(nvim, "[]"):
		return nvim, true
	case vim == "map[string]any" && strings.HasPrefix(nvim, "map[string]"):
		return nvim, true
	}
	return union(vim, nvim), false
}

// mergeAlts is merge for a Neovim result that is a union: the members
// whose kind Vim's type allows decide (Vim's List and Neovim's
// string|string[] is a []string).
func mergeAlts(vim, nvimAnnot string) (string, bool) {
	whole := luaType(nvimAnnot, true)
	if alts := splitTop(nvimAnnot, '|'); whole == anyType && len(alts) > 1 && vim != anyType {
		var keep []string
		for _, a := range alts {
			if t, ok := merge(vim, luaType(a, true)); ok && t != anyType {
				keep = append(keep, t)
			}
		}
		if len(keep) > 0 && allSame(keep) {
			return keep[0], true
		}
	}
	return merge(vim, whole)
}
