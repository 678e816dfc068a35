// Package vigortest runs a plugin author's tests against real editors: one
// test body runs in a headless Vim and in a headless Neovim, with the
// author's plugin repository on 'runtimepath', loaded by Vigor's normal
// runtime (discovery, build, start), as a user's editor would load it.
//
//	func TestGreet(t *testing.T) {
//		vigortest.Each(t, vigortest.Options{}, func(t *testing.T, ed *vigortest.Editor) {
//			got := ed.Request(t, "hello", "greet", "you")
//			if got != "Hello, you!" {
//				t.Fatalf("%s: greet = %v", ed.Kind, got)
//			}
//		})
//	}
//
// The editors load the repository as a plugin manager would: it goes on
// 'runtimepath' with its after/ directory, Options.Vimrc and Options.Cmds
// run, then Vigor starts and the repository's plugin/ and after/plugin/
// files are sourced; autoload/, ftplugin/ and doc/ work as in a user's
// editor (help tags are made in a temporary copy when the repository
// ships no doc/tags). The editors' own runtime plugins ($VIMRUNTIME/plugin)
// stay out, as with -u NONE.
//
// Headless Vim runs in Ex mode, where keys, mappings, :normal and
// feedkeys() do nothing; Options.Screen gives both editors a real screen
// in a terminal, where Editor.Keys types keys and Editor.Screen reads
// what it shows. Messages, WaitMessage and Output capture what the
// plugin showed, on both editors.
//
// The editors are found in $VIGOR_TEST_VIM and $VIGOR_TEST_NVIM, else as
// vim and nvim on $PATH. An editor that is missing fails the test, saying
// how to install it, or skips it with Options.Missing = Skip; so does
// tmux for Options.Screen. Plugins are built once into a
// private cache shared by the test binary ($VIGOR_TEST_CACHE, else the
// user's cache directory), so only the first run pays for the build.
//
// For fast unit tests of handlers, NewFake runs the plugin's setup in the
// test's own process against an in-memory editor whose functions are Go
// functions of the test (see Fake): no editor, no build. It speaks Neovim's
// protocol, or Vim's with FakeOptions.Editor "vim", so that one body can
// run against both:
//
//	for _, editor := range vigortest.Kinds {
//		f := vigortest.NewFake(t, vigortest.FakeOptions{Editor: editor, Funcs: funcs}, setup)
//		...
//	}
package vigortest

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vigorvim/vigor/internal/editortest"
)

// Kinds are the editors that Each runs: "vim" and "nvim".
var Kinds = []string{"vim", "nvim"}

// Missing says what Each does when an editor, or tmux for
// Options.Screen, is not installed.
type Missing int

const (
	// Fail fails the test, saying how to install what is missing.
	Fail Missing = iota
	// Skip skips the editor's subtest, saying what is missing.
	Skip
)

// Options configure the editors that Each starts.
type Options struct {
	// Repos are the plugin repositories to put on 'runtimepath' (the
	// directories that hold vigor/NAME/). Empty means the repository that
	// holds the working directory: the nearest directory at or above it
	// that has a vigor/ directory.
	Repos []string
	// Vimrc is a vimrc file (Vim script, or Lua on Neovim) that the
	// editors source as a user's: after Repos are on 'runtimepath' and
	// before Cmds, Vigor and the plugins.
	Vimrc string
	// Cmds are Ex commands run before Vigor starts and the plugins load,
	// after Vimrc: the lines of a vimrc (to set g:vigor# options or your
	// plugin's own, say).
	Cmds []string
	// Env adds environment variables for the editors and so the plugins.
	Env []string
	// Missing is what to do when an editor, or tmux for Screen, is not
	// installed.
	Missing Missing
	// Timeout bounds each wait for a plugin, its first build included.
	// Zero means 2 minutes.
	Timeout time.Duration
	// Screen runs each editor with a real screen, in a terminal of
	// ScreenWidth x ScreenHeight (default 100x30), instead of headless.
	// Headless Vim runs in Ex mode, where keys, mappings, :normal and
	// feedkeys() do nothing (they work in headless Neovim); with a
	// screen, both editors are in Normal mode as a user's, Editor.Keys
	// types keys and Editor.Screen reads what the screen shows, and Eval,
	// Cmd and Request still work (over a channel of the test's own). It
	// needs tmux (apt-get install tmux, or brew install tmux): without it
	// the test fails, saying so, or skips with Missing = Skip. Vigor
	// shows its builds in the message line ("[vigor] built NAME in
	// 0.9s"): WaitLoaded the plugins before reading what a command
	// echoed there.
	Screen                    bool
	ScreenWidth, ScreenHeight int
}

