package e2e

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vigorvim/vigor/internal/editortest"
)

// startRounds is how many rounds TestEditorsStartAtOnce runs:
// $VIGOR_TEST_START_ROUNDS, else 4 (the full check of issue 9 is 25).
func startRounds(t *testing.T) int {
	s := os.Getenv("VIGOR_TEST_START_ROUNDS")
	if s == "" {
		return 4
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		t.Fatalf("$VIGOR_TEST_START_ROUNDS is %q, want a positive number", s)
	}
	return n
}

// fakeGo writes, into dir, a go command that logs each build to dir/builds.log
// and fakes it with a copy of a program built once beforehand: vigor for
// the vigor command, plugin for any other go build. The vigor command's
// build takes 300 ms, so that editors started together all find it
// running, and never ends while the file dir/hang exists. Other go commands
// run the real Go.
func fakeGo(t *testing.T, dir, vigor, plugin string) string {
	t.Helper()
	realGo, err := exec.LookPath("go")
	if err != nil {
		t.Fatal(err)
	}
	q := func(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
	log := filepath.Join(dir, "builds.log")
	script := `#!/bin/sh
out=
prev=
for a in "$@"; do
  if [ "$prev" = -o ]; then out=$a; fi
  prev=$a
done
case " $* " in
*" ./cmd/vigor "*)
  echo "vigor $GOTOOLCHAIN" >> ` + q(log) + `
  if [ -e ` + q(filepath.Join(dir, "hang")) + ` ]; then exec sleep 60; fi
  sleep 0.3
  exec cp ` + q(vigor) + ` "$out" ;;
esac
if [ "$1" = build ]; then
  echo "plugin $GOTOOLCHAIN" >> ` + q(log) + `
  exec cp ` + q(plugin) + ` "$out"
fi
exec ` + q(realGo) + ` "$@"
`
	path := filepath.Join(dir, "go")
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// prebuilt holds the vigor command and the hello example, built once per
// test binary into prebuildDir (made and removed by TestMain).
var prebuilt struct {
	once          sync.Once
	vigor, plugin string
	err           error
}

// prebuild returns the vigor command and the hello example, for fakeGo to
// copy. They are built once, on the first call, for every test: dir, the
// caller's directory, is not written.
func prebuild(t *testing.T, dir string) (vigor, plugin string) {
	t.Helper()
	prebuilt.once.Do(func() { prebuilt.vigor, prebuilt.plugin, prebuilt.err = buildHello(prebuildDir) })
	if prebuilt.err != nil {
		t.Fatal(prebuilt.err)
	}
	return prebuilt.vigor, prebuilt.plugin
}

// buildHello builds the vigor command and, with it, the hello example,
// into dir.
func buildHello(dir string) (vigor, plugin string, err error) {
	if dir == "" {
		return "", "", errors.New("prebuild: no directory (TestMain makes it)")
	}
	vigor = filepath.Join(dir, "vigor")
	cmd := exec.Command("go", "build", "-buildvcs=false", "-o", vigor, "./cmd/vigor")
	cmd.Dir = editortest.Root()
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOTOOLCHAIN=local")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", "", fmt.Errorf("go build ./cmd/vigor: %w\n%s", err, out)
	}
	cmd = exec.Command(vigor, "build", "-json", "-cache", filepath.Join(dir, "cache"), "-sdk", editortest.Root(),
		"hello="+filepath.Join(hello(), "vigor", "hello"))
	out, err := cmd.Output()
	if err != nil {
		return "", "", fmt.Errorf("vigor build hello: %w\n%s", err, out)
	}
	for _, line := range strings.Split(string(out), "\n") {
		var e struct{ Status, Bin string }
		if json.Unmarshal([]byte(line), &e) == nil && e.Bin != "" {
			return vigor, e.Bin, nil
		}
	}
	return "", "", fmt.Errorf("vigor build hello reported no program:\n%s", out)
}

// Four editors, two Vim and two Neovim (or, every other round, two
// Neovims), started at the same moment on one
// empty cache all start Vigor and load a plugin, and between them build the
// vigor command once and the plugin once, with GOTOOLCHAIN=local (issue 9,
// item 7). The builds are copies of programs built beforehand (fakeGo), so
// a round costs only the editors' start. $VIGOR_TEST_START_ROUNDS sets the
// number of rounds (default 4; issue 9 asks for 25). TestMkdirRace is the
// narrow check of the directories that the editors make at once.
func TestEditorsStartAtOnce(t *testing.T) {
	dir := t.TempDir()
	vigor, plugin := prebuild(t, dir)
	for round := range startRounds(t) {
		// Two Neovims alone race hardest (item 0 of issue 16): every other
		// round is theirs.
		kinds := []string{"vim", "nvim", "vim", "nvim"}
		if round%2 == 1 {
			kinds = []string{"nvim", "nvim"}
		}
		rdir := filepath.Join(dir, fmt.Sprintf("round%d", round))
		if err := os.Mkdir(rdir, 0o700); err != nil {
			t.Fatal(err)
		}
		goCmd := fakeGo(t, rdir, vigor, plugin)
		opts := editortest.Options{RTP: []string{hello()}, Cache: filepath.Join(rdir, "cache"),
			Cmds: []string{"let g:vigor#go = '" + goCmd + "'", "let g:vigor#request_timeout = 20000"}}
		t.Run(fmt.Sprintf("round%d", round), func(t *testing.T) {
			// The editors start from goroutines of this test, released at
			// once: parallel subtests would start only -parallel of them
			// (GOMAXPROCS) together.
			release := make(chan struct{})
			var done sync.WaitGroup
			for i, kind := range kinds {
				done.Add(1)
				go func() {
					defer done.Done()
					<-release
					ed := editortest.Start(t, kind, opts)
					got, err := ed.Eval(`vigor#request('hello', 'greet', ['at once'])`)
					if err != nil || got != "Hello, at once!" {
						state, _ := ed.Eval("vigor#_internal#bootstrap#state()")
						msgs, _ := ed.Eval("execute('messages')")
						t.Errorf("%s%d: greet = %#v, %v; Vigor is %v; messages: %s", kind, i, got, err, state, msgs)
					}
				}()
			}
			close(release)
			done.Wait()
		})
		b, _ := os.ReadFile(filepath.Join(rdir, "builds.log"))
		if got := string(b); got != "vigor local\nplugin local\n" {
			t.Fatalf("round %d: the builds were %q, want the vigor command and the plugin once each, with GOTOOLCHAIN=local", round, got)
		}
	}
}

// mkdirRounds is how many rounds TestMkdirRace runs: $VIGOR_TEST_MKDIR_ROUNDS,
// else 500.
func mkdirRounds(t *testing.T) int {
	s := os.Getenv("VIGOR_TEST_MKDIR_ROUNDS")
	if s == "" {
		return 500
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		t.Fatalf("$VIGOR_TEST_MKDIR_ROUNDS is %q, want a positive number", s)
	}
	return n
}

// mkdirRace makes, for round i, base/i/a/.../h with the runtime's mkdir,
// in lockstep with another editor doing the same: each writes base/i.{me}
// and spins until base/i.{other} exists, so both make the same parents at
// the same moment. It returns what failed.
const mkdirRace = `function! MkdirRace(base, me, other, rounds) abort
  let l:failed = []
  for l:i in range(a:rounds)
    let l:r = a:base . '/' . l:i
    call writefile([], l:r . '.' . a:me)
    let l:t = reltime()
    while !filereadable(l:r . '.' . a:other)
      if reltimefloat(reltime(l:t)) > 20
        return l:failed + ['round ' . l:i . ': the other editor did not come within 20 s']
      endif
    endwhile
    let l:dir = l:r . '/a/b/c/d/e/f/g/h'
    try
      call vigor#_internal#file#mkdir(l:dir)
    catch
      call add(l:failed, 'round ' . l:i . ': ' . v:exception)
      continue
    endtry
    if !isdirectory(l:dir)
      call add(l:failed, 'round ' . l:i . ': ' . l:dir . ' is missing')
    endif
  endfor
  return l:failed
endfunction`

// Two editors of one kind that make the same directories at the same
// moment both succeed (issue 16, item 0): mkdir(..., 'p') in Neovim fails
// with E739 when another process makes a parent between its check and its
// own mkdir, and every directory the runtime makes goes through
// vigor#_internal#file#mkdir. The editors run in lockstep (mkdirRace), so
// nearly every round races; $VIGOR_TEST_MKDIR_ROUNDS sets the number of
// rounds (default 500).
func TestMkdirRace(t *testing.T) {
	rounds := mkdirRounds(t)
	for _, kind := range editortest.Kinds {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			base := t.TempDir()
			opts := editortest.Options{Cmds: []string{mkdirRace}, Late: true}
			eds := []*editortest.Editor{editortest.Start(t, kind, opts), editortest.Start(t, kind, opts)}
			type result struct {
				v   any
				err error
			}
			done := make(chan result, len(eds))
			for i, ed := range eds {
				go func() {
					v, err := ed.Call(2*time.Minute, "MkdirRace", base, i, 1-i, rounds)
					done <- result{v, err}
				}()
			}
			for range eds {
				r := <-done
				if r.err != nil {
					t.Fatalf("%s: MkdirRace: %v", kind, r.err)
				}
				if failed, _ := r.v.([]any); len(failed) > 0 {
					t.Errorf("%s: %d of %d rounds failed; the first: %v", kind, len(failed), rounds, failed[0])
				}
			}
		})
	}
}

