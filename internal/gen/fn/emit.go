package main

import (
	"fmt"
	"strings"

	"github.com/vigorvim/vigor/internal/gen/internal/gen"
)

// The documentation of the rules, in std/fn's package doc; vimfn and
// nvimfn point to it.
const rulesDoc = `
# Names

A wrapper's name is the editor's name with its first letter upper case and
each underscore removed with the letter after it made upper case:
getbufline is Getbufline, popup_create is PopupCreate, hlID is HlID. As
every wrapper is exported, a function whose name is a Go keyword (and, or,
function, repeat) needs no other name.

# Optional parameters

A function with optional parameters has one wrapper per number of
arguments it takes. The one with the required parameters only has the
wrapper's name; each longer one has that name followed by the Go name of
its last parameter, upper-cased: Getline(ctx, c, lnum) calls getline(lnum)
and GetlineEnd(ctx, c, lnum, end) calls getline(lnum, end); Search,
SearchFlags, SearchStopline, SearchTimeout and SearchSkip call search()
with 1 to 5 arguments. When that name is taken by another wrapper, the
number of arguments is appended (the fallback; the package lists the
names it gave, if any). A function that takes any number of further
arguments (printf) has one wrapper whose last parameter is args ...any.

Parameters are named after the editor's documentation, in lower camel
case; a name that is a Go keyword or predeclared identifier, or one the
wrappers use (ctx, c, v, err), gets "Arg" appended (typeArg, funcArg). A
parameter that the sources do not name (a literal in Vim's table, or one
that only Vim's compiler shows) is argN, N its position from 1.

# Sources

The functions, parameters and types come from Vim's doc/builtin.txt
(the table of its first section) and Neovim's lua/vim/_meta/vimfn.lua,
and which editor has a function from exists() in each. The numbers of
arguments of Vim's functions are checked with Vim's compiler, which
refuses a call of a builtin function with too many or too few arguments
in a :def function without running it; where it disagrees with the table,
the compiler wins and the wrapper's doc says so. Neovim has no such check
that does not call the function: its numbers are vimfn.lua's, corrected
where Neovim refuses what vimfn.lua documents (str2float() takes one
argument).

# Types

Results and parameters are Go types by one rule: Number is int, Float is
float64, String is string, Blob is []byte, a List is []any and a Dict is
map[string]any unless the source gives the element type (a Neovim
string[] is []string, integer[] is []int, a class such as
vim.fn.getbufinfo.ret.item is map[string]any), and any, mixed or unknown
types are any. A result that Vim's table gives as Bool, or Neovim's
vimfn.lua as boolean or as the Numbers 0|1, is a bool (a Number result is
true when it is not zero). A function without a result (Vim's table says
none, Neovim's nil) returns an error only. A union of Number and Float is
float64; other unions are any. A parameter is typed where Neovim's
vimfn.lua gives its type (a Number parameter is int, a List of Strings
[]string), and any otherwise; Lua's number (a Number or a Float) and the
Number literals 0|1 stay any and int for a parameter, so that the editor
gets the kind of value it expects, and a List of values of any type is
any, so that a slice of any element type can be passed. A nil slice
argument is an empty List (fn.Setqflist(ctx, c, nil) makes a new, empty
list).

For a function both editors have, parameter names come from Vim's table
(what :help shows), parameter types from Neovim's vimfn.lua, and the
arities are those both editors take. The result is the type that says
more when one source refines the other (Vim's List and Neovim's string[]
is []string; Vim's Number and Neovim's 0|1 is bool); where they disagree
the result is the wider type, and the wrapper's doc says so.

Where the sources' words mislead these rules, each editor's :help
description of the function decides, and the wrapper's doc says why:

  - A Number that is a count, a code or a status is an int even where
    vimfn.lua gives 0|1: Char2nr (a character's code), Filewritable (2 for
    a directory), Executable, Haslocaldir, Islocked, Chansend (bytes
    written), Chanclose, and Append, Appendbufline and the Assert*
    functions, whose 1 is a failure. Only a test documented as TRUE or
    FALSE (Has, Exists, Filereadable, Bufexists...) is a bool.
  - A result whose type a flag argument changes is any at the arities
    that take the flag: GlobList and GlobpathList (a List when list is
    TRUE), ReadfileTypeArg (a Blob for "B"), ExpandList, GetregList,
    MapargDict, SubmatchList; the shorter arities keep their type (Glob
    and Globpath are strings).
  - A line number is any, so that it can be a Number or a String such as
    "$" (Getbufline, GetbuflineEnd, Getbufoneline, Setbufline,
    Appendbufline), Appendbufline's text is a String or a List, and a Dict
    parameter is a map (MatchaddDict, MatchaddposDict, and Setcharsearch,
    which has no result).
  - Getenv is a *string, nil when the variable is not set (getenv()
    returns v:null then).
  - Abs is generic, Abs[T int | float64]: Vim's abs() returns a Number
    for a Number and a Float for a Float, so the result has the
    argument's type and an int keeps every digit (a float64 holds
    integers up to 2^53 only). Its argument is an int or a float64.

# Availability and batches

Every wrapper takes a vigor.Caller: a *vigor.Plugin, or a batch, in which
the call is recorded and the wrapper returns the zero value (see
vigor.Caller). A wrapper of a function that only one editor has (packages
vimfn and nvimfn) returns an error naming the function and the editor,
without calling the editor, when c.Meta().Host is the other editor.
`

