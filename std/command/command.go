// Package command defines user commands that call Go, and removes and
// lists them, the same way on Vim and Neovim.
//
//	err := command.Define(ctx, p, "Greet", command.Options{Nargs: "?", Bang: true},
//		func(ctx context.Context, a command.Args) error {
//			return p.Cmd(ctx, "echo l:s", map[string]any{"s": "Hello " + a.Args})
//		})
//	err = command.Remove(ctx, p, "Greet", false)
//	names, err := command.List(ctx, p)
//
// The command calls fn through a std/lambda request, so the command waits
// for fn and an error of fn is the command's error. Its arguments arrive
// as Args: <q-args>, the <f-args> list, the bang, the range or count, the
// register and <q-mods> (:help <q-args>); std/argument parses Args.Args
// further.
//
// # Round trips and batches
//
// Define is one call to the editor (pass a *vigor.Batch as c to record
// it); it needs the plugin, so c must be the *vigor.Plugin, a *vigor.Batch
// or a Caller whose Batching says which. Remove is one call and releases
// the command's Go functions when it is made outside a batch (inside one
// they stay until the plugin unloads). List is one call.
//
// A name that is not a user command's ("greet", "Gr-eet") is an error
// naming the function, made without a call.
package command

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/vigorvim/vigor"
	"github.com/vigorvim/vigor/std/lambda"
)

// Options are a command's attributes (:help :command-attributes).
type Options struct {
	// Nargs is "0" (the default), "1", "*", "?" or "+".
	Nargs string
	// Range is "" (no range), "%" (the whole file by default), "." (the
	// current line by default) or a count given as a number ("10"), as
	// -range takes them.
	Range string
	// Count is "" or the default count ("0"), as -count= takes it.
	Count    string
	Bang     bool // -bang
	Register bool // -register
	Bar      bool // -bar
	Buffer   bool // -buffer: local to the current buffer
	// Complete is a completion of the editor's, by name ("file",
	// "buffer", :help :command-complete).
	Complete string
	// CompleteFunc completes the arguments in Go (customlist): it gets
	// the argument being completed, the whole command line and the
	// cursor's position in it.
	CompleteFunc func(ctx context.Context, lead, line string, pos int) ([]string, error)
}

// Args are what the user gave the command.
type Args struct {
	Args     string   `json:"args"`  // <q-args>
	FArgs    []string `json:"fargs"` // <f-args>
	Bang     bool     `json:"bang"`
	Line1    int      `json:"line1"`
	Line2    int      `json:"line2"`
	Range    int      `json:"range"` // the number of items in the range: 0, 1 or 2
	Count    int      `json:"count"`
	Register string   `json:"reg"`
	Mods     string   `json:"mods"` // <q-mods>
}

var (
	nameRe  = regexp.MustCompile(`^[A-Z][A-Za-z0-9]*$`)
	wordRe  = regexp.MustCompile(`^[a-z_]+$`)
	countRe = regexp.MustCompile(`^[0-9]+$`)
	// lambdaRe finds the lambdas that a command's definition calls.
	lambdaRe = regexp.MustCompile(regexp.QuoteMeta(vigor.LambdaPrefix) + `[0-9]+\.[0-9]+`)
)

func checkName(fn, name string) error {
	if !nameRe.MatchString(name) {
		return fmt.Errorf("%s: %q is not a user command name (an upper-case letter, then letters and digits)", fn, name)
	}
	return nil
}

// attributes returns the command's attributes as :command takes them,
// from checked words only.
func (o Options) attributes(fn string) (string, error) {
	var a []string
	switch o.Nargs {
	case "", "0":
	case "1", "*", "?", "+":
		a = append(a, "-nargs="+o.Nargs)
	default:
		return "", fmt.Errorf("%s: Nargs %q is not one of 0, 1, *, ? and +", fn, o.Nargs)
	}
	switch {
	case o.Range == "":
	case o.Range == ".":
		a = append(a, "-range")
	case o.Range == "%" || countRe.MatchString(o.Range):
		a = append(a, "-range="+o.Range)
	default:
		return "", fmt.Errorf("%s: Range %q is not \"\", \"%%\", \".\" or a number", fn, o.Range)
	}
	if o.Count != "" {
		if !countRe.MatchString(o.Count) {
			return "", fmt.Errorf("%s: Count %q is not a number", fn, o.Count)
		}
		if o.Range != "" {
			return "", fmt.Errorf("%s: a command has a Range or a Count, not both", fn)
		}
		a = append(a, "-count="+o.Count)
	}
	for _, f := range []struct {
		on   bool
		word string
	}{{o.Bang, "-bang"}, {o.Register, "-register"}, {o.Bar, "-bar"}, {o.Buffer, "-buffer"}} {
		if f.on {
			a = append(a, f.word)
		}
	}
	if o.Complete != "" && o.CompleteFunc != nil {
		return "", fmt.Errorf("%s: a command has a Complete or a CompleteFunc, not both", fn)
	}
	if o.Complete != "" {
		if !wordRe.MatchString(o.Complete) {
			return "", fmt.Errorf("%s: Complete %q is not a completion name", fn, o.Complete)
		}
		a = append(a, "-complete="+o.Complete)
	}
	return strings.Join(a, " "), nil
}

