//go:build !linux

package vigor

import "time"

// endGroup does nothing here: the runtime ends what is left of the
// plugin's process group once the process has exited.
func endGroup(grace time.Duration) {}
