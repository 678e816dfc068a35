package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vigorvim/vigor/internal/editortest"
)

func hbOpts() editortest.Options { return editortest.Options{RTP: rtp("hb")} }

// floodLines is how many lines the chatty plugin writes to its stderr.
const floodLines = 100000

// startFlood defines g:hb_flood and starts hbflood writing n lines to its
// stderr; g:hb_flood becomes the count it wrote (or the error message)
// when it is done.
func startFlood(t testing.TB, ed *editortest.Editor, n int, tag string) {
	t.Helper()
	ed.MustExec(t, `call execute(['function! HbFloodDone(v) abort', 'let g:hb_flood = a:v', 'endfunction'])`)
	ed.MustExec(t, `call execute(['function! HbFloodFailed(e) abort', 'let g:hb_flood = a:e.message', 'endfunction'])`)
	ed.MustExec(t, "let g:hb_flood = v:null")
	ed.MustExec(t, fmt.Sprintf("call vigor#request_async('hbflood', 'flood', [%d, '%s'], function('HbFloodDone'), function('HbFloodFailed'))", n, tag))
}

// pluginLog returns the text of the plugin's log, after that of the older
// one (log.1): the same plugin started in the other editor, which shares
// the log, may have moved a large log aside while this one wrote to it.
func pluginLog(t testing.TB, ed *editortest.Editor, name string) string {
	t.Helper()
	path := filepath.Join(ed.Cache, "log", name+".log")
	old, _ := os.ReadFile(path + ".1")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%s: %v", ed.Kind, err)
	}
	return string(old) + string(b)
}

// A plugin that writes 100,000 lines to its stderr: every line is in its
// log by the time its request returns (the plugin writes its log itself,
// the editor does nothing per line), and another plugin answers while
// the flood runs.
func TestStderrFloodReachesLog(t *testing.T) {
	each(t, hbOpts(), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "hbflood")
		waitLoaded(t, ed, "hbping")
		tag := fmt.Sprintf("hbflood-%s-%d", ed.Kind, time.Now().UnixNano())
		startFlood(t, ed, floodLines, tag)
		v, err := evalWithin(t, ed, 30*time.Second, "vigor#request('hbping', 'ping', ['during'])")
		if err != nil {
			t.Fatalf("%s: ping during the flood: %v", ed.Kind, err)
		}
		mustEqual(t, ed, "ping", v, "during")
		ed.WaitFor(t, "g:hb_flood isnot v:null", 120*time.Second)
		mustEqual(t, ed, "the flood's answer", ed.MustEval(t, "g:hb_flood"), int64(floodLines))
		log := pluginLog(t, ed, "hbflood")
		if n := strings.Count(log, tag+" "); n != floodLines {
			t.Fatalf("%s: %d of the %d lines are in the log when the flood has returned", ed.Kind, n, floodLines)
		}
		if !strings.Contains(log, fmt.Sprintf("\n%s %d\n", tag, floodLines-1)) {
			t.Fatalf("%s: the flood's last line is not a line of the log", ed.Kind)
		}
	})
}

// A panic that the SDK recovers goes to the log as a record that says
// where it happened, followed by its stack as lines indented by a tab.
func TestPanicStackInLogAsLines(t *testing.T) {
	each(t, hbOpts(), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "hbflood")
		tag := fmt.Sprintf("hbpanic-%s-%d", ed.Kind, time.Now().UnixNano())
		mustThrow(t, ed, "vigor#request('hbflood', 'panic', ['"+tag+"'])", "[vigor] hbflood.panic: panic: "+tag, "stack in ")
		log := pluginLog(t, ed, "hbflood")
		i := strings.Index(log, "panic="+tag)
		if i < 0 {
			t.Fatalf("%s: no record of the panic in the log:\n%s", ed.Kind, log)
		}
		start := strings.LastIndexByte(log[:i], '\n') + 1
		lines := strings.Split(log[start:], "\n")
		if strings.Contains(lines[0], `\n`) || !strings.Contains(lines[0], "hbflood/main.go:") {
			t.Fatalf("%s: the record is not one line that names the place of the panic: %q", ed.Kind, lines[0])
		}
		if len(lines) < 4 || !strings.HasPrefix(lines[1], "\tgoroutine ") {
			t.Fatalf("%s: the stack does not follow the record as lines: %q", ed.Kind, lines[:min(len(lines), 4)])
		}
		found := false
		for _, l := range lines[2:] {
			if !strings.HasPrefix(l, "\t") {
				break
			}
			found = found || strings.HasPrefix(l, "\t\t") && strings.Contains(l, "hbflood/main.go:")
		}
		if !found {
			t.Fatalf("%s: the stack lines do not name hbflood/main.go: %q", ed.Kind, lines)
		}
	})
}