// Editor is a running headless editor with Vigor loaded.
type Editor struct {
	// Kind is "vim" or "nvim".
	Kind    string
	ed      *editortest.Editor
	timeout time.Duration
}

// Each runs body once per editor kind, as parallel subtests named after
// the kind. Each editor is stopped when its subtest ends.
func Each(t *testing.T, opts Options, body func(t *testing.T, ed *Editor)) {
	t.Helper()
	each(t, opts, exec.LookPath, body)
}

// each is Each, with lookPath to find tmux for a screen.
func each(t *testing.T, opts Options, lookPath func(file string) (string, error), body func(t *testing.T, ed *Editor)) {
	t.Helper()
	repos, err := repos(opts.Repos)
	if err != nil {
		t.Fatal(err)
	}
	timeout := opts.Timeout
	if timeout == 0 {
		timeout = 2 * time.Minute
	}
	cmds := append([]string{fmt.Sprintf("let g:vigor#request_timeout = %d", timeout.Milliseconds())}, opts.Cmds...)
	for _, kind := range Kinds {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			if err := missing(kind, opts.Screen, lookPath); err != nil {
				if opts.Missing == Skip {
					t.Skip(err)
				}
				t.Fatal(err)
			}
			ed := editortest.Start(t, kind, editortest.Options{RTP: repos, Load: true, Vimrc: opts.Vimrc, Cmds: cmds, Env: opts.Env,
				Screen: opts.Screen, ScreenWidth: opts.ScreenWidth, ScreenHeight: opts.ScreenHeight})
			body(t, &Editor{Kind: kind, ed: ed, timeout: timeout})
		})
	}
}

// missing returns an error that says what to install when the editor
// kind, or tmux for a screen (lookPath finds it), is not installed.
func missing(kind string, screen bool, lookPath func(file string) (string, error)) error {
	if _, err := editortest.Binary(kind); err != nil {
		return fmt.Errorf("vigortest: %w", err)
	}
	if !screen {
		return nil
	}
	if _, err := lookPath("tmux"); err != nil {
		return fmt.Errorf("vigortest: Options.Screen needs tmux, and it is not installed: apt-get install tmux, or brew install tmux, then put tmux on $PATH (%w)", err)
	}
	return nil
}

// repos returns the repositories as absolute paths, or the one that holds
// the working directory.
func repos(dirs []string) ([]string, error) {
	if len(dirs) == 0 {
		wd, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		for d := wd; ; d = filepath.Dir(d) {
			if st, err := os.Stat(filepath.Join(d, "vigor")); err == nil && st.IsDir() {
				return []string{d}, nil
			}
			if filepath.Dir(d) == d {
				return nil, fmt.Errorf("vigortest: no vigor/ directory at or above %s: set Options.Repos to your plugin repository", wd)
			}
		}
	}
	out := make([]string, len(dirs))
	for i, d := range dirs {
		abs, err := filepath.Abs(d)
		if err != nil {
			return nil, err
		}
		out[i] = abs
	}
	return out, nil
}

// Request calls method of plugin with args through vigor#request(), and
// returns the result. It waits for the plugin to be built and started. An
// error fails the test.
func (e *Editor) Request(t testing.TB, plugin, method string, args ...any) any {
	t.Helper()
	v, err := e.RequestErr(plugin, method, args...)
	if err != nil {
		t.Fatalf("%s: %v", e.Kind, err)
	}
	return v
}

// RequestErr is Request that returns the error, the text that the user
// would see (such as "[vigor] hello.greet: takes 1 argument (a String),
// got 0"), instead of failing the test.
func (e *Editor) RequestErr(plugin, method string, args ...any) (any, error) {
	if args == nil {
		args = []any{}
	}
	return e.ed.Call(e.timeout+10*time.Second, "vigor#request", plugin, method, args)
}

