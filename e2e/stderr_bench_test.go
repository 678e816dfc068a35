package e2e

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vigorvim/vigor/internal/editortest"
)

// BenchmarkStderrFlood measures what a chatty plugin costs the editor:
// hbflood writes 100,000 lines to its stderr while the benchmark calls
// another plugin (hbping) in a loop through the editor; it reports the
// time until every line is in the log and the round-trip times of the
// calls made meanwhile (the latency a user sees).
//
// go test -run '^$' -bench StderrFlood -benchtime 1x ./e2e/
func BenchmarkStderrFlood(b *testing.B) {
	for _, kind := range editortest.Kinds {
		b.Run(kind, func(b *testing.B) {
			var total time.Duration
			var lat []time.Duration
			for i := 0; i < b.N; i++ {
				ed := editortest.Start(b, kind, hbOpts())
				waitLoaded(b, ed, "hbflood")
				waitLoaded(b, ed, "hbping")
				tag := "hbbench-" + kind + "-" + time.Now().Format("150405.000000000")
				start := time.Now()
				startFlood(b, ed, floodLines, tag)
				for {
					if time.Since(start) > 5*time.Minute {
						b.Fatalf("%s: the flood has not returned after 5 minutes", kind)
					}
					t0 := time.Now()
					var r []any
					if err := ed.EvalInto("[vigor#request('hbping', 'ping', ['x']), g:hb_flood]", &r); err != nil {
						b.Fatal(err)
					}
					lat = append(lat, time.Since(t0))
					if r[1] != nil {
						break
					}
				}
				for strings.Count(pluginLog(b, ed, "hbflood"), tag+" ") < floodLines {
					if time.Since(start) > 5*time.Minute {
						b.Fatalf("%s: the lines are not in the log after 5 minutes", kind)
					}
					time.Sleep(20 * time.Millisecond)
				}
				total += time.Since(start)
				ed.Close()
			}
			slices.Sort(lat)
			b.ReportMetric(total.Seconds()/float64(b.N), "s-to-log")
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "ms-call-p50")
			b.ReportMetric(float64(lat[len(lat)-1].Microseconds())/1000, "ms-call-max")
			b.ReportMetric(float64(len(lat))/float64(b.N), "calls")
		})
	}
}