// A plugin that dies of a panic nothing recovers: Go's report reaches its
// log, and the crash message names the panic, on both editors. (Each
// editor has a cache, and so a log, of its own: in a shared one, another
// test's flood makes the log move to .1 twice and the report is lost.)
func TestCrashMessageNamesPanic(t *testing.T) {
	each(t, ownCache(t), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "hbflood")
		tag := fmt.Sprintf("hbdie-%s-%d", ed.Kind, time.Now().UnixNano())
		mustEqual(t, ed, "die", ed.MustEval(t, "vigor#request('hbflood', 'die', ['"+tag+"'])"), "dying")
		want := "[vigor] hbflood: the process exited with status 2 (panic: " + tag
		ed.WaitFor(t, "stridx(execute('messages'), '"+want+"') >= 0", 30*time.Second)
		waitLoaded(t, ed, "hbflood")
		path := ed.MustEval(t, "vigor#_internal#plugin#get('hbflood').log").(string)
		old, _ := os.ReadFile(path + ".1")
		cur, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if log := string(old) + string(cur); !strings.Contains(log, "panic: "+tag) || !strings.Contains(log, "goroutine ") {
			t.Fatalf("%s: Go's panic report is not in the log", ed.Kind)
		}
	})
}

// ownCache gives each editor a cache of its own (under ed.Cache), and so
// logs of its own: the same plugin in the other editor would share them.
func ownCache(t *testing.T) editortest.Options {
	opts := hbOpts()
	opts.Cache = t.TempDir()
	opts.Cmds = []string{"let g:vigor#cache_dir .= has('nvim') ? '/nvim' : '/vim'"}
	return opts
}

// The plugin's log is the user's alone, also when an older one was
// readable by others.
func TestPluginLogIsPrivate(t *testing.T) {
	each(t, ownCache(t), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "hbping")
		log := ed.MustEval(t, "vigor#_internal#plugin#get('hbping').log").(string)
		if err := os.Chmod(log, 0o644); err != nil {
			t.Fatal(err)
		}
		instance := ed.MustEval(t, "vigor#_internal#plugin#get('hbping').instance").(int64)
		ed.MustExec(t, "call vigor#plugin#reload('hbping')")
		ed.WaitFor(t, fmt.Sprintf("vigor#_internal#plugin#get('hbping').instance != %d && vigor#plugin#status('hbping') ==# 'loaded'", instance), 30*time.Second)
		st, err := os.Stat(log)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != 0o600 {
			t.Fatalf("%s: the log is %v, want -rw-------", ed.Kind, st.Mode().Perm())
		}
	})
}

// A plugin that writes a line to its stderr and exits: the crash message
// quotes the line, which the runtime reads from the end of the log.
func TestCrashMessageQuotesLastLine(t *testing.T) {
	each(t, ownCache(t), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "hbflood")
		tag := fmt.Sprintf("hbquit-%s-%d", ed.Kind, time.Now().UnixNano())
		ed.MustExec(t, "call vigor#notify('hbflood', 'quit', ['"+tag+"'])")
		want := "[vigor] hbflood: the process exited with status 4 (" + tag + "); restarting"
		ed.WaitFor(t, "stridx(execute('messages'), '"+want+"') >= 0", 30*time.Second)
	})
}
