package main

import (
	"bufio"
	"fmt"
	"regexp"
	"strings"
)

// A row is one signature of a function: a row of Vim's table, or one
// function definition of Neovim's vimfn.lua (a function may have several).
type row struct {
	name     string
	params   []param
	required int    // how many of params must be given
	variadic bool   // any number of arguments may follow params
	elided   bool   // Vim's table shows further optional ones as [...]
	result   string // Vim: the result words; Neovim: the LuaCATS type
	typed    bool   // params carry LuaCATS types (Neovim)
	noted    bool   // Neovim marks the function @deprecated
}

// A param is one parameter: its editor name ("" for a literal such as the
// -1 of argv([-1, {winid}])) and, from Neovim, its LuaCATS type.
type param struct {
	name string
	typ  string
}

// accepts reports whether the row takes n arguments.
func (r row) accepts(n int) bool {
	return n >= r.required && (n <= len(r.params) || r.variadic)
}

var (
	vimRowStart = regexp.MustCompile(`^([a-zA-Z][a-zA-Z0-9_]*)\(`)
	resultEnd   = regexp.MustCompile(`\t|  `)
	bareName    = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)
)

// vimOverrides are rows of the table that the parser cannot read as
// written, in the parser's form.
var vimOverrides = map[string]string{
	// Its second argument is a List of Lists, shown as a literal.
	"prop_add_list": "prop_add_list({props}, {items})",
}

// parseVimTable reads the summary table of builtin.txt (between
// *builtin-function-list* and *builtin-function-details*): one row per
// usage, which may wrap onto the following lines (the result then starts
// a line indented by tabs).
func parseVimTable(text string) ([]row, error) {
	start := strings.Index(text, "*builtin-function-list*")
	end := strings.Index(text, "*builtin-function-details*")
	if start < 0 || end < start {
		return nil, fmt.Errorf("builtin.txt: no *builtin-function-list* ... *builtin-function-details* section")
	}
	var rows []row
	var cur []string // the lines of the current row
	flush := func() error {
		if len(cur) == 0 {
			return nil
		}
		r, err := parseVimRow(strings.Join(cur, "\n"))
		cur = nil
		if err != nil {
			return err
		}
		rows = append(rows, r)
		return nil
	}
	sc := bufio.NewScanner(strings.NewReader(text[start:end]))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case vimRowStart.MatchString(line):
			if err := flush(); err != nil {
				return nil, err
			}
			cur = []string{line}
		case len(cur) > 0 && strings.HasPrefix(line, "\t"):
			cur = append(cur, line)
		default:
			if err := flush(); err != nil {
				return nil, err
			}
		}
	}
	if err := flush(); err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("builtin.txt: the function table is empty")
	}
	return rows, nil
}

// parseVimRow reads one row: "name(args)<tabs>Result<tabs>description",
// the result possibly on the next line.
func parseVimRow(text string) (row, error) {
	name := vimRowStart.FindStringSubmatch(text)[1]
	// The usage ends at the parenthesis that closes the first one.
	depth, close := 0, -1
	for i, r := range text {
		if r == '(' {
			depth++
		} else if r == ')' {
			depth--
			if depth == 0 {
				close = i
				break
			}
		}
	}
	if close < 0 {
		return row{}, fmt.Errorf("builtin.txt: %s: no closing parenthesis in %q", name, text)
	}
	usage := text[:close+1]
	if o, ok := vimOverrides[name]; ok {
		usage = o
	}
	r, err := parseUsage(name, usage[len(name)+1:len(usage)-1])
	if err != nil {
		return row{}, err
	}
	rest := strings.TrimLeft(text[close+1:], " \t\n")
	r.result = resultEnd.Split(rest, 2)[0]
	r.result = strings.TrimSpace(strings.SplitN(r.result, "\n", 2)[0])
	if r.result == "" {
		return row{}, fmt.Errorf("builtin.txt: %s: no result type", name)
	}
	return r, nil
}

// parseUsage reads the arguments of a usage: {name} items separated by
// commas, optional ones inside brackets (nested or in a row), a literal
// item (such as -1) as a parameter without a name, and "..." for any
// number of further arguments.
func parseUsage(name, args string) (row, error) {
	r := row{name: name, required: -1}
	depth := 0
	item := func(p string) {
		if depth == 0 {
			r.required = len(r.params) + 1
		}
		r.params = append(r.params, param{name: p})
	}
	for i := 0; i < len(args); {
		c := args[i]
		switch {
		case strings.HasPrefix(args[i:], "[...]"):
			r.elided = true
			i += 5
		case strings.HasPrefix(args[i:], "..."):
			// {expr1}... : expr1 is the first of any number of arguments.
			r.variadic = true
			if n := len(r.params); n > 0 {
				r.params = r.params[:n-1]
				r.required = min(r.required, n-1)
			}
			i += 3
		case c == '[':
			depth++
			i++
		case c == ']':
			// A stray ] (indexof's row has one) closes nothing.
			depth = max(depth-1, 0)
			i++
		case c == ',' || c == ' ':
			i++
		case c == '{':
			j := strings.IndexByte(args[i:], '}')
			if j < 0 {
				return row{}, fmt.Errorf("builtin.txt: %s: unclosed { in %q", name, args)
			}
			item(args[i+1 : i+j])
			i += j + 1
		default: // a literal, or a name without braces (visualmode([expr]))
			j := strings.IndexAny(args[i:], ",[] ")
			if j < 0 {
				j = len(args) - i
			}
			lit := args[i : i+j]
			if bareName.MatchString(lit) {
				item(lit)
			} else {
				item("")
			}
			i += j
		}
	}
	if depth != 0 {
		return row{}, fmt.Errorf("builtin.txt: %s: unbalanced brackets in %q", name, args)
	}
	if r.required < 0 {
		r.required = 0
	}
	return r, nil
}

var (
	luaParam = regexp.MustCompile(`^--- @param ([A-Za-z_][A-Za-z0-9_]*)(\??) (.+)$`)
	luaRet   = regexp.MustCompile(`^--- @return (\S+(?: \S+)*?)(?:\s+#.*)?$`)
	luaFunc  = regexp.MustCompile(`^(?:function vim\.fn\.([A-Za-z0-9_]+)\(|vim\.fn\['([A-Za-z0-9_]+)'\] = function\()`)
)

// parseVimfnLua reads Neovim's lua/vim/_meta/vimfn.lua: the @param and
// @return annotations before each function definition. A function
// defined more than once (overloads) gives a row per definition.
func parseVimfnLua(text string) ([]row, error) {
	var rows []row
	var cur row
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "--- @param ... ") {
			cur.variadic = true
			continue
		}
		if m := luaParam.FindStringSubmatch(line); m != nil {
			cur.params = append(cur.params, param{name: m[1], typ: m[3]})
			if m[2] == "" {
				cur.required = len(cur.params)
			}
			continue
		}
		if m := luaRet.FindStringSubmatch(line); m != nil {
			cur.result = m[1]
			continue
		}
		if line == "--- @deprecated" {
			cur.noted = true
			continue
		}
		if m := luaFunc.FindStringSubmatch(line); m != nil {
			cur.name = m[1] + m[2]
			cur.typed = true
			if cur.result == "" {
				cur.result = "any"
			}
			rows = append(rows, cur)
			cur = row{}
			continue
		}
		if !strings.HasPrefix(line, "---") {
			cur = row{}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("vimfn.lua: no function definitions")
	}
	return rows, nil
}
