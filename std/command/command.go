// Package command defines user commands that call Go, and removes and
// lists them, the same way on Vim and Neovim.
//
//	err := command.Define(ctx, p, "Greet", command.Options{Nargs: "?", Bang: true},
//		func(ctx context.Context, a command.Args) error {
//			return helper.Echo(ctx, p, "Hello "+a.Args)
//		})
//	err = command.Remove(ctx, p, "Greet", false)
//	names, err := command.List(ctx, p)
//
// The command calls fn through a std/lambda request, so the command waits
// for fn, and an error of fn is the command's error. Its arguments arrive
// as Args: <q-args>, the <f-args> list, the bang, the range or count, the
// register and <q-mods> (:help <q-args>); Args.Parse parses <q-args> into
// ++opt, -flag and --flag=value arguments with std/argument.
//
// A CompleteFunc completes the command's arguments in Go: the editor calls
// it (a customlist completion, :help :command-completion-customlist)
// through a Vim function that Define defines for the command, named
// VigorComplete_<plugin>_<lambda>.
//
// # Round trips and batches
//
// Define and Remove are one call each, and one more when they replace or
// remove a command that completes in Go, to delete its function (pass a
// *vigor.Batch as c to record them). Define needs the plugin, so c must be the *vigor.Plugin, a
// *vigor.Batch or a Caller whose Batching says which. Outside a batch,
// Define and Remove release the Go function of the command they replace
// or remove; inside a batch they cannot read the editor's answer, so that
// function stays registered until the plugin unloads. List is one call.
//
// A name that is not a user command's ("greet", "Gr-eet") and attributes
// that :command would refuse are errors naming the function, made without
// a call. What the editor refuses (an unknown completion name) comes back
// as the editor's error, wrapped.
//
// Raw Vim script is left only where the editor has no function: the
// :command and :delcommand lines, which Define and Remove build from
// checked words, with the command's text passed as a variable.
package command

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/vigorvim/vigor"
	"github.com/vigorvim/vigor/std/argument"
	"github.com/vigorvim/vigor/std/lambda"
)

// Options are a command's attributes (:help :command-attributes).
type Options struct {
	// Nargs is "0" (the default), "1", "*", "?" or "+".
	Nargs string
	// Range is "" (no range), "." (a range, the current line by
	// default), "%" (the whole file by default) or a count given in the
	// line number position ("10"), as -range takes them.
	Range string
	// Count is "" (no count) or the default count ("0"), as -count=
	// takes it. A command has a Range or a Count, not both.
	Count string
	// Addr is what the range or count means (:help :command-addr):
	// "lines" (the default), "arguments", "buffers", "loaded_buffers",
	// "windows", "tabs", "quickfix" or "other".
	Addr     string
	Bang     bool // -bang: the command takes a !
	Register bool // -register: the first argument may be a register name
	Bar      bool // -bar: a | and a command may follow
	Buffer   bool // -buffer: local to the current buffer
	// Complete is a completion of the editor's, by name ("file",
	// "buffer", "option", :help :command-complete), or
	// "custom,{func}" and "customlist,{func}" with a Vim function.
	Complete string
	// CompleteFunc completes the arguments in Go (customlist): it gets
	// the argument being completed (lead), the whole command line and
	// the cursor's byte position in it, and returns the candidates. The
	// editor shows them as they are: filter by lead. An error is shown
	// to the user (Plugin.Errorf) and nothing is offered. Give Complete
	// or CompleteFunc, not both.
	CompleteFunc func(ctx context.Context, lead, line string, pos int) ([]string, error)
}

// Args are what the user gave the command.
type Args struct {
	Args  string   `json:"args"`  // <q-args>: the arguments as typed
	FArgs []string `json:"fargs"` // <f-args>: split at white space, "\ " kept
	Bang  bool     `json:"bang"`  // a ! was given
	Line1 int      `json:"line1"` // <line1>: the range's start (or the count)
	Line2 int      `json:"line2"` // <line2>: the range's end (or the count)
	// Range is the number of items given in the range: 0, 1 or 2.
	Range    int    `json:"range"`
	Count    int    `json:"count"` // <count>: the count given, or the default
	Register string `json:"reg"`   // <reg>: the register given, or ""
	Mods     string `json:"mods"`  // <q-mods>: the modifiers, such as "vertical"
}

// Parse parses Args, <q-args>, with std/argument: ++opt=value options,
// -flag and --flag=value flags, quoted strings and the arguments after
// "--".
func (a Args) Parse() (argument.Args, error) { return argument.Parse(a.Args) }