// A build of the vigor command that will not end (its editor quit while it
// ran) is built again by the next editor: at once when the builder's pid
// is gone, and once its owner file has not been rewritten for 10 s when the
// builder is on another host. Until then the next editor waits for it.
// The editor may remove its build directory as it quits; the test puts it
// back as a killed editor would have left it.
func TestVigorCommandBuildOfQuitEditor(t *testing.T) {
	pre := t.TempDir()
	vigor, plugin := prebuild(t, pre)
	for _, kind := range editortest.Kinds {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			quitBuilder(t, kind, vigor, plugin)
		})
	}
}

func quitBuilder(t *testing.T, kind, vigor, plugin string) {
	for _, remote := range []bool{false, true} {
		dir := t.TempDir()
		hang := filepath.Join(dir, "hang")
		if err := os.WriteFile(hang, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		log := filepath.Join(dir, "builds.log")
		opts := editortest.Options{RTP: []string{hello()}, Cache: filepath.Join(dir, "cache"),
			Cmds: []string{"let g:vigor#go = '" + fakeGo(t, dir, vigor, plugin) + "'"}}
		first := editortest.Start(t, kind, opts)
		first.WaitFor(t, "readfile("+editortest.VimString(log)+") ==# ['vigor local']", 60*time.Second)
		owners, _ := filepath.Glob(filepath.Join(opts.Cache, "bin", "vigor-*-1", "owner"))
		if len(owners) != 1 {
			t.Fatalf("%s: no owner file of the first build: %v", kind, owners)
		}
		owner := owners[0]
		who, err := os.ReadFile(owner)
		if err != nil {
			t.Fatal(err)
		}
		first.Close()
		if err := os.Remove(hang); err != nil {
			t.Fatal(err)
		}
		if remote {
			who = []byte("elsewhere\n1\n")
		}
		if err := os.MkdirAll(filepath.Dir(owner), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(owner, who, 0o600); err != nil {
			t.Fatal(err)
		}
		next := editortest.Start(t, kind, opts)
		if remote {
			// Vigor waits for the other host's build, and still does a
			// moment later.
			next.WaitFor(t, "vigor#_internal#bootstrap#state() ==# 'building'", 60*time.Second)
			time.Sleep(1500 * time.Millisecond)
			mustEqual(t, next, "Vigor while the other build may still end", next.MustEval(t, "vigor#_internal#bootstrap#state()"), "building")
			old := time.Now().Add(-30 * time.Second)
			if err := os.Chtimes(owner, old, old); err != nil {
				t.Fatal(err)
			}
		}
		next.WaitFor(t, "vigor#_internal#bootstrap#is_ready()", 60*time.Second)
		mustEqual(t, next, "greet", next.MustEval(t, `vigor#request('hello', 'greet', ['again'])`), "Hello, again!")
		b, _ := os.ReadFile(filepath.Join(dir, "builds.log"))
		if got := strings.Count(string(b), "vigor local\n"); got != 2 {
			t.Fatalf("%s: the vigor command was built %d times, want twice (the quit editor's build and the next one): %q", kind, got, b)
		}
		next.Close()
	}
}
