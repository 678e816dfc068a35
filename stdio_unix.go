//go:build unix

package vigor

import (
	"os"
	"syscall"
)

// channelOut returns the file that the session writes the channel to. If
// poll is set (host.PollWrites), it is non-blocking and served by Go's
// runtime poller; otherwise it stays a plain blocking file, unknown to the
// poller. Stdin stays blocking (internal/rpc/direct_linux.go). The
// descriptors belong to this process alone, so the flag changes nothing
// for the editor.
//
// The file is a duplicate of fd 1: a write to fd 1 or 2 after the editor
// has gone (a broken pipe) kills a Go program with SIGPIPE, before the
// plugin's unload hooks run; on another descriptor it fails with EPIPE,
// which ends the session like the end of its input.
func channelOut(poll bool) *os.File {
	// Main calls this before the plugin's code runs, so no exec can
	// inherit the descriptor between Dup and CloseOnExec.
	fd, err := syscall.Dup(1)
	if err != nil {
		return os.Stdout
	}
	syscall.CloseOnExec(fd)
	if poll {
		if err := syscall.SetNonblock(fd, true); err != nil {
			syscall.Close(fd)
			return os.Stdout
		}
	}
	return os.NewFile(uintptr(fd), "vigor-channel-out")
}
