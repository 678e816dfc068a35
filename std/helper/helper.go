// Package helper shows messages that reach the user from any context,
// asks the user for input, sends keys and sources the Vim scripts that a
// plugin ships, the same way on Vim and Neovim.
//
//	err := helper.Echo(ctx, p, "indexed 120 files")
//	err = helper.EchoErr(ctx, p, "cannot reach the server")
//	name, ok, err := helper.Input(ctx, p, helper.InputOptions{
//		Prompt: "Rename to: ", Default: old, Completion: "file",
//	})
//	err = helper.Keys(ctx, p, "ggdG", false)
//	err = helper.Load(ctx, p, "autoload/myplugin.vim")
//	out, err := helper.Execute(ctx, p, "if l:all\n  ls!\nelse\n  ls\nendif", map[string]any{"all": true})
//
// # Echo and the SDK's Infof
//
// Plugin.Infof, Warnf and Errorf put a line that starts with the plugin's
// name ("[myplugin] ...") into :messages, at once, and log it: they are
// for reports that the user may look up later. Echo and EchoErr show the
// text as it is, with no prefix and nothing in the log, and so that it
// stays on the screen: the editors redraw after a channel call, and a
// message echoed during one, most of all from a handler of a
// notification or from a goroutine while the user is typing, is often
// wiped before it is seen (deno-denops-std's helper.echo works around
// the same trouble). Both show it from a timer that runs once the call
// has ended, after a redraw, so it is the last thing on the screen. Echo
// shows the text as :echo does, and not in :messages; EchoErr as
// :echoerr's highlight (ErrorMsg) with :echomsg, so it is in :messages
// too. It is not an exception: nothing stops. The function returns once
// the timer is set, not once the text is shown.
//
// A text of several lines ("\n" between them) is shown whole, as an
// :echo of several lines: when it is taller than the command line
// ('cmdheight') the editor asks with its hit-enter prompt ("Press ENTER
// or type command to continue"), on both editors, and nothing else does.
// EchoErr puts it in :messages a line each. In insert mode with
// 'showmode' set, both editors put "-- INSERT --" over a text of one
// line once the timer has run. A long message that must be read belongs
// in a buffer or a popup.
//
// # Input
//
// Input asks the user with input() and waits for the answer. Its bool is
// false when the user cancelled with <Esc> or CTRL-C, which input()
// alone returns as an empty answer; an empty answer with <CR> is "" and
// true. Completion is one of the editor's completions by name ("file",
// "buffer", "customlist,MyFunc": see :help :command-completion);
// CompleteFunc completes with a Go func, which Input registers as a
// std/lambda Lambda while input() waits and unregisters when it returns;
// Complete is a Vim expression of the plugin's own that returns the
// completions, such as a vigor#request() of a handler with a:lead, a:line
// and a:pos as its arguments:
//
//	name, ok, err := helper.Input(ctx, p, helper.InputOptions{
//		Prompt: "Branch: ",
//		CompleteFunc: func(ctx context.Context, lead, line string, pos int) ([]string, error) {
//			return branches(ctx, lead)
//		},
//	})
//
// An error of the completion (a CompleteFunc's, or one thrown by the
// Complete expression) offers nothing, and is shown as one line, the
// error's own, once input() has ended (and put in :messages): a message
// shown while input() waits is covered by the command line at once, on
// both editors. input() goes on, and Input returns the answer.
//
// # Scripts and keys
//
// Execute runs a script of several lines with Go values as l: variables
// and returns what it printed, as execute() does; Plugin.Exec runs one as
// :source does, showing what it prints, without l: variables. Load
// sources a script file that ships with the plugin once per plugin
// process; Keys types keys and waits until the editor has handled them.
//
// # Round trips and batches
//
// Echo, EchoErr, Execute, Keys and Load are one call each, and work in a batch
// (pass the *vigor.Batch as c). Input waits for the user, so it is an
// error in a batch, made without a call; it is one call, and each
// completion of a CompleteFunc one request of the editor's to the plugin.
package helper

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/vigorvim/vigor"
	"github.com/vigorvim/vigor/std/lambda"
)

// Echo shows msg in the message area as :echo does, from a timer after
// the call, so that it stays on the screen (see the package doc). It
// does not put msg in :messages. A msg of several lines is shown whole,
// with the editor's hit-enter prompt when it is taller than the command
// line.
func Echo(ctx context.Context, c vigor.Caller, msg string) error {
	if err := c.CallInto(ctx, nil, "vigor#_internal#helper#echo", msg, "None", false); err != nil {
		return fmt.Errorf("helper.Echo: %w", err)
	}
	return nil
}

// EchoErr shows msg in the message area in the ErrorMsg highlight and
// puts it in :messages (a line each, for a msg of several lines), from a
// timer after the call, as Echo does. It raises no error in the editor.
func EchoErr(ctx context.Context, c vigor.Caller, msg string) error {
	if err := c.CallInto(ctx, nil, "vigor#_internal#helper#echo", msg, "ErrorMsg", true); err != nil {
		return fmt.Errorf("helper.EchoErr: %w", err)
	}
	return nil
}

