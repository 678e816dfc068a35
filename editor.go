package vigor

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/vigorvim/vigor/internal/host"
	"github.com/vigorvim/vigor/internal/protocol"
	"github.com/vigorvim/vigor/internal/wire"
)

// EditorError is an error that Vim or Neovim raised while running what the
// plugin asked for, such as "Vim(call):E117: Unknown function: Foo". Msg
// is the editor's message alone, the same on both editors: without
// Neovim's note of where the error was thrown ("function Foo[2]..Bar,
// line 6: "), and without Vigor's own functions that ran it.
type EditorError struct {
	Fn  string // the editor function that failed; empty for Cmd, Eval and Redraw
	Msg string // the editor's message
}

func (e *EditorError) Error() string {
	if e.Fn == "" {
		return e.Msg
	}
	return fmt.Sprintf("%s(): %s", e.Fn, e.Msg)
}

// BatchError is returned by Plugin.Batch when one of its calls failed.
// The calls before it ran, and their results are in Results (decoded as
// Call decodes them) as well as in their Into pointers; the calls after
// it did not run.
type BatchError struct {
	Index   int    // the failed call, counting from 0
	Fn      string // the editor function that failed; empty for Cmd and Eval
	Results []any  // the results of the calls before Index
	Err     error  // the editor's error, an *EditorError
}

func (e *BatchError) Error() string {
	return fmt.Sprintf("batch call %d: %v", e.Index, e.Err)
}

func (e *BatchError) Unwrap() error { return e.Err }

// editorErr turns the adapter's errors for a call of fn into the SDK's:
// the editor's into an *EditorError, an argument that cannot be sent into
// an error that names it.
func (p *Plugin) editorErr(fn string, err error) error {
	var ce *host.CallError
	if errors.As(err, &ce) {
		p.logEditorError(fn, ce.Msg, ce.Full)
		return &EditorError{Fn: fn, Msg: ce.Msg}
	}
	var ae *host.ArgError
	if errors.As(err, &ae) {
		p.logArgError(ae)
		return fmt.Errorf("%s(): argument %d: %s", fn, ae.Arg+1, ae.Msg())
	}
	return err
}

// logArgError writes an argument that cannot be sent to the log, with
// the encoder's own error if it made one.
func (p *Plugin) logArgError(ae *host.ArgError) {
	p.log.Warn("an argument cannot be sent to the editor", "fn", ae.Fn, "argument", ae.Arg+1, "err", ae.Msg(), "detail", ae.Err.Detail)
}

// runtimeErr is editorErr for a call of fn, one of the runtime's
// functions, which the user did not name: its arguments are named by args,
// and an *EditorError has no Fn.
func (p *Plugin) runtimeErr(fn string, err error, args ...string) error {
	if err == nil {
		return nil
	}
	var ce *host.CallError
	if errors.As(err, &ce) {
		p.logEditorError(fn, ce.Msg, ce.Full)
		return &EditorError{Msg: ce.Msg}
	}
	var ae *host.ArgError
	if errors.As(err, &ae) && ae.Arg < len(args) {
		p.logArgError(ae)
		return fmt.Errorf("%s: %s", args[ae.Arg], ae.Msg())
	}
	return err
}

// logEditorError writes the editor's whole message to the log when the
// user sees less of it (Neovim's note of where it was thrown).
func (p *Plugin) logEditorError(fn, msg, full string) {
	if full != msg {
		p.log.Info("the editor raised an error", "fn", fn, "err", full)
	}
}

// resultErr is the error for a result that does not decode (Lists and
// Dicts nested too deep), of fn (empty for the runtime's functions).
func resultErr(fn string, err error) error {
	msg := "the result cannot be read: " + err.Error()
	if errors.Is(err, wire.ErrTooDeep) {
		msg = "the result: " + wire.ErrTooDeep.Error()
	}
	if fn == "" {
		return errors.New(msg)
	}
	return fmt.Errorf("%s(): %s", fn, msg)
}

