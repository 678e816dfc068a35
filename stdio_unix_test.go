//go:build unix

package vigor

import (
	"syscall"
	"testing"
)

// The channel is written through a duplicate of fd 1: a write to fd 1 or 2
// after the editor has gone would kill the plugin with SIGPIPE before its
// unload hooks run.
func TestChannelOutIsNotFd1(t *testing.T) {
	for _, poll := range []bool{true, false} {
		f := channelOut(poll)
		fd := int(f.Fd()) // (Fd makes the file blocking again: the test's own stdout shares it)
		if fd == 1 || fd == 2 {
			t.Errorf("poll %v: channelOut writes fd %d", poll, fd)
		}
		_ = syscall.SetNonblock(fd, false)
		f.Close()
	}
}
