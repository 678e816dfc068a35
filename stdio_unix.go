//go:build unix

package vigor

import (
	"os"
	"syscall"
)

// pollable returns a file for fd that Go's runtime poller serves; Main uses
// it for stdout. A write to a full pipe (a large message while the editor
// is busy) then parks only the goroutine, not an OS thread with its
// processor. (Stdin stays blocking: the session reads it with blocking
// system calls, internal/rpc/direct_linux.go.) The pipe's file description
// belongs to this process alone, so the flag changes nothing for the
// editor.
func pollable(fd int, name string, fallback *os.File) *os.File {
	if err := syscall.SetNonblock(fd, true); err != nil {
		return fallback
	}
	return os.NewFile(uintptr(fd), name)
}