// InputOptions are what Input asks with.
type InputOptions struct {
	// Prompt is shown before the answer, as input()'s {prompt}.
	Prompt string
	// Default is the answer that the user starts from, as input()'s
	// {text}.
	Default string
	// Completion is one of the editor's completions by name, as
	// input()'s {completion}: "file", "buffer", "customlist,MyFunc"...
	Completion string
	// Complete, if set, is a Vim expression that returns the completions
	// (a List of Strings) of the argument lead a:lead in the command line
	// a:line at the cursor position a:pos, such as a vigor#request() of
	// the plugin's own handler. It is the plugin's own code, not the
	// user's input.
	Complete string
	// CompleteFunc, if set, completes in Go: it returns the completions
	// of the argument lead in the command line line at the byte position
	// pos. Input registers it as a std/lambda Lambda while input() waits
	// and unregisters it when Input returns, whatever ends it; a nil
	// result offers nothing. An error it returns is shown as one line in
	// the message area, the completion offers nothing, and input() goes
	// on. It needs a Caller with a plugin. Give at most one of
	// Completion, Complete and CompleteFunc.
	CompleteFunc func(ctx context.Context, lead, line string, pos int) ([]string, error)
	// SaveTypeahead keeps the keys typed before the prompt shows away
	// from it (inputsave() before input(), inputrestore() after): they
	// run once Input returns. Without it, they go into the answer, as
	// a user who types ":Find<CR>foo" before the prompt shows expects.
	// Set it when Input may ask while the user types something else,
	// such as from a notification's handler or a goroutine.
	SaveTypeahead bool
}

// Input asks the user for a line with input() and returns the answer,
// and false if the user cancelled it with <Esc> or CTRL-C. It waits for
// the user, so it is an error in a batch.
func Input(ctx context.Context, c vigor.Caller, opts InputOptions) (string, bool, error) {
	p, b := c.Batching()
	if b != nil {
		return "", false, errors.New("helper.Input: it waits for the user, so it cannot be in a batch")
	}
	n := 0
	for _, set := range []bool{opts.Completion != "", opts.Complete != "", opts.CompleteFunc != nil} {
		if set {
			n++
		}
	}
	if n > 1 {
		return "", false, errors.New("helper.Input: give one of Completion, Complete and CompleteFunc, not more")
	}
	complete := opts.Complete
	if opts.CompleteFunc != nil {
		if p == nil {
			return "", false, errors.New("helper.Input: CompleteFunc needs a plugin to call, and this Caller has none")
		}
		fn := opts.CompleteFunc
		l, err := lambda.New(p, func(ctx context.Context, lead, line string, pos int) ([]string, error) {
			got, err := fn(ctx, lead, line, pos)
			if err != nil {
				return nil, fmt.Errorf("helper.Input: CompleteFunc: %w", err)
			}
			if got == nil {
				got = []string{}
			}
			return got, nil
		})
		if err != nil {
			return "", false, fmt.Errorf("helper.Input: %w", err)
		}
		defer l.Unregister()
		complete = l.Request("a:lead", "a:line", "a:pos")
	}
	o := map[string]any{"prompt": opts.Prompt, "default": opts.Default, "completion": opts.Completion}
	if opts.SaveTypeahead {
		o["savetypeahead"] = true
	}
	var got []any
	var err error
	if complete != "" {
		err = c.CallInto(ctx, &got, "vigor#_internal#helper#input_go", o, complete)
	} else {
		err = c.CallInto(ctx, &got, "vigor#_internal#helper#input", o)
	}
	if err != nil {
		return "", false, fmt.Errorf("helper.Input: %w", err)
	}
	if len(got) != 2 {
		return "", false, fmt.Errorf("helper.Input: the editor answered %v, not [answer, ok]", got)
	}
	answer, _ := got[0].(string)
	return answer, got[1] == int64(1) || got[1] == true, nil
}

// Keys types keys, as if the user typed them, and returns once the
// editor has handled them all, as feedkeys() with the 'x' flag does:
// keys are the bytes of the keys ("\r" for <CR>, "\x1b" for <Esc>), not
// their <> notation. remap applies the user's mappings to them, as
// feedkeys()'s 'm' flag; without it they are not remapped ('n'). In
// Vim's Ex mode (vim -e or -es, as headless tests run it) feedkeys() with
// 'x' reads on from Ex mode's input once the keys run out, so Keys does
// not return until more input comes (or Vim quits at its end): use Keys
// in an editor with a screen.
func Keys(ctx context.Context, c vigor.Caller, keys string, remap bool) error {
	mode := "nx"
	if remap {
		mode = "mx"
	}
	if err := c.CallInto(ctx, nil, "feedkeys", keys, mode); err != nil {
		return fmt.Errorf("helper.Keys: %w", err)
	}
	return nil
}

// Load sources the Vim script file path once per plugin process: a
// second Load of the same file by the same process does nothing, and a
// restarted plugin loads it again. A relative path is relative to the
// plugin's directory (Plugin.Dir, <repo>/vigor/<name>); use "../../x" for
// a file at the repository's root. A file that does not exist is an
// error, made without a call; an error in the script is the editor's, and
// a Load that failed is not counted as done.
func Load(ctx context.Context, c vigor.Caller, path string) error {
	p, _ := c.Batching()
	if !filepath.IsAbs(path) {
		if p == nil {
			return fmt.Errorf("helper.Load: %s: a relative path needs a plugin's directory, and this Caller has no plugin", path)
		}
		path = filepath.Join(p.Dir(), path)
	}
	path = filepath.Clean(path)
	if st, err := os.Stat(path); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("helper.Load: %s: no such file", path)
		}
		return fmt.Errorf("helper.Load: %w", err)
	} else if st.IsDir() {
		return fmt.Errorf("helper.Load: %s is a directory, not a Vim script file", path)
	}
	name := ""
	if p != nil {
		name = p.Name()
	}
	key := name + ":" + strconv.Itoa(os.Getpid()) + ":" + path
	if err := c.CallInto(ctx, nil, "vigor#_internal#helper#load", key, path); err != nil {
		return fmt.Errorf("helper.Load: %w", err)
	}
	return nil
}
