package host

import (
	"errors"
	"fmt"
	"regexp"

	"github.com/vigorvim/vigor/internal/wire"
)

// CallError is an error raised by the editor while running a function.
// Msg is the editor's message as the user should see it (editorMessage);
// Full is the message as the editor sent it, for the log.
type CallError struct {
	Fn   string
	Msg  string
	Full string
}

func (e *CallError) Error() string {
	return fmt.Sprintf("%s(): %s", e.Fn, e.Msg)
}

// BatchError says which call of a batch failed; the calls before it ran.
// Msg and Full are as in CallError.
type BatchError struct {
	Index int
	Fn    string
	Msg   string
	Full  string
}

func (e *BatchError) Error() string {
	return fmt.Sprintf("call %d of the batch, %s(): %s", e.Index, e.Fn, e.Msg)
}

// ArgError is an argument of a call that cannot be sent to the editor:
// the codec refused it (a *wire.ValueError), so the call was not made.
type ArgError struct {
	Fn   string // the function called
	Call int    // the call's index in a batch, or -1
	Arg  int    // the argument's index, counting from 0
	Err  *wire.ValueError
	base int // how many items of Err.Path lead to the argument
}

// Msg says what is wrong with the argument, for users.
func (e *ArgError) Msg() string { return e.Err.At(e.base) }

// Item returns, for an argument that is a List, the index of its item
// that holds what is wrong, and what is wrong with that item; ok is false
// when the codec did not say.
func (e *ArgError) Item() (index int, msg string, ok bool) {
	if len(e.Err.Path) <= e.base {
		return 0, "", false
	}
	return e.Err.Path[e.base], e.Err.At(e.base + 1), true
}

func (e *ArgError) Error() string {
	s := fmt.Sprintf("%s(): argument %d: %s", e.Fn, e.Arg+1, e.Msg())
	if e.Call >= 0 {
		s = fmt.Sprintf("batch call %d, %s", e.Call, s)
	}
	return s
}

func (e *ArgError) Unwrap() error { return e.Err }

// argError returns err as an *ArgError of fn if the codec refused one of
// the arguments: the argument is at Path[base-1] of the codec's error.
func argError(fn string, call int, err error, base int) error {
	if err == nil {
		return nil
	}
	return argErrorOf(fn, call, err, base)
}

// argErrorOf is argError for an error: apart, so that the success path
// does not allocate the target of errors.As.
func argErrorOf(fn string, call int, err error, base int) error {
	var ve *wire.ValueError
	if errors.As(err, &ve) && len(ve.Path) >= base {
		return &ArgError{Fn: fn, Call: call, Arg: ve.Path[base-1], Err: ve, base: base}
	}
	return err
}

// Neovim puts where an error was raised in front of its message: the
// call stack, its entries joined by "..", each the function or script and
// its line, the kind of entry named where it changes, then the line of
// the last one: "function A[2]..B, line 6: ", or, for a chain that
// started in a sourced script, "function VigorTestExec[2]..script
// /tmp/x.vim[3]..function vigor#request[10]..Do[1]..Inner, line 1: ",
// or, for one that started at the top of a sourced script (:source typed,
// -S), the script's path, which may hold spaces, and its line first:
// "/tmp/my x.vim[3]..function Check[2]..vigor#request, line 64: ".
// Vim does not (its v:exception is the message alone).
//
// Only a stack at the start of the message goes: its first entry is a
// path or a name with its line ("[N]"), or an entry of a named kind, and
// every later one a name, or a kind and its text; no entry holds ": "
// (an error's own text, such as "E492: ...", does), so a message that
// quotes something like a stack ("echo l[1].. 'a, line 2: b'") is kept.
var throwpoint = regexp.MustCompile(func() string {
	const (
		text  = `(?:[^\[\]:]|:[^ ])` // a character of an entry: no brackets, no ": "
		num   = `\[\d+\]`
		kind  = `(?:function|script|autocommand|modeline|lambda|internal) ` + text + `+?`
		entry = `(?:` + kind + `|[^\s\[\]]+)(?:` + num + `)?`
		first = `(?:` + kind + `(?:` + num + `)?|[^\s\[\]]` + text + `*?` + num + `)`
	)
	return `^(?:Error executing lua: )?` + first + `(?:\.\.` + entry + `)*, line \d+: `
}())

// editorMessage is the message of an error that the editor raised, as the
// user should see it: the message itself, the same on both editors. The
// stack in front of it (throwpoint) names the runtime's private functions
// and the user's scripts; it stays in the log (CallError.Full).
func editorMessage(msg string) string {
	return throwpoint.ReplaceAllString(msg, "")
}
