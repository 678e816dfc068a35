//go:build unix

package vigor

import (
	"os"
	"syscall"
)

// channelOut returns the file that the session writes the channel to.
//
// Vim's job channel is a pipe. There fd 1 is made non-blocking and served
// by Go's runtime poller: a write to a full pipe (a large message while Vim
// is busy) then parks only the goroutine, and Vim's batches are faster so
// (BENCHMARKS.md, third session: about 13% in six pairs of runs).
//
// Neovim's job channel is a Unix socket. Every time Neovim reads from it,
// the kernel reports the socket writable again, and a descriptor on the
// poller wakes the plugin's idle thread for nothing, on every call and
// several times during a batch. So for Neovim fd 1 stays a plain blocking
// file, unknown to the poller: a write to a full socket blocks one OS
// thread, whose processor the runtime hands to the other goroutines.
//
// Stdin stays blocking for both (internal/rpc/direct_linux.go). The
// descriptors belong to this process alone, so the flag changes nothing
// for the editor.
//
// The file is a duplicate of fd 1: a write to fd 1 or 2 after the editor
// has gone (a broken pipe) kills a Go program with SIGPIPE, before the
// plugin's unload hooks run; on another descriptor it fails with EPIPE,
// which ends the session like the end of its input.
func channelOut(host string) *os.File {
	// Main calls this before the plugin's code runs, so no exec can
	// inherit the descriptor between Dup and CloseOnExec.
	fd, err := syscall.Dup(1)
	if err != nil {
		return os.Stdout
	}
	syscall.CloseOnExec(fd)
	if host != "nvim" {
		if err := syscall.SetNonblock(fd, true); err != nil {
			syscall.Close(fd)
			return os.Stdout
		}
	}
	return os.NewFile(uintptr(fd), "vigor-channel-out")
}
