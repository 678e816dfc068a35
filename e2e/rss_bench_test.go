package e2e

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vigorvim/vigor/internal/editortest"
)

// BenchmarkLargeEchoRSS measures what a plugin keeps after one large
// message: the RSS of a plugin 10 s after it echoed a 100 MiB String
// (vigor#request() there and back), and its peak (VmHWM).
//
// go test -run '^$' -bench LargeEchoRSS -benchtime 1x ./e2e/
func BenchmarkLargeEchoRSS(b *testing.B) {
	const size = 100 << 20
	for _, kind := range editortest.Kinds {
		b.Run(kind, func(b *testing.B) {
			var after, peak int64
			for i := 0; i < b.N; i++ {
				ed := editortest.Start(b, kind, h6())
				waitLoaded(b, ed, "h6proc")
				pid := ed.MustEval(b, `vigor#request('h6proc', 'pid', [])`).(int64)
				before := rssKB(b, pid)
				ed.MustExec(b, fmt.Sprintf("let g:big = repeat('x', %d)", size))
				mustEqualB(b, ed, ed.MustEval(b, `len(vigor#request('h6proc', 'echo', [g:big]))`), int64(size))
				ed.MustExec(b, "unlet g:big")
				time.Sleep(10 * time.Second)
				after += rssKB(b, pid)
				peak += statusKB(b, pid, "VmHWM:")
				b.Logf("%s: RSS before %d KiB, 10 s after %d KiB", kind, before, rssKB(b, pid))
				ed.Close()
			}
			b.ReportMetric(float64(after)/float64(b.N)/1024, "MiB-RSS-10s-after")
			b.ReportMetric(float64(peak)/float64(b.N)/1024, "MiB-peak")
		})
	}
}

func mustEqualB(b *testing.B, ed *editortest.Editor, got, want any) {
	b.Helper()
	if got != want {
		b.Fatalf("%s: got %v, want %v", ed.Kind, got, want)
	}
}

// statusKB reads a field in KiB from /proc/<pid>/status.
func statusKB(b *testing.B, pid int64, field string) int64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, field) {
			n, _ := strconv.ParseInt(strings.Fields(line)[1], 10, 64)
			return n
		}
	}
	b.Fatalf("no %s", field)
	return 0
}
