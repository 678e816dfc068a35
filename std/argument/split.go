package argument

import (
	"fmt"
	"strings"
)

func isBlank(c byte) bool { return c == ' ' || c == '\t' }

// FArgs splits qargs, a command's <q-args>, exactly as Vim splits the
// same text for <f-args> (:help <f-args>): at runs of spaces and tabs; a
// backslash before a space, a tab or a backslash stands for that
// character, and any other backslash is itself. Quotes are characters.
// An empty or blank qargs gives no arguments.
func FArgs(qargs string) []string {
	args, _ := split("argument.FArgs", qargs, false)
	return args
}

// Split splits line, a command's <q-args>, into arguments: as FArgs does,
// and with quoted parts (see the package documentation). It fails when a
// quote is not closed.
func Split(line string) ([]string, error) {
	return split("argument.Split", line, true)
}

// split splits line as FArgs does, and also as Split does when quotes is
// set; only then can it fail.
func split(fn, line string, quotes bool) ([]string, error) {
	escaped := " \t\\"
	if quotes {
		escaped += "\"'"
	}
	var out []string
	var arg []byte
	in := false // in an argument
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case isBlank(c):
			if in {
				out = append(out, string(arg))
				arg, in = arg[:0], false
			}
			continue
		case c == '\\':
			if i+1 < len(line) && strings.IndexByte(escaped, line[i+1]) >= 0 {
				i++
			}
			arg = append(arg, line[i])
		case quotes && (c == '"' || c == '\'') && (!in || len(arg) > 0 && arg[len(arg)-1] == '='):
			end, part, ok := quoted(line, i)
			if !ok {
				return nil, fmt.Errorf("%s: the %c at byte %d is not closed", fn, c, i)
			}
			arg = append(arg, part...)
			i = end
		default:
			arg = append(arg, c)
		}
		in = true
	}
	if in {
		out = append(out, string(arg))
	}
	return out, nil
}

// quoted reads the quoted part of line that starts at line[start], a
// double or a single quote, and returns the index of its closing quote and its text.
func quoted(line string, start int) (end int, part []byte, ok bool) {
	q := line[start]
	for i := start + 1; i < len(line); i++ {
		c := line[i]
		switch {
		case q == '"' && c == '\\' && i+1 < len(line) && (line[i+1] == '"' || line[i+1] == '\\'):
			i++
			part = append(part, line[i])
		case c == q && q == '\'' && i+1 < len(line) && line[i+1] == '\'':
			i++
			part = append(part, c)
		case c == q:
			return i, part, true
		default:
			part = append(part, c)
		}
	}
	return 0, nil, false
}

// Join writes args as a line that Split splits into args again: an
// argument that is empty or has a space, a tab, a backslash or a quote is
// written in double quotes, with \" and \\ for its quotes and
// backslashes (only its value for name=value, when the name needs no
// quotes: --msg="a b"); the others are written as they are.
func Join(args []string) string {
	var s strings.Builder
	for i, a := range args {
		if i > 0 {
			s.WriteByte(' ')
		}
		if a != "" && !strings.ContainsAny(a, " \t\\\"'") {
			s.WriteString(a)
			continue
		}
		// Quote only the value of a name=value whose name needs no
		// quotes: --msg="a b".
		if k := strings.IndexByte(a, '='); k > 0 && !strings.ContainsAny(a[:k], " \t\\\"'") {
			s.WriteString(a[:k+1])
			a = a[k+1:]
		}
		s.WriteByte('"')
		for j := 0; j < len(a); j++ {
			if a[j] == '"' || a[j] == '\\' {
				s.WriteByte('\\')
			}
			s.WriteByte(a[j])
		}
		s.WriteByte('"')
	}
	return s.String()
}
