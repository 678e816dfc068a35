// Package autocmd defines, removes, lists and triggers the editor's
// autocommands (:help autocommand), the same way on Vim and Neovim.
//
//	err := autocmd.Define(ctx, p, autocmd.Def{
//		Group:    "myplugin",
//		Events:   []string{"BufWritePost"},
//		Patterns: []string{"*.go"},
//		Cmd:      "echo 'saved' expand('<afile>')",
//	})
//	err = autocmd.Remove(ctx, p, autocmd.Filter{Group: "myplugin", Events: []string{"BufWritePost"}})
//	list, err := autocmd.List(ctx, p, autocmd.Filter{Group: "myplugin"})
//	err = autocmd.Emit(ctx, p, "User", "MyPluginReady")
//
// Group clears a group and defines its autocommands in one step, as an
// augroup with :autocmd! at its top does:
//
//	err := autocmd.Group(ctx, p, "myplugin", func(g *autocmd.GroupDefs) error {
//		return g.Define(autocmd.Def{Events: []string{"BufEnter"}, Patterns: []string{"*.go"}, Cmd: "setlocal tabstop=4"})
//	})
//
// An autocommand that calls Go runs a Vim expression made by std/lambda:
//
//	l := lambda.Register(p, func(ctx context.Context, file string) error { ... })
//	err := autocmd.Define(ctx, p, autocmd.Def{
//		Group: "myplugin", Events: []string{"BufWritePost"}, Patterns: []string{"*.go"},
//		Cmd: "call " + l.Notify("expand('<amatch>')"),
//	})
//
// # Round trips and batches
//
// Each function is one call to the editor, Group too, so each works in a
// batch unchanged (pass the *vigor.Batch as c): there List records the
// call and returns nil, and b.Into(&list) receives the list when the batch
// has run. The editor's work is done by autoload/vigor/_internal/autocmd.vim,
// with autocmd_add(), autocmd_delete() and autocmd_get() on Vim and
// nvim_create_autocmd(), nvim_clear_autocmds() and nvim_get_autocmds() on
// Neovim.
//
// Outside a batch an error from the editor comes back with the
// function's name first ("autocmd.Define: " and the editor's message);
// inside a batch it fails the batch, as every call's error does.
//
// # Names
//
// An event name is letters ("BufEnter", "User"; the editors ignore case),
// and the editor must know it: exists('##Event') is checked in the same
// call, so an event only one editor has (Neovim's "TermOpen", Vim's
// "TerminalOpen") is an error on the other. A group name is letters,
// digits and "_-." (a '#' would read as an event in exists()), and not
// "END" or an event's name. A pattern is not
// empty and has no newline; buffer-local autocommands are asked for with
// Buffer, not with a "<buffer=N>" pattern. A bad name is an error that
// names the function and the name, made without a call to the editor:
//
//	autocmd.Define: "Buf Enter" is not an event name
//
// Names, patterns and commands reach the editor only as values (the
// arguments of a call), never inside the text of a command; Emit's file
// name is escaped for :doautocmd by the editor.
//
// # Groups
//
// Group "" is no group: Define adds the autocommands to no group, and
// Remove and List take only those in no group (as :autocmd! does outside
// an augroup). List's Group AnyGroup takes those of every group. A group
// that does not exist has no autocommands: Remove and List of it do
// nothing, and Define creates it. So has a buffer that does not exist,
// but Define of buffer-local autocommands for it is an error.
//
// Neovim does not report ++nested: List gives Nested false there.
package autocmd

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/vigorvim/vigor"
)

// AnyGroup as Filter.Group makes List take the autocommands of every
// group and of none.
const AnyGroup = "*"

// Def is the autocommands that Define defines: one for each event and
// pattern, all running Cmd.
type Def struct {
	Group    string   `json:"group"`    // the group, created if it does not exist; "" for none
	Events   []string `json:"events"`   // the events, at least one
	Patterns []string `json:"patterns"` // the file patterns (:help autocmd-pattern); none is "*"
	Buffer   int      `json:"buffer"`   // if > 0, buffer-local autocommands of buffer number Buffer, instead of Patterns
	Once     bool     `json:"once"`     // ++once: removed after it has run once
	Nested   bool     `json:"nested"`   // ++nested: its commands trigger autocommands
	Cmd      string   `json:"cmd"`      // the Ex command to run, as :autocmd takes it
}

// Filter says which autocommands Remove and List take: those of Group
// (see the package documentation for "" and AnyGroup) that have one of
// Events (all events if none) and one of Patterns (all patterns if none
// and Buffer is 0), or that are buffer-local to buffer Buffer if it is >
// 0.
type Filter struct {
	Group    string   `json:"group"`
	Events   []string `json:"events"`
	Patterns []string `json:"patterns"`
	Buffer   int      `json:"buffer"`
}

