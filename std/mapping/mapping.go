// Package mapping defines, removes, reads and lists key mappings, the same
// way on Vim and Neovim.
//
//	err := mapping.Map(ctx, p, mapping.Normal, "<Leader>f", ":Find<CR>", mapping.Options{Silent: true})
//	m, err := mapping.Read(ctx, p, mapping.Normal, "<Leader>f")
//	all, err := mapping.List(ctx, p, mapping.Normal)
//	err = mapping.Unmap(ctx, p, mapping.Normal, "<Leader>f", mapping.Options{})
//
// A mapping into Go puts a std/lambda expression in the right-hand side:
//
//	l := lambda.Register(p, func(ctx context.Context) error { ... })
//	err := mapping.Map(ctx, p, mapping.Normal, "<Leader>g", "<Cmd>call "+l.Notify()+"<CR>", mapping.Options{})
//
// # Round trips and batches
//
// Each function is one call to the editor, so it works in a batch
// unchanged (pass the *vigor.Batch as c); there Read and List return the
// zero value, and b.Into(&v) receives the value when the batch has run.
//
// # Keys
//
// lhs and rhs are written as in a :map command, in key notation ("<CR>",
// "<C-w>", "<Leader>"). What :map itself would take apart is escaped: a
// '|' becomes <Bar>, in lhs a space and a tab become <Space> and <Tab>, a
// space or tab at the start of rhs becomes <Space> or <Tab>, and a line
// break <NL>. An empty lhs, an empty rhs (use "<Nop>" for a mapping that
// does nothing), a NUL byte and an unknown Mode are errors that name the
// function, made without a call to the editor:
//
//	mapping.Map: the right-hand side is empty (use "<Nop>" for a mapping that does nothing)
//
// lhs and rhs reach the editor only as l: variables, never inside the text
// of a command.
package mapping

import (
	"context"
	"fmt"
	"strings"

	"github.com/vigorvim/vigor"
)

// Mode is the mode of a mapping, as :help map-modes names it.
type Mode string

// The modes. MapMode is that of :map (Normal, Visual, Select and
// Operator-pending), Insert|Cmdline that of :map!.
const (
	MapMode       Mode = ""
	Normal        Mode = "n"
	Visual        Mode = "v" // Visual and Select
	VisualX       Mode = "x" // Visual only
	Select        Mode = "s"
	Operator      Mode = "o"
	Insert        Mode = "i"
	Cmdline       Mode = "c"
	Terminal      Mode = "t"
	LangArg       Mode = "l"
	InsertCmdline Mode = "!"
)

// bits returns the mode_bits of maplist() that mode covers, false for
// no Mode.
func bits(mode Mode) (int, bool) {
	switch mode {
	case MapMode:
		return 1 | 2 | 4 | 64, true
	case Normal:
		return 1, true
	case Visual:
		return 2 | 64, true
	case VisualX:
		return 2, true
	case Select:
		return 64, true
	case Operator:
		return 4, true
	case Insert:
		return 16, true
	case Cmdline:
		return 8, true
	case Terminal:
		return 128, true
	case LangArg:
		return 32, true
	case InsertCmdline:
		return 8 | 16, true
	}
	return 0, false
}

// Options are a mapping's flags (:help :map-arguments). Remap false is
// :noremap, the default.
type Options struct {
	Buffer bool // local to the current buffer (<buffer>)
	Silent bool // <silent>
	Nowait bool // <nowait>
	Expr   bool // <expr>: rhs is an expression
	Unique bool // <unique>: fail when the mapping exists
	Script bool // <script>: remap only script-local mappings
	Remap  bool // :map rather than :noremap
}

// Mapping is a mapping as the editor has it. An empty Lhs means none.
type Mapping struct {
	Lhs     string `json:"lhs"`
	Rhs     string `json:"rhs"`  // "" for a Neovim mapping with a Lua callback
	Mode    Mode   `json:"mode"` // one of the Modes, or several letters ("nox")
	Noremap bool   `json:"noremap"`
	Buffer  bool   `json:"buffer"`
	Silent  bool   `json:"silent"`
	Nowait  bool   `json:"nowait"`
	Expr    bool   `json:"expr"`
	Script  bool   `json:"script"`
}

// check says what is wrong with mode, if anything.
func check(fn string, mode Mode) error {
	if _, ok := bits(mode); !ok {
		return fmt.Errorf("%s: %q is not a mode (one of \"\", n, v, x, s, o, i, c, t, l, !)", fn, string(mode))
	}
	return nil
}

// keys escapes lhs (lhs true) or rhs for a :map command.
func keys(fn, what string, s string, lhs bool) (string, error) {
	if s == "" {
		if lhs {
			return "", fmt.Errorf("%s: the left-hand side is empty", fn)
		}
		return "", fmt.Errorf("%s: the right-hand side is empty (use \"<Nop>\" for a mapping that does nothing)", fn)
	}
	if strings.IndexByte(s, 0) >= 0 {
		return "", fmt.Errorf("%s: the %s holds a NUL byte", fn, what)
	}
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == '|':
			b.WriteString("<Bar>")
		case r == '\n':
			b.WriteString("<NL>")
		case r == ' ' && (lhs || i == 0):
			b.WriteString("<Space>")
		case r == '\t' && (lhs || i == 0):
			b.WriteString("<Tab>")
		default:
			b.WriteRune(r)
		}
	}
	return b.String(), nil
}