// Call calls the editor function fn with args and returns its result,
// decoded as described in the package documentation (a Number becomes an
// int64, a List an []any, and so on). Use CallAs to decode into a type.
// An argument that the editor cannot take (see the package documentation)
// fails the call before it is sent, with an error that names it.
//
// ctx is checked before the call is sent. Once it is sent, the call
// returns when the editor answers, when the editor closes the channel
// (with an error), or as soon as ctx ends (with context.Cause(ctx)); the
// editor still runs the function then, and its answer is dropped.
func (p *Plugin) Call(ctx context.Context, fn string, args ...any) (any, error) {
	res, err := p.callEditor(ctx, fn, args)
	if err != nil {
		return nil, p.editorErr(fn, err)
	}
	return p.result(fn, fn, res)
}

// callEditor calls fn with a copy of args in a reused slice. Passed down as
// they are, through the editor's interface, the arguments of every call
// would be made on the heap (the variadic slice escapes); the copy keeps
// them on the caller's stack. The adapters keep no reference to their
// params once they have returned (host.Caller).
func (p *Plugin) callEditor(ctx context.Context, fn string, args []any) (host.Value, error) {
	bp, _ := p.argBufs.Get().(*[]any)
	if bp == nil {
		bp = new([]any)
	}
	*bp = append((*bp)[:0], args...)
	res, err := p.ed.Call(ctx, fn, *bp)
	clear(*bp)
	p.argBufs.Put(bp)
	return res, err
}

// result decodes res, the result of fn (named name in errors), into any.
func (p *Plugin) result(name, fn string, res host.Value) (any, error) {
	v, err := res.Any()
	if err != nil {
		p.log.Warn("a result does not decode", "fn", fn, "err", err)
		return nil, resultErr(name, err)
	}
	return v, nil
}

// Notify calls the editor function fn without waiting for it. If fn fails,
// the editor shows the error to the user.
func (p *Plugin) Notify(ctx context.Context, fn string, args ...any) error {
	if args == nil {
		args = []any{}
	}
	if err := p.ed.Notify(ctx, protocol.FuncNotify, []any{p.name, fn, args}); err != nil {
		return p.itemErr(fn+"()", err)
	}
	return nil
}

// itemErr is the error of a call of one of the runtime's functions whose
// argument 3 is a List of the user's arguments (Notify, Dispatch), named
// name in the message.
func (p *Plugin) itemErr(name string, err error) error {
	var ae *host.ArgError
	if errors.As(err, &ae) {
		p.logArgError(ae)
		if i, msg, ok := ae.Item(); ok && ae.Arg == 2 {
			return fmt.Errorf("%s: argument %d: %s", name, i+1, msg)
		}
		return fmt.Errorf("%s: %s", name, ae.Msg())
	}
	return err
}

// Cmd runs cmd, one Ex command on one line, as :execute does. The keys of
// vars are visible to cmd as l: variables (vars may be nil), as in denops'
// cmd(). A bar separates commands as it does on a command line, and
// commands such as :autocmd and :normal take the rest of the line.
//
// A cmd that holds a line break is an error, and nothing runs: to run
// several lines, use Exec, which runs them as a script. An error that the
// command raised is an *EditorError whose Msg is the editor's message.
func (p *Plugin) Cmd(ctx context.Context, cmd string, vars map[string]any) error {
	if err := cmdLines(cmd); err != nil {
		return err
	}
	if vars == nil {
		vars = map[string]any{}
	}
	_, err := p.ed.Call(ctx, protocol.FuncCmd, []any{cmd, vars})
	return p.runtimeErr(protocol.FuncCmd, err, "the command", "vars")
}

// cmdLines refuses a cmd for Cmd that holds a line break.
func cmdLines(cmd string) error {
	if n := strings.Count(cmd, "\n"); n > 0 {
		return fmt.Errorf("Cmd runs one Ex command, and this one has %d lines: use Exec to run several lines", n+1)
	}
	return nil
}

