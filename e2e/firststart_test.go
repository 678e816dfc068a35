package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/vigorvim/vigor/internal/editortest"
)

// slowGo writes, into dir, a go command whose build of the vigor command
// takes secs seconds and is then a copy of vigor; any other go build is a
// copy of plugin, or with plugin "" the real build after pluginSecs
// seconds; other go commands run the real Go (as fakeGo, with slow
// builds). A secs or pluginSecs that is an absolute path holds the build
// until that file exists (release), for at most 5 minutes.
func slowGo(t *testing.T, dir, secs, vigor, plugin string, pluginSecs ...string) string {
	t.Helper()
	realGo, err := exec.LookPath("go")
	if err != nil {
		t.Fatal(err)
	}
	q := func(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
	build := `exec cp ` + q(plugin) + ` "$out"`
	if plugin == "" {
		build = `pause ` + q(pluginSecs[0]) + `; exec ` + q(realGo) + ` "$@"`
	}
	script := `#!/bin/sh
pause() {
  case $1 in
  /*) n=0; while [ ! -e "$1" ] && [ $n -lt 6000 ]; do sleep 0.05; n=$((n+1)); done ;;
  *) sleep "$1" ;;
  esac
}
out=
prev=
for a in "$@"; do
  if [ "$prev" = -o ]; then out=$a; fi
  prev=$a
done
case " $* " in
*" ./cmd/vigor "*)
  pause ` + q(secs) + `
  exec cp ` + q(vigor) + ` "$out" ;;
esac
if [ "$1" = build ]; then
  ` + build + `
fi
exec ` + q(realGo) + ` "$@"
`
	path := filepath.Join(dir, "go")
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// release creates the file path, which lets a held build or handler go on.
func release(t *testing.T, path string) {
	t.Helper()
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
}

// A request made during a first start waits for the vigor command's build
// however long it takes: g:vigor#request_timeout is for a plugin that does
// not answer, not for the compiler. No message says "reserved".
func TestRequestWaitsForVigorCommandBuild(t *testing.T) {
	pre := t.TempDir()
	vigor, plugin := prebuild(t, pre)
	for _, kind := range editortest.Kinds {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			// The build is held until the status has been read, and then
			// for three times the request timeout.
			hold := filepath.Join(dir, "release")
			goCmd := slowGo(t, dir, hold, vigor, plugin)
			ed := editortest.Start(t, kind, editortest.Options{RTP: []string{hello()}, Cache: filepath.Join(dir, "cache"),
				Cmds: []string{"let g:vigor#go = '" + goCmd + "'", "let g:vigor#request_timeout = 1000"}})
			t.Cleanup(func() { _ = os.WriteFile(hold, nil, 0o600) })
			// While the vigor command builds, the status and the health
			// report say so in the user's words.
			for _, list := range []string{"execute('Vigor status')", "string(vigor#health#report())"} {
				if got := ed.MustEval(t, list).(string); strings.Contains(got, "reserved") || !strings.Contains(got, "hello: building the vigor command") {
					t.Fatalf("%s: %s during the vigor command's build: %s", kind, list, got)
				}
			}
			time.AfterFunc(3*time.Second, func() { _ = os.WriteFile(hold, nil, 0o600) })
			got, err := ed.Eval(`vigor#request('hello', 'greet', ['slow build'])`)
			msgs := ed.Messages(t)
			if err != nil || got != "Hello, slow build!" {
				t.Fatalf("%s: greet = %#v, %v; messages: %s", kind, got, err, msgs)
			}
			if strings.Contains(msgs, "reserved") {
				t.Fatalf("%s: the messages say reserved:\n%s", kind, msgs)
			}
		})
	}
}

// The line that a request waiting for the vigor command's build shows
// says so in the user's words, and the request's result follows.
func TestWaitingForVigorCommandOnScreen(t *testing.T) {
	pre := t.TempDir()
	vigor, plugin := prebuild(t, pre)
	for _, kind := range editortest.Kinds {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			// The build is held until the screen has shown the line.
			hold := filepath.Join(dir, "release")
			goCmd := slowGo(t, dir, hold, vigor, plugin)
			tm := startTermCmds(t, kind, filepath.Join(dir, "cache"),
				[]string{"let g:vigor#go = '" + goCmd + "'", "let g:vigor#request_timeout = 1000"}, hello())
			t.Cleanup(func() { _ = os.WriteFile(hold, nil, 0o600) })
			tm.keys(":echo vigor#request('hello', 'greet', ['screen'])", "Enter")
			deadline := time.Now().Add(60 * time.Second)
			waited := false
			for {
				s := tm.screen()
				if strings.Contains(s, "reserved") {
					t.Fatalf("%s: the screen says reserved:\n%s", kind, s)
				}
				if !waited && strings.Contains(s, "[vigor] waiting for hello (building the vigor command, ") {
					waited = true
					release(t, hold)
				}
				if strings.Contains(s, "Hello, screen!") {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("%s: no result within 60 s; the screen shows:\n%s", kind, s)
				}
				time.Sleep(50 * time.Millisecond)
			}
			if !waited {
				t.Fatalf("%s: the request did not say that it waits for the vigor command's build", kind)
			}
		})
	}
}

