package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/vigorvim/vigor/internal/editortest"
)

// The last line a process writes to stderr reaches its failure message
// even without a newline.
func TestStderrLastLineWithoutNewline(t *testing.T) {
	each(t, editortest.Options{RTP: rtp("jobs")}, func(t *testing.T, ed *editortest.Editor) {
		waitState(t, ed, "tailerr", "failed")
		want := "[vigor] tailerr: the process exited with status 6 (the last line, without a newline)"
		if m := ed.Messages(t); !strings.Contains(m, want) {
			t.Fatalf("%s: messages %q, want %q", ed.Kind, m, want)
		}
	})
}

// A job started with 'group' has what is left of its process group ended
// once it has exited, on both editors and with any other option: with
// 'late_exit' (the exit waits for the last line of output) as without.
func TestJobGroupEndsWithAnyOptions(t *testing.T) {
	each(t, editortest.Options{}, func(t *testing.T, ed *editortest.Editor) {
		ed.MustExec(t, `function! JobGroupExit(key, ...) abort
let g:job_group_exited[a:key] = 1
endfunction
let g:job_group_exited = {}`)
		for i, opts := range []string{"{'group': 1, 'late_exit': 1}", "{'group': 1}"} {
			pidfile := filepath.Join(t.TempDir(), "pid")
			key := strconv.Itoa(i)
			ed.MustExec(t, fmt.Sprintf(`call vigor#_internal#job#start(['/bin/sh', '-c', 'sleep 300 >/dev/null 2>&1 & echo $! > %s; exit 0'], extend(%s, {'exit': function('JobGroupExit', ['%s'])}))`, pidfile, opts, key))
			ed.WaitFor(t, "has_key(g:job_group_exited, '"+key+"')", 20*time.Second)
			b, err := os.ReadFile(pidfile)
			if err != nil {
				t.Fatal(err)
			}
			pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
			if err != nil {
				t.Fatal(err)
			}
			deadline := time.Now().Add(10 * time.Second)
			for syscall.Kill(pid, 0) == nil {
				if time.Now().After(deadline) {
					_ = syscall.Kill(pid, syscall.SIGKILL)
					t.Fatalf("%s: with %s, the job's child %d still runs 10 s after the job exited", ed.Kind, opts, pid)
				}
				time.Sleep(50 * time.Millisecond)
			}
		}
	})
}
