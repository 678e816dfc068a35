// Package argument parses the arguments of a user command as Vim users
// write them:
//
//	:MyCommand ++enc=sjis ++ff=dos -f --foo=foo --bar=bar --bar="b z" hello world
//
// gives the options (++name[=value], as Vim's own ++enc, ++ff, ++bad), the
// flags (-f, --name[=value]) and the rest. The package needs no editor.
//
// Pass the command's arguments to Go with <q-args>, the text as the user
// typed it, and parse it with Parse:
//
//	command! -nargs=* MyCommand call vigor#notify('myplugin', 'my', [<q-args>])
//
//	p.Handle("my", func(ctx context.Context, line string) error {
//		a, err := argument.Parse(line)
//		...
//	})
//
// Do not give such a command -bar: with it, Vim takes a '"' for the start
// of a comment and a '|' for the end of the command.
//
// # Splitting
//
// Parse splits the text with Split, which splits it as Vim splits
// <f-args> (FArgs), and reads quotes as well:
//
//   - Arguments are separated by spaces and tabs.
//   - A backslash before a space, a tab or a backslash stands for that
//     character (so "a\ b" is one argument "a b"); any other backslash is
//     itself ("C:\Users" stays as it is). So far this is <f-args>.
//   - A double or a single quote at the start of an argument, or right
//     after an '=' in it, begins a quoted part, which ends at the same
//     quote and may hold spaces: "a b" and --name="a b" are one argument
//     each. In double quotes, a backslash before a double quote or a
//     backslash stands for it; in single quotes nothing is special but
//     two single quotes, which stand for one (as in a Vim literal
//     string). A quote in the middle of a word is just a
//     character: don't, 5'11".
//   - A backslash before a quote stands for the quote: \"a is the
//     argument "a (a '"' and an a).
//
// Join is the inverse of Split: Split(Join(args)) gives args back.
//
// # Options, flags and the rest
//
//   - An argument "++name" or "++name=value" is an option: Opts[name] is
//     value ("" for ++name). A name is ASCII letters, digits, '-' and '_',
//     starting with a letter or a digit. An option given twice is an
//     error, as is a malformed one ("++", "++=x").
//   - "--name" or "--name=value" is a long flag, and "-x" or "-xvalue" a
//     short flag, whose name is one ASCII letter and whose value is the
//     rest of the argument ("-n10" is n with the value "10", "-abc" is a
//     with the value "bc"). Flags[name] has the values in the order given
//     ("" for a flag without one), so a flag may be repeated. "-" and an
//     argument that starts with '-' and then a character other than a
//     letter or '-' ("-5", "-.5") are not flags.
//   - Everything else is Rest, in order. "--" ends the options and flags:
//     the arguments after it are Literal, as they are.
//
// Options and flags may come anywhere before "--". Format writes Args back
// as a line that Parse reads into the same Args; ValidateOpts and
// ValidateFlags check the names against the ones a command knows, with
// an error that names the unknown ones.
package argument

import (
	"fmt"
	"sort"
	"strings"
)

// Args are a command's arguments, parsed. Parse and ParseFields give
// non-nil Opts and Flags, empty when there are none.
type Args struct {
	// Opts are the ++name[=value] arguments.
	Opts Opts
	// Flags are the -x[value] and --name[=value] arguments.
	Flags Flags
	// Rest are the other arguments before "--", in order.
	Rest []string
	// Literal are the arguments after "--", as they are; nil when there
	// is no "--", empty when nothing follows it.
	Literal []string
}

// Opts are options (++name=value) by name; an option without a value has
// the value "".
type Opts map[string]string

// Flags are flags by name, with their values in the order given; a flag
// without a value has the value "".
type Flags map[string][]string

// Has reports whether the flag name was given.
func (f Flags) Has(name string) bool { return len(f[name]) > 0 }

// Get returns the last value given for the flag name, or "" when it was
// not given.
func (f Flags) Get(name string) string {
	vs := f[name]
	if len(vs) == 0 {
		return ""
	}
	return vs[len(vs)-1]
}

