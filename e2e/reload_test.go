package e2e

import (
	"testing"
	"time"

	"github.com/vigorvim/vigor/internal/editortest"
)

// Plugin starts leave no job behind in the editor: after 100 reloads the
// editor holds the jobs it held before (Vim kept a job whose channel
// closed after its exit until a garbage collection that a busy Vim may
// not run; BenchmarkReloadRSS measures the memory).
func TestReloadsLeaveNoJobs(t *testing.T) {
	each(t, hbOpts(), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "hbping")
		jobs := "has('nvim') ? len(nvim_list_chans()) : len(job_info())"
		chainReloads(t, ed)
		reloads(t, ed, 2)
		time.Sleep(200 * time.Millisecond)
		before := ed.MustEval(t, jobs).(int64)
		reloads(t, ed, 100)
		time.Sleep(200 * time.Millisecond)
		if after := ed.MustEval(t, jobs).(int64); after > before {
			t.Fatalf("%s: the editor holds %d jobs after 100 reloads, %d before", ed.Kind, after, before)
		}
	})
}