var (
	nameRe  = regexp.MustCompile(`^[A-Z][A-Za-z0-9]*$`)
	wordRe  = regexp.MustCompile(`^[a-z_]+$`)
	funcRe  = regexp.MustCompile(`^custom(list)?,[A-Za-z_<][A-Za-z0-9_#.:<>]*$`)
	countRe = regexp.MustCompile(`^[0-9]+$`)
	addrs   = []string{"lines", "arguments", "buffers", "loaded_buffers", "windows", "tabs", "quickfix", "other"}
)

func checkName(fn, name string) error {
	if !nameRe.MatchString(name) {
		return fmt.Errorf("%s: %q is not a user command name (an upper-case letter, then letters and digits)", fn, name)
	}
	return nil
}

// attributes returns the command's attributes as :command takes them,
// from checked words only.
func (o Options) attributes(fn, name string) (string, error) {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%s: %s: %s", fn, name, fmt.Sprintf(format, a...))
	}
	var a []string
	switch o.Nargs {
	case "", "0":
	case "1", "*", "?", "+":
		a = append(a, "-nargs="+o.Nargs)
	default:
		return "", bad("Nargs %q is not one of 0, 1, *, ? and +", o.Nargs)
	}
	switch {
	case o.Range == "":
	case o.Range == ".":
		a = append(a, "-range")
	case o.Range == "%" || countRe.MatchString(o.Range):
		a = append(a, "-range="+o.Range)
	default:
		return "", bad("Range %q is not \"\", \".\", \"%%\" or a number", o.Range)
	}
	if o.Count != "" {
		if !countRe.MatchString(o.Count) {
			return "", bad("Count %q is not a number", o.Count)
		}
		if o.Range != "" {
			return "", bad("a command has a Range or a Count, not both")
		}
		a = append(a, "-count="+o.Count)
	}
	if o.Addr != "" {
		if !slices.Contains(addrs, o.Addr) {
			return "", bad("Addr %q is not one of %s", o.Addr, strings.Join(addrs, ", "))
		}
		a = append(a, "-addr="+o.Addr)
	}
	for _, f := range []struct {
		on   bool
		word string
	}{{o.Bang, "-bang"}, {o.Register, "-register"}, {o.Bar, "-bar"}, {o.Buffer, "-buffer"}} {
		if f.on {
			a = append(a, f.word)
		}
	}
	switch {
	case o.Complete != "" && o.CompleteFunc != nil:
		return "", bad("give Complete or CompleteFunc, not both")
	case o.Complete != "":
		if !wordRe.MatchString(o.Complete) && !funcRe.MatchString(o.Complete) {
			return "", bad("Complete %q is not a completion name", o.Complete)
		}
		if o.Nargs == "" || o.Nargs == "0" {
			return "", bad("a command without arguments (Nargs 0) has no completion")
		}
		a = append(a, "-complete="+o.Complete)
	case o.CompleteFunc != nil && (o.Nargs == "" || o.Nargs == "0"):
		return "", bad("a command without arguments (Nargs 0) has no completion")
	}
	return strings.Join(a, " "), nil
}

// runArgs is the Vim expression of a command's Args.
const runArgs = `{'args': <q-args>, 'fargs': [<f-args>], 'bang': <bang>0 ? v:true : v:false,` +
	` 'line1': <line1>, 'line2': <line2>, 'range': <range>, 'count': <count>, 'reg': '<reg>', 'mods': <q-mods>}`

// A command's lambda takes what runs it ("run" with the Args, or
// "complete" with the lead, the line and the position).
const (
	kindRun      = "run"
	kindComplete = "complete"
)

