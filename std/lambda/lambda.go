// Package lambda registers Go closures and gives the Vim expressions that
// call them, to put where the editor takes an expression or a command: a
// mapping (with <Cmd>), an autocmd, a user command, a timer.
//
//	l := lambda.Register(p, func(ctx context.Context, file string) error {
//		p.Infof(ctx, "saved %s", file)
//		return nil
//	})
//	// in an autocmd: call vigor#notify('myplugin', '$lambda:1.1', [expand('<afile>')])
//	err := p.Cmd(ctx, "autocmd BufWritePost * call "+l.Notify("expand('<afile>')"), nil)
//
//	sum := lambda.Register(p, func(a, b int) int { return a + b })
//	var n int
//	err = p.EvalInto(ctx, &n, sum.Request("1", "2"), nil) // n == 3
//	sum.Unregister()
//
// Notify gives an expression that calls the closure by vigor#notify (it
// returns 0 at once; an error of the closure is shown to the user), and
// Request one that calls it by vigor#request (it waits for the closure
// and gives its result; an error is thrown). Their arguments are Vim
// expressions, evaluated by the editor where the expression runs: "a:1",
// "v:event", "expand('<amatch>')", "[1, 2]". They are joined as they are,
// so give them only text of the plugin's own, never the user's input.
//
// # Names and lifetime
//
// Each lambda is a method of the plugin with a name of its own, which
// Method returns: vigor.LambdaPrefix ("$lambda:"), the plugin process's
// instance number, a dot and a sequence number, such as "$lambda:2.17".
// No plugin method can have such a name (vigor.Plugin.Handle refuses
// names that start with "$"), and a name is never given twice, not even
// by the process that replaces the plugin's after a reload.
//
// A lambda holds its closure until Unregister is called or the plugin
// unloads (its process exits: every lambda goes with it). A call of an
// expression whose lambda has gone fails with one line that names the
// plugin and the lambda:
//
//	[vigor] myplugin.$lambda:1.3: lambda $lambda:1.3 is not registered (it has been unregistered)
//
// Register and Unregister are made in the plugin alone: no call to the
// editor, so they need no ctx and no Caller. What puts the expression in
// the editor (a mapping, an autocmd) is one call of its own.
package lambda

import (
	"fmt"
	"strings"

	"github.com/vigorvim/vigor"
)

// Lambda is a Go closure registered as a method of its plugin. Its methods
// are safe for concurrent use.
type Lambda struct {
	p      *vigor.Plugin
	method string
	prefix string // "'plugin', '$lambda:…', [" of the expressions
}

// Register registers fn, a func as vigor.Plugin.Handle takes (its first
// parameter may be a context.Context, the others are decoded from the
// arguments in order; it returns nothing, a result, an error or both),
// and returns its Lambda. Register panics, as Handle does, if fn is not
// such a func: that is a mistake in the plugin's code. New returns the
// error instead, for a fn that comes from elsewhere.
func Register(p *vigor.Plugin, fn any) *Lambda {
	l, err := New(p, fn)
	if err != nil {
		panic(err.Error())
	}
	return l
}

// New is Register, with an error (naming lambda.New) instead of a panic
// when fn is not a func that Handle takes.
func New(p *vigor.Plugin, fn any) (*Lambda, error) {
	if p == nil {
		return nil, fmt.Errorf("lambda.New: the plugin is nil")
	}
	method, err := p.HandleLambda(fn)
	if err != nil {
		return nil, fmt.Errorf("lambda.New: %w", err)
	}
	return &Lambda{p: p, method: method, prefix: "(" + quote(p.Name()) + ", " + quote(method) + ", ["}, nil
}

// Method returns the lambda's method name, such as "$lambda:1.17", for a
// call by vigor#request(), vigor#notify() or vigor#request_async() that
// Notify and Request do not cover.
func (l *Lambda) Method() string { return l.method }

// Notify returns a Vim expression that calls the lambda by vigor#notify()
// with args (Vim expressions) as its arguments, such as
// "vigor#notify('myplugin', '$lambda:1.3', [a:1, v:event])". It evaluates to 0
// at once; the closure runs in the plugin in order with the plugin's
// other notifications, and an error it returns is shown to the user.
func (l *Lambda) Notify(args ...string) string { return l.expr("vigor#notify", args) }

// Request returns a Vim expression that calls the lambda by
// vigor#request() with args (Vim expressions) as its arguments, such as
// "vigor#request('myplugin', '$lambda:1.3', [a:1])". It evaluates to the
// closure's result (0 when it has none); an error it returns is thrown.
func (l *Lambda) Request(args ...string) string { return l.expr("vigor#request", args) }

func (l *Lambda) expr(fn string, args []string) string {
	n := len(fn) + len(l.prefix) + 2
	for _, a := range args {
		n += len(a) + 2
	}
	var b strings.Builder
	b.Grow(n)
	b.WriteString(fn)
	b.WriteString(l.prefix)
	for i, a := range args {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(a)
	}
	b.WriteString("])")
	return b.String()
}

// Unregister releases the closure. Later calls of its expressions fail
// with an error that says the lambda is not registered; a call already
// running finishes. Unregister of a lambda already unregistered does
// nothing.
func (l *Lambda) Unregister() { l.p.Unhandle(l.method) }

// quote returns s as a Vim string literal in single quotes.
func quote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}
