package e2e

import (
	"testing"
	"time"

	"github.com/vigorvim/vigor/internal/editortest"
)

// Plugin starts leave no job behind in the editor, and no memory waiting
// for a garbage collection: after 100 reloads the editor holds the jobs it
// held before (Vim kept a job whose channel closed after its exit until a
// garbage collection that a busy Vim may not run), and its memory has
// grown by less than 1 KiB a reload. Neovim keeps what is passed to a
// job's options and callbacks until a garbage collection, which it runs
// only after 'updatetime' without input, so the test sets 'updatetime'
// beyond its own length: a reload that left its options behind (its 'env'
// alone is larger than the limit) fails. BenchmarkReloadRSS measures the memory over
// 2,000 reloads.
func TestReloadsLeaveNoJobs(t *testing.T) {
	each(t, hbOpts(), func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "hbping")
		jobs := "has('nvim') ? len(nvim_list_chans()) : len(job_info())"
		ed.MustExec(t, "set updatetime=3600000")
		what, mem := memoryInUse(t, ed)
		chainReloads(t, ed)
		reloads(t, ed, 10)
		time.Sleep(200 * time.Millisecond)
		before, beforeMem := ed.MustEval(t, jobs).(int64), mem()
		reloads(t, ed, 100)
		time.Sleep(200 * time.Millisecond)
		if after := ed.MustEval(t, jobs).(int64); after > before {
			t.Fatalf("%s: the editor holds %d jobs after 100 reloads, %d before", ed.Kind, after, before)
		}
		grown := mem() - beforeMem
		t.Logf("%s: %s grew by %d bytes in 100 reloads", ed.Kind, what, grown)
		if grown > 100*1024 {
			// RSS grows in steps, when malloc takes more pages (other
			// tests running beside this one included); a leak grows in
			// every stretch of reloads: measure a second one.
			beforeMem = mem()
			reloads(t, ed, 100)
			time.Sleep(200 * time.Millisecond)
			grown = mem() - beforeMem
			t.Logf("%s: %s grew by %d bytes in the next 100 reloads", ed.Kind, what, grown)
		}
		if grown > 100*1024 {
			t.Fatalf("%s: the editor's %s grew by %d bytes in 100 reloads (%d a reload), want under 1 KiB a reload",
				ed.Kind, what, grown, grown/100)
		}
	})
}

// memoryInUse returns what it measures and a function that measures the
// editor's memory in bytes: on Neovim the bytes that malloc has handed out
// and not got back (glibc's mallinfo2(), through LuaJIT's FFI), which
// counts garbage waiting for a collection whether or not the heap had room
// for it; elsewhere (Vim, or a Neovim without them) the RSS.
func memoryInUse(t testing.TB, ed *editortest.Editor) (string, func() int64) {
	t.Helper()
	if ed.Kind == "nvim" {
		ed.MustExec(t, `lua _G.VigorTestHeap = function() local ffi = require('ffi'); pcall(ffi.cdef, 'struct vigor_mallinfo2 { size_t arena, ordblks, smblks, hblks, hblkhd, usmblks, fsmblks, uordblks, fordblks, keepcost; }; struct vigor_mallinfo2 mallinfo2(void);'); local m = ffi.C.mallinfo2(); return tonumber(m.uordblks + m.hblkhd) end`)
		if ok, err := ed.Eval("luaeval('pcall(VigorTestHeap)')"); err == nil && ok == true {
			return "heap in use", func() int64 { return ed.MustEval(t, "luaeval('VigorTestHeap()')").(int64) }
		}
	}
	pid := ed.MustEval(t, "getpid()").(int64)
	return "RSS", func() int64 { return rssKB(t, pid) * 1024 }
}