// Define defines the user command name to call fn with the command's
// Args, replacing a command of that name (the current buffer's, with
// opts.Buffer).
func Define(ctx context.Context, c vigor.Caller, name string, opts Options, fn func(ctx context.Context, a Args) error) error {
	const fname = "command.Define"
	if err := checkName(fname, name); err != nil {
		return err
	}
	if fn == nil {
		return fmt.Errorf("%s: %s: fn is nil", fname, name)
	}
	attrs, err := opts.attributes(fname, name)
	if err != nil {
		return err
	}
	p, b := c.Batching()
	if p == nil {
		return fmt.Errorf("%s: %s: the Caller does not say which plugin it is (pass the *vigor.Plugin or a *vigor.Batch)", fname, name)
	}
	complete := opts.CompleteFunc
	l, err := lambda.New(p, func(ctx context.Context, kind string, a Args, lead, line string, pos int) ([]string, error) {
		if kind == kindComplete {
			if complete == nil {
				return []string{}, nil
			}
			items, err := complete(ctx, lead, line, pos)
			if err != nil {
				// An error thrown from a completion function is lost or
				// garbled by the editors' completion: show it, offer
				// nothing.
				p.Errorf(ctx, "completing :%s: %v", name, err)
				return []string{}, nil
			}
			if items == nil {
				items = []string{}
			}
			return items, nil
		}
		return nil, fn(ctx, a)
	})
	if err != nil {
		return fmt.Errorf("%s: %s: %w", fname, name, err)
	}
	def := "command! " + attrs
	if complete != nil {
		cf := completeFunc(p.Name(), l.Method())
		def = "function! " + cf + "(A, L, P) abort\nreturn " +
			l.Request(quote(kindComplete), "{}", "a:A", "a:L", "a:P") + "\nendfunction\n" +
			def + " -complete=customlist," + cf
	}
	def += " " + name + " call " + l.Request(quote(kindRun), runArgs, "''", "''", "0")
	// The old definition (to release its lambda), then the new one.
	old, err := vigor.EvalAs[string](ctx, c,
		"[exists(':' . l:n) == 2 ? execute('command ' . l:n) : '', execute(split(l:d, \"\\n\"))][0]",
		map[string]any{"n": name, "d": def})
	if err != nil {
		l.Unregister()
		return fmt.Errorf("%s: %s: %w", fname, name, err)
	}
	if b == nil {
		release(ctx, p, old, name, opts.Buffer, l.Method())
	}
	return nil
}

// completeFunc is the name of the Vim function that completes by the
// lambda method of the plugin's command.
func completeFunc(plugin, method string) string {
	var b strings.Builder
	b.WriteString("VigorComplete_")
	for _, r := range plugin + "_" + strings.TrimPrefix(method, vigor.LambdaPrefix) {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

// Remove removes the user command name (the current buffer's, with
// buffer). A command that does not exist is no error.
func Remove(ctx context.Context, c vigor.Caller, name string, buffer bool) error {
	const fname = "command.Remove"
	if err := checkName(fname, name); err != nil {
		return err
	}
	del := "delcommand "
	if buffer {
		del += "-buffer "
	}
	// The definition (to release its lambda), then the removal, which
	// is no error if the command is only one of those the listing
	// shows (it lists every command that starts with name).
	old, err := vigor.EvalAs[string](ctx, c,
		"exists(':' . l:n) == 2 ? [execute('command ' . l:n), execute('silent! ' . l:del . l:n)][0] : ''",
		map[string]any{"n": name, "del": del})
	if err != nil {
		return fmt.Errorf("%s: %s: %w", fname, name, err)
	}
	if p, b := c.Batching(); p != nil && b == nil {
		release(ctx, p, old, name, buffer, "")
	}
	return nil
}

// release unregisters the lambda of the plugin's command name (buffer-local
// or global, as buffer says) in listing, the output of ":command name",
// unless it is keep, and deletes its completion function, if it has one
// (one more call).
func release(ctx context.Context, p *vigor.Plugin, listing, name string, buffer bool, keep string) {
	re := regexp.MustCompile(`vigor#request\('` + regexp.QuoteMeta(strings.ReplaceAll(p.Name(), "'", "''")) +
		`', '(` + regexp.QuoteMeta(vigor.LambdaPrefix) + `[0-9]+\.[0-9]+)'`)
	for _, line := range strings.Split(listing, "\n") {
		// Four columns of flags (! " b |), then the name.
		if len(line) < 5 || strings.Contains(line[:4], "b") != buffer {
			continue
		}
		if f := strings.Fields(line[4:]); len(f) == 0 || f[0] != name {
			continue
		}
		m := re.FindStringSubmatch(line)
		if m == nil || m[1] == keep {
			continue
		}
		p.Unhandle(m[1])
		if strings.Contains(line, "customlist") {
			// The function is the plugin's own, named after the lambda;
			// if it stays, it only fails as its lambda is gone.
			_ = p.Exec(context.WithoutCancel(ctx), "silent! delfunction "+completeFunc(p.Name(), m[1]))
		}
	}
}

// List returns the names of the user commands (global and of the current
// buffer), sorted.
func List(ctx context.Context, c vigor.Caller) ([]string, error) {
	names, err := vigor.EvalAs[[]string](ctx, c, "filter(getcompletion('', 'command'), 'v:val =~# ''^[A-Z]''')", nil)
	if err != nil {
		return nil, fmt.Errorf("command.List: %w", err)
	}
	return names, nil
}

// quote returns s as a Vim string literal in single quotes.
func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