// call is the Vim expression of a command's arguments, for the lambda.
const call = `{'args': <q-args>, 'fargs': [<f-args>], 'bang': '<bang>' ==# '!' ? v:true : v:false,` +
	` 'line1': <line1>, 'line2': <line2>, 'range': <range>, 'count': <count>, 'reg': '<reg>', 'mods': <q-mods>}`

// Define defines the user command name (replacing one of that name) to
// call fn with the command's Args.
func Define(ctx context.Context, c vigor.Caller, name string, opts Options, fn func(ctx context.Context, a Args) error) error {
	const fname = "command.Define"
	if err := checkName(fname, name); err != nil {
		return err
	}
	if fn == nil {
		return fmt.Errorf("%s: %s: fn is nil", fname, name)
	}
	attrs, err := opts.attributes(fname)
	if err != nil {
		return err
	}
	p, _ := c.Batching()
	if p == nil {
		return fmt.Errorf("%s: %s: the Caller does not say which plugin it is (pass the *vigor.Plugin or a *vigor.Batch)", fname, name)
	}
	run, err := lambda.New(p, fn)
	if err != nil {
		return fmt.Errorf("%s: %s: %w", fname, name, err)
	}
	release := []*lambda.Lambda{run}
	def := "command! " + attrs
	if opts.CompleteFunc != nil {
		f := opts.CompleteFunc
		comp, err := lambda.New(p, func(ctx context.Context, lead, line string, pos int) ([]string, error) {
			items, err := f(ctx, lead, line, pos)
			if items == nil {
				items = []string{}
			}
			return items, err
		})
		if err != nil {
			run.Unregister()
			return fmt.Errorf("%s: %s: %w", fname, name, err)
		}
		release = append(release, comp)
		// A customlist completion is a function's name: one of the
		// plugin's own, named after the command, that calls the lambda.
		cf := completeFunc(p.Name(), name)
		def = "function! " + cf + "(A, L, P) abort\nreturn " + comp.Request("a:A", "a:L", "a:P") + "\nendfunction\n" +
			def + " -complete=customlist," + cf
	}
	def += " " + name + " call " + run.Request(call)
	if err := c.Cmd(ctx, "execute l:d", map[string]any{"d": def}); err != nil {
		for _, l := range release {
			l.Unregister()
		}
		return fmt.Errorf("%s: %s: %w", fname, name, err)
	}
	return nil
}

// completeFunc is the name of the Vim function that completes the
// plugin's command name.
func completeFunc(plugin, name string) string {
	var b strings.Builder
	b.WriteString("VigorComplete_")
	for _, r := range plugin {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String() + "_" + name
}

// Remove removes the user command name (the current buffer's with
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
	// The definition (to release its lambdas), then the removal.
	def, err := vigor.EvalAs[string](ctx, c,
		"exists(':' . l:n) == 2 ? [execute('command ' . l:n), execute(l:del . l:n)][0] : ''",
		map[string]any{"n": name, "del": del})
	if err != nil {
		return fmt.Errorf("%s: %s: %w", fname, name, err)
	}
	if p, b := c.Batching(); p != nil && b == nil {
		for _, m := range lambdas(def, name) {
			p.Unhandle(m)
		}
	}
	return nil
}

// lambdas returns the lambdas that the definition of name calls, in the
// listing of :command (which lists the commands that start with name).
func lambdas(listing, name string) []string {
	var ms []string
	for _, line := range strings.Split(listing, "\n") {
		if len(line) < 5 {
			continue
		}
		f := strings.Fields(line[4:])
		if len(f) > 0 && f[0] == name {
			ms = append(ms, lambdaRe.FindAllString(line, -1)...)
		}
	}
	return ms
}

// List returns the names of the user commands, sorted.
func List(ctx context.Context, c vigor.Caller) ([]string, error) {
	names, err := vigor.EvalAs[[]string](ctx, c, "filter(getcompletion('', 'command'), 'v:val =~# ''^[A-Z]''')", nil)
	if err != nil {
		return nil, fmt.Errorf("command.List: %w", err)
	}
	return names, nil
}
