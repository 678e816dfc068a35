//go:build unix

package vigor

import (
	"os"
	"syscall"
)

// pollable returns a file for fd that Go's runtime poller serves. Reads of
// an inherited blocking pipe park a whole OS thread in the read syscall,
// and a goroutine that the reader wakes may wait for the scheduler to take
// that thread's processor back: tens of microseconds per message on a busy
// machine. A non-blocking fd parks only the goroutine. The pipe's file
// description belongs to this process alone, so the flag changes nothing
// for the editor.
func pollable(fd int, name string, fallback *os.File) *os.File {
	if err := syscall.SetNonblock(fd, true); err != nil {
		return fallback
	}
	return os.NewFile(uintptr(fd), name)
}