// Exec runs lines as a Vim script, as :source runs a file that holds
// them: line continuation, :if, :for and :function blocks, and commands
// that take the rest of the line (:autocmd, :normal) work as they do in a
// script file. An argument may hold several lines, separated by "\n".
//
// The first error ends the script. It is an *EditorError whose message
// starts with the line where it was raised, counting from 1 (for a
// continued command its first line, and for an error in a function the
// line that called it): "line 2: Vim(echo):E121: Undefined variable: x".
//
// Each Exec starts with no s: variables. Script-local functions stay
// defined from one Exec of the plugin to the next, as when a script is
// sourced again: define them with :function!. A script has no l:
// variables; to pass values, use Cmd or Eval, or set g: variables.
func (p *Plugin) Exec(ctx context.Context, lines ...string) error {
	all := make([]string, 0, len(lines))
	for _, l := range lines {
		all = append(all, strings.Split(l, "\n")...)
	}
	_, err := p.ed.Call(ctx, protocol.FuncExec, []any{p.name, all})
	return p.runtimeErr(protocol.FuncExec, err, "the plugin", "the lines")
}

// Eval evaluates the Vim expression expr, with vars visible as l:
// variables (vars may be nil). An error that the expression raised is an
// *EditorError whose Msg is the editor's message; so is a result that is a
// Funcref, which no channel carries.
func (p *Plugin) Eval(ctx context.Context, expr string, vars map[string]any) (any, error) {
	res, err := p.eval(ctx, expr, vars)
	if err != nil {
		return nil, err
	}
	return p.result("", protocol.FuncEval, res)
}

// Redraw redraws the screen, as :redraw (or :redraw! when force is set).
func (p *Plugin) Redraw(ctx context.Context, force bool) error {
	_, err := p.ed.Call(ctx, protocol.FuncRedraw, []any{force})
	return p.runtimeErr(protocol.FuncRedraw, err)
}

// Dispatch calls method of another Vigor plugin, through the editor, as
// vigor#request() does. If that plugin is still building or starting,
// Dispatch waits for it (up to g:vigor#request_timeout).
func (p *Plugin) Dispatch(ctx context.Context, plugin, method string, args ...any) (any, error) {
	if args == nil {
		args = []any{}
	}
	res, err := p.ed.Call(ctx, protocol.FuncDispatch, []any{plugin, method, args})
	if err == nil {
		return p.result("", protocol.FuncDispatch, res)
	}
	var ce *host.CallError
	if errors.As(err, &ce) {
		// The runtime's message names the plugin and method already.
		p.logEditorError(protocol.FuncDispatch, ce.Msg, ce.Full)
		return nil, errors.New(strings.TrimPrefix(ce.Msg, protocol.ErrorPrefix))
	}
	return nil, p.itemErr(plugin+"."+method, err)
}

// Infof shows a message to the user (in :messages) and logs it.
func (p *Plugin) Infof(ctx context.Context, format string, args ...any) {
	p.echo(ctx, "info", fmt.Sprintf(format, args...))
}

// Warnf shows a warning to the user (in :messages) and logs it.
func (p *Plugin) Warnf(ctx context.Context, format string, args ...any) {
	p.echo(ctx, "warn", fmt.Sprintf(format, args...))
}

// Errorf shows an error to the user (in :messages) and logs it. It does
// not stop anything.
func (p *Plugin) Errorf(ctx context.Context, format string, args ...any) {
	p.echo(ctx, "error", fmt.Sprintf(format, args...))
}

// Debugf logs a message and, in debug mode (g:vigor#debug), shows it.
func (p *Plugin) Debugf(ctx context.Context, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	p.log.Debug(msg)
	if p.meta.Mode == "debug" {
		_ = p.ed.Notify(ctx, protocol.FuncEcho, []any{"debug", p.name, msg})
	}
}

func (p *Plugin) echo(ctx context.Context, level, msg string) {
	switch level {
	case "warn":
		p.log.Warn(msg)
	case "error":
		p.log.Error(msg)
	default:
		p.log.Info(msg)
	}
	if err := p.ed.Notify(ctx, protocol.FuncEcho, []any{level, p.name, msg}); err != nil {
		p.log.Error("cannot show a message", "err", err)
	}
}