func (p *pkg) emit() ([]byte, error) {
	var b strings.Builder
	b.WriteString("// Code generated by internal/gen/fn from the pinned editors; DO NOT EDIT.\n\n")
	p.writeDoc(&b)
	fmt.Fprintf(&b, "package %s\n\nimport (\n\t\"context\"\n\n\t\"github.com/vigorvim/vigor\"\n", p.name)
	if p.needsAvail() {
		b.WriteString("\t\"github.com/vigorvim/vigor/std/internal/avail\"\n")
	}
	b.WriteString(")\n")
	for _, w := range p.wrappers {
		p.writeWrapper(&b, w)
	}
	return gen.Format([]byte(b.String()))
}

func (p *pkg) needsAvail() bool {
	if p.only != "" {
		return true
	}
	for _, w := range p.wrappers {
		if w.result == "bool" {
			return true
		}
	}
	return false
}

func (p *pkg) writeDoc(b *strings.Builder) {
	c := p.counts
	calls := len(p.wrappers)
	cover := fmt.Sprintf("Coverage, from Vim %s and Neovim %s: %d functions both editors have (package fn), "+
		"%d only Vim has (package vimfn), %d only Neovim has (package nvimfn); "+
		"skipped: %d in fn, %d Vim functions in vimfn, %d Neovim functions in nvimfn. "+
		"The nvim_* functions are Neovim's API, in package nvimapi.",
		gen.VimVersion, gen.NvimVersion, c.common, c.vim, c.nvim, c.commonSkipped, c.vimSkipped, c.nvimSkipped)
	var lines []string
	switch p.only {
	case "":
		lines = append(lines, fmt.Sprintf("Package fn wraps the builtin functions that both Vim %s and Neovim %s have, one typed Go function per function and number of arguments (%d functions, %d wrappers). Vim-only functions are in package vimfn and Neovim-only ones in package nvimfn, with the same rules.", gen.VimVersion, gen.NvimVersion, c.common, calls))
		lines = append(lines, "", cover)
		lines = append(lines, strings.Split(strings.TrimRight(rulesDoc, "\n"), "\n")...)
	case "vim":
		lines = append(lines, fmt.Sprintf("Package vimfn wraps the builtin functions that Vim %s has and Neovim %s does not (%d functions, %d wrappers). Under Neovim each wrapper returns an error without calling the editor. Names and types follow the rules of package fn.", gen.VimVersion, gen.NvimVersion, c.vim, calls))
		lines = append(lines, "", cover)
	case "nvim":
		lines = append(lines, fmt.Sprintf("Package nvimfn wraps the builtin functions that Neovim %s has and Vim %s does not (%d functions, %d wrappers). Under Vim each wrapper returns an error without calling the editor. Names and types follow the rules of package fn.", gen.NvimVersion, gen.VimVersion, c.nvim, calls))
		lines = append(lines, "", cover)
	}
	if len(p.skipped) > 0 {
		lines = append(lines, "", "# Skipped", "", "These functions have no wrapper:", "")
		for _, s := range p.skipped {
			lines = append(lines, fmt.Sprintf("  - %s(): %s", s.name, s.why))
		}
	}
	if len(p.renames) > 0 {
		lines = append(lines, "", "Names given by the fallback:", "")
		for _, r := range p.renames {
			lines = append(lines, "  - "+r)
		}
	}
	b.WriteString(gen.Comment(lines))
}

func (p *pkg) writeWrapper(b *strings.Builder, w wrapper) {
	f := w.fn
	ps := f.params[:w.n]
	var names, decl []string
	for _, q := range ps {
		names = append(names, q.name)
		decl = append(decl, q.name+" "+q.typ)
	}
	call := strings.Join(names, ", ")
	args := ""
	if len(names) > 0 {
		args = ", " + call
	}
	if f.variadic {
		decl = append(decl, "args ...any")
		call = strings.TrimPrefix(call+", args...", ", ")
		args = ", args..."
		if len(names) > 0 {
			args = fmt.Sprintf(", append([]any{%s}, args...)...", strings.Join(names, ", "))
		}
	}
	b.WriteString("\n")
	fmt.Fprintf(b, "// %s calls %s(%s). See :help %s().\n", w.goName, w.vim, call, w.vim)
	switch p.only {
	case "vim":
		b.WriteString("// Vim only: under Neovim it returns an error.\n")
	case "nvim":
		b.WriteString("// Neovim only: under Vim it returns an error.\n")
	}
	for _, n := range append(f.notes, f.arityNotes[w.n]) {
		if n != "" {
			b.WriteString("// " + n + "\n")
		}
	}
	if f.deprecated {
		b.WriteString("//\n// Deprecated: Neovim's vimfn.lua marks it deprecated.\n")
	}
	res := "error"
	if w.result != voidType {
		res = "(" + w.result + ", error)"
	}
	tparams := ""
	if f.typeParam != "" {
		tparams = "[" + f.typeParam + "]"
	}
	fmt.Fprintf(b, "func %s%s(ctx context.Context, c vigor.Caller%s) %s {\n",
		w.goName, tparams, strings.TrimSuffix(", "+strings.Join(decl, ", "), ", "), res)
	if p.only != "" {
		check := "Vim"
		if p.only == "nvim" {
			check = "Nvim"
		}
		fmt.Fprintf(b, "\tif err := avail.%s(c, %q, %q); err != nil {\n\t\treturn %s\n\t}\n",
			check, p.name+"."+w.goName, w.vim, strings.TrimPrefix(gen.Zero(w.result)+", err", ", "))
	}
	switch w.result {
	case voidType:
		fmt.Fprintf(b, "\treturn c.CallInto(ctx, nil, %q%s)\n", w.vim, args)
	case "bool":
		fmt.Fprintf(b, "\tv, err := vigor.CallAs[any](ctx, c, %q%s)\n\treturn avail.Truth(v), err\n", w.vim, args)
	default:
		fmt.Fprintf(b, "\treturn vigor.CallAs[%s](ctx, c, %q%s)\n", w.result, w.vim, args)
	}
	b.WriteString("}\n")
}