// WaitLoaded waits until plugin has loaded, and fails the test if it
// failed to load (showing why) or did not load within Options.Timeout.
func (e *Editor) WaitLoaded(t testing.TB, plugin string) {
	t.Helper()
	q := editortest.VimString(plugin)
	e.ed.WaitFor(t, fmt.Sprintf("index(['loaded', 'failed'], vigor#plugin#status(%s)) >= 0", q), e.timeout)
	if st := e.ed.MustEval(t, "vigor#plugin#status("+q+")"); st != "loaded" {
		why, _ := e.ed.Eval("get(vigor#_internal#plugin#get(" + q + "), 'error', '')")
		t.Fatalf("%s: %s failed to load: %v", e.Kind, plugin, why)
	}
}

// Cmd runs the Ex command cmd. An error fails the test.
func (e *Editor) Cmd(t testing.TB, cmd string) {
	t.Helper()
	e.ed.MustExec(t, cmd)
}

// CmdErr runs the Ex command cmd and returns its error, if any.
func (e *Editor) CmdErr(cmd string) error { return e.ed.Exec(cmd) }

// Eval evaluates the Vim expression expr and returns its value (a Number
// is an int64, a String a string, a List an []any, a Dict a
// map[string]any). An error fails the test.
func (e *Editor) Eval(t testing.TB, expr string) any {
	t.Helper()
	return e.ed.MustEval(t, expr)
}

// EvalErr evaluates expr and returns its value or its error.
func (e *Editor) EvalErr(expr string) (any, error) { return e.ed.Eval(expr) }

// WaitFor waits until the expression expr is true (non-zero), for up to
// timeout, and fails the test otherwise.
func (e *Editor) WaitFor(t testing.TB, expr string, timeout time.Duration) {
	t.Helper()
	e.ed.WaitFor(t, expr, timeout)
}

// Messages returns what :messages shows: the messages that the plugins
// showed (Infof, Warnf, Errorf, :echomsg, errors), not Vim's own
// "Entering Ex mode" of a headless Vim.
func (e *Editor) Messages(t testing.TB) string {
	t.Helper()
	return e.ed.Messages(t)
}

// ClearMessages empties :messages, so that Messages and WaitMessage see
// only what comes after.
func (e *Editor) ClearMessages(t testing.TB) {
	t.Helper()
	e.ed.MustExec(t, "messages clear")
}