// Autocmd is one autocommand, as List gives it: one event and one
// pattern ("<buffer=N>" for a buffer-local one, with Buffer N).
type Autocmd struct {
	Group   string `json:"group"` // "" for none
	Event   string `json:"event"`
	Pattern string `json:"pattern"`
	Buffer  int    `json:"buffer"` // > 0 for a buffer-local autocommand
	Once    bool   `json:"once"`
	Nested  bool   `json:"nested"` // always false on Neovim, which does not report it
	Cmd     string `json:"cmd"`    // "" for a Neovim autocommand with a Lua callback
}

const (
	runFn  = "vigor#_internal#autocmd#run"
	listFn = "vigor#_internal#autocmd#list"
	emitFn = "vigor#_internal#autocmd#emit"
)

// Define defines the autocommands of d.
func Define(ctx context.Context, c vigor.Caller, d Def) error {
	op, err := d.op("autocmd.Define")
	if err != nil {
		return err
	}
	return run(ctx, c, "autocmd.Define", []map[string]any{op})
}

// Remove removes the autocommands that f takes, as :autocmd! does. No
// matching autocommand is no error.
func Remove(ctx context.Context, c vigor.Caller, f Filter) error {
	op, err := f.op("autocmd.Remove")
	if err != nil {
		return err
	}
	return run(ctx, c, "autocmd.Remove", []map[string]any{op})
}

// List returns the autocommands that f takes, in the editor's order. In
// a batch it returns nil: pass b.Into(&list) as c to receive the list.
func List(ctx context.Context, c vigor.Caller, f Filter) ([]Autocmd, error) {
	const fn = "autocmd.List"
	var group any = f.Group
	if f.Group == AnyGroup {
		group = nil
	} else if err := checkGroup(fn, f.Group); err != nil {
		return nil, err
	}
	if err := checkFilter(fn, f); err != nil {
		return nil, err
	}
	l, err := vigor.CallAs[[]Autocmd](ctx, c, listFn, map[string]any{
		"group": group, "events": orEmpty(f.Events), "patterns": orEmpty(f.Patterns), "bufnr": f.Buffer,
	})
	if err != nil {
		return nil, editorErr(fn, err)
	}
	return l, nil
}

// Emit triggers the autocommands of event for the file name fname ("" for
// the current buffer's name; the pattern for a User event), as
// ":doautocmd <nomodeline>" does, and without the message "No matching
// autocommands" when there are none.
func Emit(ctx context.Context, c vigor.Caller, event, fname string) error {
	return emit(ctx, c, "autocmd.Emit", event, fname, false)
}

// EmitAll triggers the autocommands of event in every loaded buffer, as
// ":doautoall <nomodeline>" does; fname is as for Emit.
func EmitAll(ctx context.Context, c vigor.Caller, event, fname string) error {
	return emit(ctx, c, "autocmd.EmitAll", event, fname, true)
}

func emit(ctx context.Context, c vigor.Caller, fn, event, fname string, all bool) error {
	if err := checkEvents(fn, []string{event}); err != nil {
		return err
	}
	if strings.ContainsAny(fname, "\n\r") {
		return fmt.Errorf("%s: %q is not a file name: it has a line break", fn, fname)
	}
	if err := c.CallInto(ctx, nil, emitFn, event, fname, all); err != nil {
		return editorErr(fn, err)
	}
	return nil
}

// GroupDefs records what Group's function defines and removes in the
// group, for Group to send in one call.
type GroupDefs struct {
	name string
	ops  []map[string]any
	err  error // the first error of Define or Remove, which fails Group
}

// Define records d to be defined in the group. d.Group is "" or the
// group's name.
func (g *GroupDefs) Define(d Def) error {
	const fn = "autocmd.Group: Define"
	if d.Group != "" && d.Group != g.name {
		return g.add(nil, fmt.Errorf("%s: the group is %q, not %q", fn, g.name, d.Group))
	}
	d.Group = g.name
	return g.add(d.op(fn))
}

// Remove records the removal of the group's autocommands that f takes.
// f.Group is "" or the group's name.
func (g *GroupDefs) Remove(f Filter) error {
	const fn = "autocmd.Group: Remove"
	if f.Group != "" && f.Group != g.name {
		return g.add(nil, fmt.Errorf("%s: the group is %q, not %q", fn, g.name, f.Group))
	}
	f.Group = g.name
	return g.add(f.op(fn))
}

// add records op, or err (the first error is kept for Group).
func (g *GroupDefs) add(op map[string]any, err error) error {
	if err != nil {
		if g.err == nil {
			g.err = err
		}
		return err
	}
	g.ops = append(g.ops, op)
	return nil
}

