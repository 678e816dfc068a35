package vigor

import (
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// latencies keeps the durations of the plugin's last calls to the editor,
// for the health report ($stats).
type latencies struct {
	mu sync.Mutex
	// Invariant, under mu: ring[:n] (n <= len(ring)) holds the last n
	// durations, the newest at ring[(next-1) mod len(ring)]; count is the
	// number of calls ever observed.
	ring  [256]time.Duration
	n     int
	next  int
	count int64
}

func (l *latencies) observe(d time.Duration) {
	l.mu.Lock()
	l.ring[l.next] = d
	l.next = (l.next + 1) % len(l.ring)
	if l.n < len(l.ring) {
		l.n++
	}
	l.count++
	l.mu.Unlock()
}

// percentiles returns the 50th and 99th percentiles of the kept durations
// and the number of calls ever observed.
func (l *latencies) percentiles() (p50, p99 time.Duration, count int64) {
	l.mu.Lock()
	kept := slices.Clone(l.ring[:l.n])
	count = l.count
	l.mu.Unlock()
	if len(kept) == 0 {
		return 0, 0, count
	}
	slices.Sort(kept)
	at := func(q float64) time.Duration { return kept[int(q*float64(len(kept)-1)+0.5)] }
	return at(0.50), at(0.99), count
}

// stats is the answer to the runtime's $stats request: what the health
// report shows about a running plugin.
func (p *Plugin) stats() map[string]any {
	p50, p99, n := p.rtt.percentiles()
	return map[string]any{
		"rss_kb":     rssKB(),
		"calls":      n,
		"rtt_p50_us": p50.Microseconds(),
		"rtt_p99_us": p99.Microseconds(),
		"goroutines": runtime.NumGoroutine(),
	}
}

// rssKB is the process's resident set size in KiB (Linux), or the memory
// that the Go runtime holds from the system elsewhere.
func rssKB() int64 {
	if b, err := os.ReadFile("/proc/self/statm"); err == nil {
		if f := strings.Fields(string(b)); len(f) > 1 {
			if pages, err := strconv.ParseInt(f[1], 10, 64); err == nil {
				return pages * int64(os.Getpagesize()) / 1024
			}
		}
	}
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.Sys / 1024)
}
