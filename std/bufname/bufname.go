// Package bufname formats and parses buffer names of the form
//
//	{scheme}://{expr}[;{params}][#{fragment}]
//
// which plugins give to buffers that are not files (a Git object, a
// directory listing, a search result), so that a BufReadCmd autocmd on
// "{scheme}://*" can load them and the plugin can tell, from the name
// alone, what the buffer shows:
//
//	gitshow:///home/me/repo;commit=HEAD~1#main.go
//	└──┬──┘   └────┬─────┘ └───┬──────┘ └──┬──┘
//	 scheme       expr       params     fragment
//
// The package needs no editor: Format and Parse are pure functions, and
// Parse(Format(b)) gives b back for every Bufname that Format accepts
// (with the normalisation said at Bufname).
//
// # Scheme
//
// A scheme is two or more ASCII letters, with '-' allowed between them
// ("git", "my-plugin"): that is what both editors take for a URL. A name
// whose scheme has a digit, an underscore or a dot, or a one-letter scheme
// (which Neovim takes for a Windows drive), is a file name to the
// editors: they make it absolute and change it when the current directory
// changes.
//
// # Escaping
//
// Format writes every part as it is, except for the bytes below, which it
// writes as %XX (upper-case hexadecimal); Parse decodes every %XX, upper
// or lower case, so it reads names that deno-denops-std's bufname module
// writes too.
//
//   - In every part: '%' itself; '"', '<', '>', '|', '?' and '*', which
//     Vim cannot have in a buffer name on Windows (and which are
//     wildcards to bufnr() and bufname()); control characters (below
//     0x20, and 0x7F), so that a name is one line and has no NUL for the
//     editor to cut it at; and each byte of invalid UTF-8, which a JSON
//     channel cannot carry.
//   - In expr: ';' and '#', which would start the params or the fragment.
//   - In params keys and values: '#', '&', '=' and '+'. Parse reads a '+'
//     in params as a space (as a URL query does, and as deno-denops-std
//     writes a space); Format writes a space as a space.
//
// Everything else (spaces, non-ASCII text, '/', '\', ':') stays as it
// is, so that names stay readable in the status line and in :ls. The
// fragment is the text after the first '#': a '#' or ';' in it stays as
// it is. Use the fragment to give the buffer a suffix that filetype
// detection sees ("#main.go").
//
// # What Parse rejects
//
// Parse fails, with an error that names the problem and where it is, for
// a name with no "{scheme}://", a scheme that is not one (see above), a
// character that Format always escapes ('"', '<', '>', '|', '?', '*', a
// control character, invalid UTF-8), and a '%' that does not start a %XX
// escape. What Parse accepts, Format writes back as a name that Parse reads
// into the same Bufname.
//
// Open such a name with fnameescape() (":execute 'edit' fnameescape(name)")
// or the buffer functions, not by pasting it after :edit, where '%', '#'
// and spaces mean something else.
package bufname

import (
	"fmt"
	"net/url"
	"sort"
	"strings"
	"unicode/utf8"
)

// Bufname is a buffer name, in parts.
//
// Params are the name's parameters, each key with its values in order; a
// key without values is not written, and Parse returns nil Params for a
// name without any, so compare an empty Params as nil. An empty Fragment
// is no fragment: Format writes no '#' for it.
type Bufname struct {
	// Scheme tells the kind of buffer: two or more ASCII letters, with
	// '-' between letters.
	Scheme string
	// Expr identifies the buffer: a path, an object name, anything.
	Expr string
	// Params add information, as a URL's query does.
	Params url.Values
	// Fragment ends the name, for filetype detection and the like.
	Fragment string
}

// The sets of bytes that each part escapes, besides the ones every part
// escapes (see escapeAlways).
const (
	exprEscapes     = ";#"
	paramEscapes    = "#&=+"
	fragmentEscapes = ""
)

// escapeAlways reports whether Format escapes c, an ASCII byte, in every
// part of a name.
func escapeAlways(c byte) bool {
	return c < 0x20 || c == 0x7f || strings.IndexByte(`%"<>|?*`, c) >= 0
}

