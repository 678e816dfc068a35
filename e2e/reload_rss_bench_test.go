package e2e

import (
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/vigorvim/vigor/internal/editortest"
)

// BenchmarkReloadRSS measures what each start of a plugin leaves in the
// editor: the editor's RSS before and after VIGOR_RELOADS (default 2,000)
// reloads of hbping, after 20 to warm up; it reports the growth per
// reload, and logs what memoryInUse measures too (on Neovim the heap in
// use, garbage waiting for a collection included). Each reload starts
// from the editor's main loop (a timer after VigorPluginPost), as a
// user's does.
//
// go test -run '^$' -bench ReloadRSS -benchtime 1x -timeout 30m ./e2e/
func BenchmarkReloadRSS(b *testing.B) {
	n := 2000
	if s := os.Getenv("VIGOR_RELOADS"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil {
			b.Fatalf("VIGOR_RELOADS: %v", err)
		}
	}
	for _, kind := range editortest.Kinds {
		b.Run(kind, func(b *testing.B) {
			var perReload float64
			for i := 0; i < b.N; i++ {
				ed := editortest.Start(b, kind, hbOpts())
				waitLoaded(b, ed, "hbping")
				chainReloads(b, ed)
				pid := ed.MustEval(b, "getpid()").(int64)
				what, mem := memoryInUse(b, ed)
				reloads(b, ed, 20)
				before, beforeMem := rssKB(b, pid), mem()
				start := time.Now()
				reloads(b, ed, n)
				after, afterMem := rssKB(b, pid), mem()
				b.Logf("%s: editor RSS %d KiB before %d reloads, %d KiB after (%.1f s); %s %d KiB before, %d KiB after",
					kind, before, n, after, time.Since(start).Seconds(), what, beforeMem/1024, afterMem/1024)
				perReload += float64(after-before) * 1024 / float64(n)
				ed.Close()
			}
			b.ReportMetric(perReload/float64(b.N), "B/reload")
		})
	}
}

// chainReloads makes each load of hbping start the next reload, from a
// timer, until g:hb_reloads reaches g:hb_target (reloads sets it).
func chainReloads(b testing.TB, ed *editortest.Editor) {
	// The harness's record of every Vigor event (g:events) would grow by
	// four a reload.
	ed.MustExec(b, "autocmd! vigor_test")
	ed.MustExec(b, `call execute(['function! HbReload(_) abort', 'call vigor#plugin#reload("hbping")', 'endfunction'])`)
	ed.MustExec(b, "let g:hb_reloads = 0 | let g:hb_target = 0")
	ed.MustExec(b, "autocmd User VigorPluginPost:hbping let g:hb_reloads += 1 | if g:hb_reloads < g:hb_target | call timer_start(0, function('HbReload')) | endif")
}

// reloads reloads hbping n more times, one after the other, and waits
// until the last one has loaded.
func reloads(b testing.TB, ed *editortest.Editor, n int) {
	b.Helper()
	ed.MustExec(b, fmt.Sprintf("let g:hb_target = g:hb_reloads + %d | call vigor#plugin#reload('hbping')", n))
	ed.WaitFor(b, "g:hb_reloads >= g:hb_target", time.Duration(n)*500*time.Millisecond+time.Minute)
	if st := ed.MustEval(b, "vigor#plugin#status('hbping')"); st != "loaded" {
		b.Fatalf("%s: hbping is %v after the reloads; messages: %s", ed.Kind, st, ed.Messages(b))
	}
}