// WaitMessage waits until :messages holds want, for up to timeout, and
// returns the messages; after timeout it fails the test, showing them. A
// plugin's Infof, Warnf and Errorf reach the editor as notifications,
// after the call that made them may have returned: wait for them here.
func (e *Editor) WaitMessage(t testing.TB, want string, timeout time.Duration) string {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		m := e.Messages(t)
		if strings.Contains(m, want) {
			return m
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: :messages does not hold %q within %s; it holds:\n%s", e.Kind, want, timeout, m)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Output runs the Ex command cmd and returns what it echoed (:echo,
// :echomsg and the messages shown while it ran, a plugin's Infof during a
// vigor#request() that cmd made among them), as execute() captures it,
// with the leading newline of each message. An error fails the test.
func (e *Editor) Output(t testing.TB, cmd string) string {
	t.Helper()
	out, err := e.OutputErr(cmd)
	if err != nil {
		t.Fatalf("%s: %s: %v", e.Kind, cmd, err)
	}
	return out
}

// OutputErr is Output that returns the error that cmd raised (the line
// that the user would see, such as "Vim:E492: Not an editor command:
// nosuch") instead of failing the test.
func (e *Editor) OutputErr(cmd string) (string, error) {
	v, err := e.ed.Call(0, "execute", cmd)
	s, _ := v.(string)
	return s, err
}

// Keys types keys into an editor with a screen (Options.Screen), as the
// user would. Each argument is text with Vim's key notation (<CR>,
// <Esc>, <Tab>, <BS>, <Space>, <Up>, <F5>, <C-w>, <M-x>, <lt> for <),
// such as ":KitEcho hi<CR>", or else, as tmux's send-keys takes it, a
// tmux key name (Enter, Escape, C-w) or literal text, so Keys(t,
// ":normal! dd", "Enter") types a command line too. <Leader> and
// <Plug> are no keys: type what they stand for. Keys returns once the
// terminal has the keys; the editor handles them after: wait for what
// they do with WaitScreen or WaitFor.
func (e *Editor) Keys(t testing.TB, keys ...string) {
	t.Helper()
	tm := e.term(t)
	for _, k := range keys {
		segs, ok := vimKeys(k)
		if !ok {
			tm.Keys(t, k)
			continue
		}
		for _, s := range segs {
			if s.literal {
				tm.Tmux(t, "send-keys", "-t", "0", "-l", s.text)
			} else {
				tm.Keys(t, s.text)
			}
		}
	}
}

// keySeg is a run of literal text, or one tmux key name.
type keySeg struct {
	text    string
	literal bool
}

// vimKeys splits s at Vim's key notation into literal runs and tmux key
// names; ok is false when s holds no key notation that it knows.
func vimKeys(s string) (segs []keySeg, ok bool) {
	var lit strings.Builder
	for i := 0; i < len(s); {
		if s[i] == '<' {
			if j := strings.IndexByte(s[i:], '>'); j > 0 {
				if name, known := tmuxKey(s[i+1 : i+j]); known {
					ok = true
					if name == "<" {
						lit.WriteByte('<')
					} else {
						if lit.Len() > 0 {
							segs = append(segs, keySeg{lit.String(), true})
							lit.Reset()
						}
						segs = append(segs, keySeg{name, false})
					}
					i += j + 1
					continue
				}
			}
		}
		lit.WriteByte(s[i])
		i++
	}
	if lit.Len() > 0 {
		segs = append(segs, keySeg{lit.String(), true})
	}
	return segs, ok
}

// tmuxKey returns tmux's name of the key whose Vim notation is <name>
// (without the brackets), or "<" for <lt>.
func tmuxKey(name string) (string, bool) {
	switch strings.ToLower(name) {
	case "cr", "enter", "return":
		return "Enter", true
	case "esc":
		return "Escape", true
	case "tab":
		return "Tab", true
	case "bs":
		return "BSpace", true
	case "space":
		return "Space", true
	case "del":
		return "DC", true
	case "up", "down", "left", "right", "home", "end":
		return strings.ToUpper(name[:1]) + strings.ToLower(name[1:]), true
	case "pageup":
		return "PPage", true
	case "pagedown":
		return "NPage", true
	case "lt":
		return "<", true
	}
	if len(name) >= 2 && (name[0] == 'F' || name[0] == 'f') {
		if n, err := strconv.Atoi(name[1:]); err == nil && n >= 1 && n <= 12 {
			return "F" + name[1:], true
		}
	}
	if len(name) == 3 && name[1] == '-' {
		switch name[0] {
		case 'C', 'c':
			return "C-" + strings.ToLower(name[2:]), true
		case 'M', 'm', 'A', 'a':
			return "M-" + name[2:], true
		}
	}
	return "", false
}

// Screen returns the text that an editor with a screen (Options.Screen)
// shows: one line per row, without trailing blanks.
func (e *Editor) Screen(t testing.TB) string {
	t.Helper()
	return e.term(t).Screen(t)
}

// WaitScreen waits until the screen of an editor with a screen
// (Options.Screen) holds want, for up to timeout, and returns the
// screen; after timeout it fails the test, showing the screen.
func (e *Editor) WaitScreen(t testing.TB, want string, timeout time.Duration) string {
	t.Helper()
	return e.term(t).WaitScreen(t, want, timeout)
}

func (e *Editor) term(t testing.TB) *editortest.Term {
	t.Helper()
	tm := e.ed.Term()
	if tm == nil {
		t.Fatalf("%s: the editor has no screen: set vigortest.Options.Screen", e.Kind)
	}
	return tm
}

// IsEditorError reports whether err is an error that the editor raised
// (such as a plugin's error thrown by vigor#request()), rather than a
// failure to reach the editor.
func IsEditorError(err error) bool {
	var ex *editortest.Exception
	return errors.As(err, &ex)
}