// The vigor command's build shows its elapsed time, and its line goes when
// no plugin build follows: with Vigor alone, and with only lazy plugins.
func TestVigorCommandBuildLineOnScreen(t *testing.T) {
	pre := t.TempDir()
	vigor, plugin := prebuild(t, pre)
	line := regexp.MustCompile(`\[vigor\] building the vigor command \(first use, [1-9]\d*s\)\.\.\.`)
	for _, kind := range editortest.Kinds {
		for _, c := range []struct {
			name  string
			repos []string
		}{{"alone", nil}, {"lazy", rtp("lazy")}} {
			t.Run(kind+"/"+c.name, func(t *testing.T) {
				t.Parallel()
				dir := t.TempDir()
				// The build is held until its line with a time is shown.
				hold := filepath.Join(dir, "release")
				goCmd := slowGo(t, dir, hold, vigor, plugin)
				tm := startTermCmds(t, kind, filepath.Join(dir, "cache"), []string{"let g:vigor#go = '" + goCmd + "'"}, c.repos...)
				deadline := time.Now().Add(60 * time.Second)
				t.Cleanup(func() { _ = os.WriteFile(hold, nil, 0o600) })
				var seen []string
				last := "-"
				for s := tm.screen(); !line.MatchString(s); s = tm.screen() {
					if l := lastLine(s); l != last {
						last = l
						seen = append(seen, time.Now().Format("05.000")+" "+l)
					}
					if time.Now().After(deadline) {
						t.Fatalf("%s: the build's line with its time was not on the screen; its last line was %q", kind, seen[max(0, len(seen)-4):])
					}
					time.Sleep(50 * time.Millisecond)
				}
				release(t, hold)
				for s := tm.screen(); strings.Contains(s, "[vigor] building the vigor command"); s = tm.screen() {
					if time.Now().After(deadline) {
						t.Fatalf("%s: the build's line stays on the screen:\n%s", kind, s)
					}
					time.Sleep(50 * time.Millisecond)
				}
			})
		}
	}
}

// The first use of a lazy plugin (its command, or a request) and a request
// that waits for the vigor command's build show their progress, then the
// result, with no hit-enter prompt.
func TestFirstUseWithoutPrompt(t *testing.T) {
	pre := t.TempDir()
	vigor, plugin := prebuild(t, pre)
	for _, kind := range editortest.Kinds {
		for _, c := range []struct {
			name, cmd, want string
			repos           []string
			real            bool
		}{
			{"command", ":execute 'LazyHello a' | echo 'after' . ' LazyHello'", "after LazyHello", rtp("lazy"), true},
			{"request", ":echo 'log: ' . string(vigor#request('lazyp', 'log', []))", "log: []", rtp("lazy"), true},
			{"build", ":echo vigor#request('hello', 'greet', ['first'])", "Hello, first!", []string{hello()}, false},
			{"wait", ":call vigor#plugin#wait('hello') | echo 'waited' . ' for hello'", "waited for hello", []string{hello()}, false},
		} {
			t.Run(kind+"/"+c.name, func(t *testing.T) {
				t.Parallel()
				dir := t.TempDir()
				// The build is held until the wait has shown its line.
				hold := filepath.Join(dir, "release")
				t.Cleanup(func() { _ = os.WriteFile(hold, nil, 0o600) })
				goCmd := slowGo(t, dir, hold, vigor, plugin)
				if c.real {
					goCmd = slowGo(t, dir, "0", vigor, "", hold)
				}
				tm := startTermCmds(t, kind, filepath.Join(dir, "cache"), []string{"let g:vigor#go = '" + goCmd + "'"}, c.repos...)
				time.Sleep(200 * time.Millisecond)
				tm.keys(c.cmd, "Enter")
				deadline := time.Now().Add(60 * time.Second)
				waited := false
				for {
					s := tm.screen()
					if !waited && strings.Contains(s, "[vigor] ") {
						waited = true
						release(t, hold)
					}
					if strings.Contains(s, "Press ENTER") {
						t.Fatalf("%s: a hit-enter prompt:\n%s", kind, s)
					}
					if strings.Contains(s, c.want) {
						break
					}
					if time.Now().After(deadline) {
						t.Fatalf("%s: %q is not on the screen; it shows:\n%s", kind, c.want, s)
					}
					time.Sleep(20 * time.Millisecond)
				}
				time.Sleep(500 * time.Millisecond)
				if s := tm.screen(); strings.Contains(s, "Press ENTER") || !strings.Contains(s, c.want) {
					t.Fatalf("%s: a hit-enter prompt, or the result is gone:\n%s", kind, s)
				}
				if !waited {
					t.Fatalf("%s: the wait showed no progress", kind)
				}
			})
		}
	}
}

