//go:build !unix

package vigor

import "time"

// cpuTime is zero where getrusage(2) is missing: cpu-ns/op then reads 0.
func cpuTime() time.Duration { return 0 }