// BuiltinOpts returns the names of Vim's own ++opt arguments (:help
// ++opt), long and short: those of Vim 9.0.1378 and "p" (:write ++p,
// which Neovim has and Vim 9.0.1378 does not).
func BuiltinOpts() []string {
	return []string{"bad", "bin", "binary", "edit", "enc", "encoding", "ff", "fileformat", "nobin", "nobinary", "p"}
}

// Parse splits line, a command's <q-args>, with Split and parses the
// arguments with ParseFields.
func Parse(line string) (Args, error) {
	args, err := split("argument.Parse", line, true)
	if err != nil {
		return Args{}, err
	}
	return parseFields("argument.Parse", args)
}

// ParseFields parses arguments already split, such as a command's
// [<f-args>], into options, flags, the rest and the literal arguments.
func ParseFields(args []string) (Args, error) {
	return parseFields("argument.ParseFields", args)
}

func parseFields(fn string, args []string) (Args, error) {
	opts, rest, err := parseOpts(fn, args)
	if err != nil {
		return Args{}, err
	}
	flags, rest, err := parseFlags(fn, rest)
	if err != nil {
		return Args{}, err
	}
	a := Args{Opts: opts, Flags: flags}
	for i, arg := range rest {
		if arg == "--" {
			a.Literal = append([]string{}, rest[i+1:]...)
			break
		}
		a.Rest = append(a.Rest, arg)
	}
	return a, nil
}

// ParseOpts takes the options (++name[=value]) out of args, up to a "--",
// and returns them and the other arguments, in order ("--" and what
// follows it included).
func ParseOpts(args []string) (Opts, []string, error) {
	return parseOpts("argument.ParseOpts", args)
}

func parseOpts(fn string, args []string) (Opts, []string, error) {
	opts := Opts{}
	var rest []string
	for i, arg := range args {
		if arg == "--" {
			rest = append(rest, args[i:]...)
			break
		}
		if !strings.HasPrefix(arg, "++") {
			rest = append(rest, arg)
			continue
		}
		name, value, _ := strings.Cut(arg[2:], "=")
		if !validName(name) {
			return nil, nil, fmt.Errorf("%s: %q is not an option: write ++name or ++name=value, the name of letters, digits, '-' and '_'", fn, arg)
		}
		if _, ok := opts[name]; ok {
			return nil, nil, fmt.Errorf("%s: ++%s is given twice", fn, name)
		}
		opts[name] = value
	}
	return opts, rest, nil
}

// ParseFlags takes the flags (-x[value], --name[=value]) out of args, up
// to a "--", and returns them and the other arguments, in order ("--" and
// what follows it included).
func ParseFlags(args []string) (Flags, []string, error) {
	return parseFlags("argument.ParseFlags", args)
}

func parseFlags(fn string, args []string) (Flags, []string, error) {
	flags := Flags{}
	var rest []string
	for i, arg := range args {
		switch {
		case arg == "--":
			rest = append(rest, args[i:]...)
			return flags, rest, nil
		case strings.HasPrefix(arg, "--"):
			name, value, _ := strings.Cut(arg[2:], "=")
			if !validName(name) {
				return nil, nil, fmt.Errorf("%s: %q is not a flag: write --name or --name=value, the name of letters, digits, '-' and '_'", fn, arg)
			}
			flags[name] = append(flags[name], value)
		case len(arg) >= 2 && arg[0] == '-' && isLetter(arg[1]):
			flags[arg[1:2]] = append(flags[arg[1:2]], arg[2:])
		default:
			rest = append(rest, arg)
		}
	}
	return flags, rest, nil
}