// A request to a loaded plugin that has not answered after a second says
// what it waits for, as a request waiting for a plugin to start does, then
// shows its result with no hit-enter prompt.
func TestLongRequestOnScreen(t *testing.T) {
	line := regexp.MustCompile(`\[vigor\] waiting for vhard \(running hold, [1-9]\d*s; CTRL-C stops\)`)
	for _, kind := range editortest.Kinds {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			tm := startTerm(t, kind, rtp("hard")...)
			tm.waitLoaded("vhard")
			// The handler is held until the line has been shown.
			hold := filepath.Join(t.TempDir(), "release")
			t.Cleanup(func() { _ = os.WriteFile(hold, nil, 0o600) })
			tm.keys(":redraw!", "Enter", ":echo 'got ' . vigor#request('vhard', 'hold', ['"+hold+"'])", "Enter")
			deadline := time.Now().Add(60 * time.Second)
			waited := false
			for {
				s := tm.screen()
				if !waited && line.MatchString(s) {
					waited = true
					release(t, hold)
				}
				if strings.Contains(s, "Press ENTER") {
					t.Fatalf("%s: a hit-enter prompt:\n%s", kind, s)
				}
				if strings.Contains(s, "got released") {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("%s: no result within 60 s; the screen shows:\n%s", kind, s)
				}
				time.Sleep(20 * time.Millisecond)
			}
			if !waited {
				t.Fatalf("%s: the request showed no waiting line", kind)
			}
		})
	}
}

// lastLine is the last line of the screen s that is not empty.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n "), "\n")
	return lines[len(lines)-1]
}

// vigor#plugin#wait() waits through builds as a request does: its
// timeout counts only the time when no build runs, the vigor command's or
// the plugin's own. When it does time out, its message says what the
// plugin was doing in the user's words.
func TestPluginWaitWaitsForBuilds(t *testing.T) {
	pre := t.TempDir()
	vigor, plugin := prebuild(t, pre)
	for _, kind := range editortest.Kinds {
		for _, c := range []struct {
			name, what string
			goCmd      func(dir string) string
		}{
			{"vigor", "vigor command", func(dir string) string { return slowGo(t, dir, "3", vigor, plugin) }},
			{"plugin", "plugin", func(dir string) string { return slowGo(t, dir, "0", vigor, "", "3") }},
		} {
			t.Run(kind+"/"+c.name, func(t *testing.T) {
				t.Parallel()
				dir := t.TempDir()
				ed := editortest.Start(t, kind, editortest.Options{RTP: []string{hello()}, Cache: filepath.Join(dir, "cache"),
					Cmds: []string{"let g:vigor#go = '" + c.goCmd(dir) + "'"}})
				if c.name == "plugin" {
					ed.WaitFor(t, "vigor#plugin#status('hello') ==# 'building'", 30*time.Second)
				}
				got, err := ed.Eval(`vigor#plugin#wait('hello', {'timeout': 1000})`)
				msgs := ed.Messages(t)
				if err != nil || got != int64(0) {
					t.Fatalf("%s: vigor#plugin#wait() during the %s's build = %#v, %v; messages: %s", kind, c.what, got, err, msgs)
				}
				if st := ed.MustEval(t, "vigor#plugin#status('hello')"); st != "loaded" {
					t.Fatalf("%s: hello is %v after the wait", kind, st)
				}
				// A plugin that nobody loads is waited for until the timeout.
				ed.MustExec(t, "call vigor#plugin#unload('hello')")
				ed.WaitFor(t, "vigor#plugin#status('hello') ==# 'stopped'", 30*time.Second)
				for _, w := range []struct{ name, doing string }{{"hello", "stopped"}, {"nosuch", "unknown to Vigor"}} {
					got, err = ed.Eval(`vigor#plugin#wait('` + w.name + `', {'timeout': 200})`)
					msgs = ed.Messages(t)
					want := "[vigor] " + w.name + " did not load within 200 ms (it is " + w.doing + ")"
					if err != nil || got != int64(-1) || !strings.Contains(msgs, want) {
						t.Fatalf("%s: vigor#plugin#wait('%s') = %#v, %v; want -1 and %q in the messages: %s", kind, w.name, got, err, want, msgs)
					}
				}
				if strings.Contains(msgs, "reserved") {
					t.Fatalf("%s: the messages say reserved:\n%s", kind, msgs)
				}
			})
		}
	}
}