// command is the :map command for mode and opts, from fixed words only.
func command(mode Mode, verb string, opts Options, define bool) string {
	var b strings.Builder
	if mode != InsertCmdline {
		b.WriteString(string(mode))
	}
	if define && !opts.Remap {
		b.WriteString("nore")
	}
	b.WriteString(verb)
	if mode == InsertCmdline {
		b.WriteString("!")
	}
	for _, f := range []struct {
		on   bool
		word string
	}{
		{opts.Buffer, "<buffer>"},
		{define && opts.Silent, "<silent>"},
		{define && opts.Nowait, "<nowait>"},
		{define && opts.Expr, "<expr>"},
		{define && opts.Unique, "<unique>"},
		{define && opts.Script, "<script>"},
	} {
		if f.on {
			b.WriteString(" " + f.word)
		}
	}
	return b.String()
}

// Map maps lhs to rhs in mode, as :noremap does (:map with Remap).
func Map(ctx context.Context, c vigor.Caller, mode Mode, lhs, rhs string, opts Options) error {
	const fn = "mapping.Map"
	if err := check(fn, mode); err != nil {
		return err
	}
	l, err := keys(fn, "left-hand side", lhs, true)
	if err != nil {
		return err
	}
	r, err := keys(fn, "right-hand side", rhs, false)
	if err != nil {
		return err
	}
	err = c.Cmd(ctx, "execute l:m l:l l:r", map[string]any{"m": command(mode, "map", opts, true), "l": l, "r": r})
	if err != nil {
		return fmt.Errorf("%s: %s: %w", fn, lhs, err)
	}
	return nil
}

// Unmap removes the mapping of lhs in mode (the buffer's with
// opts.Buffer; the other flags are ignored). A mapping that does not
// exist is no error.
func Unmap(ctx context.Context, c vigor.Caller, mode Mode, lhs string, opts Options) error {
	const fn = "mapping.Unmap"
	if err := check(fn, mode); err != nil {
		return err
	}
	l, err := keys(fn, "left-hand side", lhs, true)
	if err != nil {
		return err
	}
	err = c.Cmd(ctx, `try | execute l:m l:l | catch /^Vim\%((\a\+)\)\=:E31:/ | endtry`,
		map[string]any{"m": command(mode, "unmap", opts, false), "l": l})
	if err != nil {
		return fmt.Errorf("%s: %s: %w", fn, lhs, err)
	}
	return nil
}

// record is the Vim expression that turns v:val, a dict of maparg() or
// maplist(), into a Mapping's fields ({} into the zero Mapping).
const record = `{'lhs': get(v:val, 'lhs', ''), 'rhs': get(v:val, 'rhs', ''),` +
	` 'mode': get(v:val, 'mode', '') ==# ' ' ? '' : get(v:val, 'mode', ''),` +
	` 'noremap': get(v:val, 'noremap', 0) ? v:true : v:false,` +
	` 'buffer': get(v:val, 'buffer', 0) ? v:true : v:false,` +
	` 'silent': get(v:val, 'silent', 0) ? v:true : v:false,` +
	` 'nowait': get(v:val, 'nowait', 0) ? v:true : v:false,` +
	` 'expr': get(v:val, 'expr', 0) ? v:true : v:false,` +
	` 'script': get(v:val, 'script', 0) ? v:true : v:false}`

// Read returns the mapping of lhs in effect in mode (the buffer's first,
// as maparg() does), or the zero Mapping when there is none. Its Mode may
// be wider than mode: a :map mapping is in effect in Normal mode.
func Read(ctx context.Context, c vigor.Caller, mode Mode, lhs string) (Mapping, error) {
	const fn = "mapping.Read"
	if err := check(fn, mode); err != nil {
		return Mapping{}, err
	}
	l, err := keys(fn, "left-hand side", lhs, true)
	if err != nil {
		return Mapping{}, err
	}
	if mode == InsertCmdline {
		mode = Insert // maparg() finds :map! mappings by "i", not by "!"
	}
	m, err := vigor.EvalAs[Mapping](ctx, c, "map([maparg(l:l, l:m, 0, 1)], l:r)[0]",
		map[string]any{"l": l, "m": string(mode), "r": record})
	if err != nil {
		return Mapping{}, fmt.Errorf("%s: %s: %w", fn, lhs, err)
	}
	return m, nil
}

// List returns the mappings that apply in mode (those of the current
// buffer and the global ones, as maplist() gives them; abbreviations
// left out). MapMode lists those of any of its modes.
func List(ctx context.Context, c vigor.Caller, mode Mode) ([]Mapping, error) {
	const fn = "mapping.List"
	if err := check(fn, mode); err != nil {
		return nil, err
	}
	b, _ := bits(mode)
	ms, err := vigor.EvalAs[[]Mapping](ctx, c,
		"map(filter(maplist(), '!get(v:val, ''abbr'', 0) && and(v:val.mode_bits, l:bits)'), l:r)",
		map[string]any{"bits": b, "r": record})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", fn, err)
	}
	return ms, nil
}