// Group removes every autocommand of the group name (creating it if it
// does not exist), then defines and removes what fn records through g,
// in that order, in one call to the editor. An error from fn, or the
// first from one of g's methods (even if fn dropped it), is returned and
// nothing is sent.
func Group(ctx context.Context, c vigor.Caller, name string, fn func(g *GroupDefs) error) error {
	if name == "" {
		return errors.New(`autocmd.Group: the group name is ""`)
	}
	if err := checkGroup("autocmd.Group", name); err != nil {
		return err
	}
	g := &GroupDefs{name: name, ops: []map[string]any{{"op": "clear", "group": name}}}
	if err := fn(g); err != nil {
		return err
	}
	if g.err != nil {
		return g.err
	}
	return run(ctx, c, "autocmd.Group", g.ops)
}

func run(ctx context.Context, c vigor.Caller, fn string, ops []map[string]any) error {
	if err := c.CallInto(ctx, nil, runFn, ops); err != nil {
		return editorErr(fn, err)
	}
	return nil
}

// editorErr is err, from a call of one of autocmd.vim's functions, for
// the function fn ("autocmd.Define"): the editor's message without the
// internal function's name.
func editorErr(fn string, err error) error {
	var ee *vigor.EditorError
	if errors.As(err, &ee) && strings.HasPrefix(ee.Fn, "vigor#_internal#autocmd#") {
		return fmt.Errorf("%s: %w", fn, &vigor.EditorError{Msg: ee.Msg})
	}
	return fmt.Errorf("%s: %w", fn, err)
}

// op is d as autocmd.vim's run takes it, for the function fn.
func (d Def) op(fn string) (map[string]any, error) {
	if err := checkGroup(fn, d.Group); err != nil {
		return nil, err
	}
	if len(d.Events) == 0 {
		return nil, fmt.Errorf("%s: no event", fn)
	}
	if err := checkEvents(fn, d.Events); err != nil {
		return nil, err
	}
	if err := checkPatterns(fn, d.Patterns, d.Buffer); err != nil {
		return nil, err
	}
	if strings.TrimSpace(d.Cmd) == "" {
		return nil, fmt.Errorf("%s: no command", fn)
	}
	pats := d.Patterns
	if len(pats) == 0 {
		pats = []string{"*"}
	}
	return map[string]any{
		"op": "define", "group": d.Group, "events": d.Events, "patterns": pats,
		"bufnr": d.Buffer, "once": d.Once, "nested": d.Nested, "cmd": d.Cmd,
	}, nil
}

// op is f as autocmd.vim's run takes it for a removal, for the function
// fn.
func (f Filter) op(fn string) (map[string]any, error) {
	if f.Group == AnyGroup {
		return nil, fmt.Errorf("%s: the group AnyGroup is only for List", fn)
	}
	if err := checkGroup(fn, f.Group); err != nil {
		return nil, err
	}
	if err := checkFilter(fn, f); err != nil {
		return nil, err
	}
	return map[string]any{
		"op": "remove", "group": f.Group, "events": orEmpty(f.Events),
		"patterns": orEmpty(f.Patterns), "bufnr": f.Buffer,
	}, nil
}

func checkFilter(fn string, f Filter) error {
	if err := checkEvents(fn, f.Events); err != nil {
		return err
	}
	return checkPatterns(fn, f.Patterns, f.Buffer)
}

// checkEvents says which of events, if any, is not an event name.
func checkEvents(fn string, events []string) error {
	for _, e := range events {
		ok := e != ""
		for i := 0; ok && i < len(e); i++ {
			c := e[i]
			ok = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
		}
		if !ok {
			return fmt.Errorf("%s: %q is not an event name", fn, e)
		}
	}
	return nil
}

// checkGroup says what is wrong with the group name, if anything; "" is
// no group.
func checkGroup(fn, name string) error {
	ok := !strings.EqualFold(name, "END")
	for i := 0; ok && i < len(name); i++ {
		c := name[i]
		ok = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
			strings.IndexByte("_-.", c) >= 0
	}
	if !ok {
		return fmt.Errorf("%s: %q is not a group name", fn, name)
	}
	return nil
}

func checkPatterns(fn string, patterns []string, buffer int) error {
	if buffer < 0 {
		return fmt.Errorf("%s: %d is not a buffer number", fn, buffer)
	}
	if buffer > 0 && len(patterns) > 0 {
		return fmt.Errorf("%s: both patterns and a buffer", fn)
	}
	for _, p := range patterns {
		switch {
		case p == "" || strings.TrimSpace(p) == "":
			return fmt.Errorf("%s: %q is not a pattern", fn, p)
		case strings.ContainsAny(p, "\n\r"):
			return fmt.Errorf("%s: %q is not a pattern: it has a line break", fn, p)
		case strings.HasPrefix(strings.ToLower(p), "<buffer"):
			return fmt.Errorf("%s: %q is not a pattern: use Buffer for buffer-local autocommands", fn, p)
		}
	}
	return nil
}

// orEmpty is s, or an empty slice for nil (which would reach the editor
// as v:null, not as a List).
func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