// Format writes b as a buffer name. It fails only when b.Scheme is not a
// scheme.
func Format(b Bufname) (string, error) {
	if err := checkScheme(b.Scheme); err != nil {
		return "", fmt.Errorf("bufname.Format: %w", err)
	}
	var s strings.Builder
	s.WriteString(b.Scheme)
	s.WriteString("://")
	escape(&s, b.Expr, exprEscapes)
	if len(b.Params) > 0 {
		keys := make([]string, 0, len(b.Params))
		for k, vs := range b.Params {
			if len(vs) > 0 {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		sep := byte(';')
		for _, k := range keys {
			for _, v := range b.Params[k] {
				s.WriteByte(sep)
				sep = '&'
				escape(&s, k, paramEscapes)
				s.WriteByte('=')
				escape(&s, v, paramEscapes)
			}
		}
	}
	if b.Fragment != "" {
		s.WriteByte('#')
		escape(&s, b.Fragment, fragmentEscapes)
	}
	return s.String(), nil
}

// escape writes part to s, each byte that every part escapes, each byte
// in extra and each byte of invalid UTF-8 as %XX.
func escape(s *strings.Builder, part, extra string) {
	const hex = "0123456789ABCDEF"
	for i := 0; i < len(part); {
		c := part[i]
		if c >= utf8.RuneSelf {
			r, n := utf8.DecodeRuneInString(part[i:])
			if r != utf8.RuneError || n > 1 {
				s.WriteString(part[i : i+n])
				i += n
				continue
			}
		} else if !escapeAlways(c) && strings.IndexByte(extra, c) < 0 {
			s.WriteByte(c)
			i++
			continue
		}
		s.WriteByte('%')
		s.WriteByte(hex[c>>4])
		s.WriteByte(hex[c&0xf])
		i++
	}
}

// checkScheme says what is wrong with scheme, if anything.
func checkScheme(scheme string) error {
	if len(scheme) < 2 {
		return fmt.Errorf("the scheme %q is shorter than two letters", scheme)
	}
	for i := 0; i < len(scheme); i++ {
		c := scheme[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		case c == '-' && i > 0 && i < len(scheme)-1:
		case c == '-':
			return fmt.Errorf("the scheme %q starts or ends with '-'", scheme)
		default:
			r, _ := utf8.DecodeRuneInString(scheme[i:])
			return fmt.Errorf("the scheme %q has %q; a scheme is ASCII letters, with '-' between them", scheme, r)
		}
	}
	return nil
}

// Parse reads a buffer name written as Format writes it (see the package
// documentation for what it rejects).
func Parse(name string) (Bufname, error) {
	if err := checkChars(name); err != nil {
		return Bufname{}, fmt.Errorf("bufname.Parse: %q %w", name, err)
	}
	scheme, rest, ok := strings.Cut(name, "://")
	if !ok {
		return Bufname{}, fmt.Errorf("bufname.Parse: %q does not start with {scheme}://", name)
	}
	if err := checkScheme(scheme); err != nil {
		return Bufname{}, fmt.Errorf("bufname.Parse: %q: %w", name, err)
	}
	b := Bufname{Scheme: scheme}
	head, fragment, _ := strings.Cut(rest, "#")
	expr, params, hasParams := strings.Cut(head, ";")
	var err error
	if b.Expr, err = unescape(expr, false); err != nil {
		return Bufname{}, fmt.Errorf("bufname.Parse: %q: the expr %w", name, err)
	}
	if hasParams {
		if b.Params, err = parseParams(params); err != nil {
			return Bufname{}, fmt.Errorf("bufname.Parse: %q: the params %w", name, err)
		}
	}
	if b.Fragment, err = unescape(fragment, false); err != nil {
		return Bufname{}, fmt.Errorf("bufname.Parse: %q: the fragment %w", name, err)
	}
	return b, nil
}

// checkChars says which character of name Format would never write, if
// any.
func checkChars(name string) error {
	for i := 0; i < len(name); {
		c := name[i]
		if c >= utf8.RuneSelf {
			r, n := utf8.DecodeRuneInString(name[i:])
			if r == utf8.RuneError && n == 1 {
				return fmt.Errorf("has invalid UTF-8 at byte %d", i)
			}
			i += n
			continue
		}
		if c != '%' && escapeAlways(c) {
			return fmt.Errorf("has %q at byte %d, which a buffer name cannot have; Format writes it as %%%02X", c, i, c)
		}
		i++
	}
	return nil
}

// parseParams reads the params of a name: key=value pairs separated by
// '&', a key without '=' having the value "". Empty pairs are skipped.
func parseParams(s string) (url.Values, error) {
	var vs url.Values
	for _, pair := range strings.Split(s, "&") {
		if pair == "" {
			continue
		}
		k, v, _ := strings.Cut(pair, "=")
		key, err := unescape(k, true)
		if err != nil {
			return nil, err
		}
		value, err := unescape(v, true)
		if err != nil {
			return nil, err
		}
		if vs == nil {
			vs = url.Values{}
		}
		vs[key] = append(vs[key], value)
	}
	return vs, nil
}

// unescape decodes each %XX of s, and each '+' when plus is set.
func unescape(s string, plus bool) (string, error) {
	if strings.IndexByte(s, '%') < 0 && (!plus || strings.IndexByte(s, '+') < 0) {
		return s, nil
	}
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '%':
			bad := s[i:min(i+3, len(s))]
			if i+2 >= len(s) {
				return "", fmt.Errorf("ends with %q, which is not a %%XX escape", bad)
			}
			hi, ok1 := unhex(s[i+1])
			lo, ok2 := unhex(s[i+2])
			if !ok1 || !ok2 {
				return "", fmt.Errorf("has %q, which is not a %%XX escape", bad)
			}
			out = append(out, hi<<4|lo)
			i += 2
		case c == '+' && plus:
			out = append(out, ' ')
		default:
			out = append(out, c)
		}
	}
	return string(out), nil
}

// unhex is the value of the hexadecimal digit c.
func unhex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}
