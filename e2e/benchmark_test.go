package e2e

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vigorvim/vigor/internal/editortest"
)

// :VigorBenchmark opens a scratch buffer, runs call(), batch() and
// parallel() (call()'s calls from 8 goroutines at once) with a progress
// bar, and leaves denops-benchmark's report there, with parallel's ratios.
func TestVigorBenchmarkCommand(t *testing.T) {
	opts := editortest.Options{
		RTP: []string{filepath.Join(editortest.Root(), "benchmark")},
		Cmds: []string{"let g:vigor_benchmark_size = 8", "let g:vigor_benchmark_count = 20", "let g:vigor_benchmark_n = 3",
			"runtime plugin/vigor_benchmark.vim"},
	}
	each(t, opts, func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "vigor-benchmark")
		ed.MustExec(t, `VigorBenchmark`)
		ed.WaitFor(t, `exists('g:vigor_benchmark_result')`, 60*time.Second)
		mustEqual(t, ed, "buffer", ed.MustEval(t, `[bufname('%'), &buftype]`), []any{"[vigor-benchmark]", "nofile"})
		text := ed.MustEval(t, `join(getline(1, '$'), "\n")`).(string)
		for _, want := range []string{"info\n  size:   8 bytes\n  count:  20\n  n:      3", "vigor call()\n  sum:", "vigor batch()\n  sum:",
			"vigor parallel() (8 goroutines)\n  sum:", "parallel/call: ", ", parallel/batch: ",
			"  opms:    ", " ops/ms", "  cpms:    ", " chars/ms", "  median:  ", "  stderr:  "} {
			if !strings.Contains(text, want) {
				t.Fatalf("%s: the report lacks %q:\n%s", ed.Kind, want, text)
			}
		}
		mustEqual(t, ed, "opms > 0", ed.MustEval(t, `g:vigor_benchmark_result.call.opms > 0 && g:vigor_benchmark_result.batch.opms > 0 && g:vigor_benchmark_result.parallel.opms > 0`), int64(1))
		mustEqual(t, ed, "samples", ed.MustEval(t, `[len(g:vigor_benchmark_result.call.samples_ms), len(g:vigor_benchmark_result.parallel.samples_ms)]`), []any{int64(3), int64(3)})
	})
}