// validName reports whether name is the name of an option or a long flag.
func validName(name string) bool {
	if name == "" || name[0] == '-' || name[0] == '_' {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !isLetter(c) && !('0' <= c && c <= '9') && c != '-' && c != '_' {
			return false
		}
	}
	return true
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// ValidateOpts fails when opts has an option whose name is not in known,
// naming every such option.
func ValidateOpts(opts Opts, known ...string) error {
	var unknown []string
	for name := range opts {
		if !contains(known, name) {
			unknown = append(unknown, "++"+name)
		}
	}
	return unknownError("argument.ValidateOpts", "option", unknown, known, func(n string) string { return "++" + n })
}

// ValidateFlags fails when flags has a flag whose name is not in known,
// naming every such flag.
func ValidateFlags(flags Flags, known ...string) error {
	var unknown []string
	for name := range flags {
		if !contains(known, name) {
			unknown = append(unknown, flagName(name))
		}
	}
	return unknownError("argument.ValidateFlags", "flag", unknown, known, flagName)
}

func contains(list []string, s string) bool {
	for _, l := range list {
		if l == s {
			return true
		}
	}
	return false
}

// unknownError is the error of a Validate function, or nil when no name
// is unknown.
func unknownError(fn, what string, unknown, known []string, spell func(string) string) error {
	if len(unknown) == 0 {
		return nil
	}
	sort.Strings(unknown)
	if len(unknown) > 1 {
		what += "s"
	}
	if len(known) == 0 {
		return fmt.Errorf("%s: unknown %s %s (this command takes none)", fn, what, strings.Join(unknown, ", "))
	}
	spelled := make([]string, len(known))
	for i, k := range known {
		spelled[i] = spell(k)
	}
	return fmt.Errorf("%s: unknown %s %s (known: %s)", fn, what, strings.Join(unknown, ", "), strings.Join(spelled, ", "))
}

// flagName spells the flag name as Format writes it: -x for a one-letter
// name, --name for the others.
func flagName(name string) string {
	if len(name) == 1 && isLetter(name[0]) {
		return "-" + name
	}
	return "--" + name
}

// FormatOpts writes opts as arguments, sorted by name: ++name=value, or
// ++name for the value "". It does not check the names; Format does.
func FormatOpts(opts Opts) []string {
	names := make([]string, 0, len(opts))
	for name := range opts {
		names = append(names, name)
	}
	sort.Strings(names)
	out := make([]string, 0, len(names))
	for _, name := range names {
		if v := opts[name]; v != "" {
			out = append(out, "++"+name+"="+v)
		} else {
			out = append(out, "++"+name)
		}
	}
	return out
}

// FormatFlags writes flags as arguments, sorted by name and each value in
// order: -xvalue for a one-letter name, --name=value for the others, and
// -x or --name for the value "". It does not check the names; Format
// does.
func FormatFlags(flags Flags) []string {
	names := make([]string, 0, len(flags))
	for name := range flags {
		names = append(names, name)
	}
	sort.Strings(names)
	var out []string
	for _, name := range names {
		short := len(name) == 1 && isLetter(name[0])
		for _, v := range flags[name] {
			switch {
			case short:
				out = append(out, "-"+name+v)
			case v == "":
				out = append(out, "--"+name)
			default:
				out = append(out, "--"+name+"="+v)
			}
		}
	}
	return out
}

// Format writes a as a line of arguments that Parse reads into a again
// (options and flags sorted by name, a flag's values in order). It fails
// when a name is not one that Parse reads, or when an argument of Rest
// would read as an option or a flag (put those in Literal).
func Format(a Args) (string, error) {
	for name := range a.Opts {
		if !validName(name) {
			return "", fmt.Errorf("argument.Format: %q is not an option name: it has letters, digits, '-' and '_', and starts with a letter or a digit", name)
		}
	}
	for name := range a.Flags {
		if !validName(name) {
			return "", fmt.Errorf("argument.Format: %q is not a flag name: it has letters, digits, '-' and '_', and starts with a letter or a digit", name)
		}
	}
	for _, r := range a.Rest {
		if strings.HasPrefix(r, "++") || r == "--" || len(r) >= 2 && r[0] == '-' && (r[1] == '-' || isLetter(r[1])) {
			return "", fmt.Errorf("argument.Format: the argument %q of Rest would read as an option or a flag; put it in Literal", r)
		}
	}
	args := append(FormatOpts(a.Opts), FormatFlags(a.Flags)...)
	args = append(args, a.Rest...)
	if a.Literal != nil {
		args = append(args, "--")
		args = append(args, a.Literal...)
	}
	return Join(args), nil
}
