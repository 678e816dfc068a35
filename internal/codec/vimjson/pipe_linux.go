package vimjson

import (
	"errors"
	"io"
	"syscall"
	"time"
	"unsafe"
)

// pipeBuf is PIPE_BUF: a write of at most this many bytes goes into a pipe
// whole.
const pipeBuf = 4096

// pipeSize is the length that pipeRoom gives the pipe: more than the
// longest frame (ChunkThreshold), so that any frame fits in once Vim has
// read what came before it. (1 MiB is what an unprivileged process may
// ask for, /proc/sys/fs/pipe-max-size.)
const pipeSize = 1 << 20

// pipeRoom returns a function that waits until the pipe w writes to has
// room for n more bytes: Linux puts a write into a pipe whole when the
// pipe has room for it. It returns nil when w is not a pipe.
func pipeRoom(w io.Writer) func(n int) error {
	sc, ok := w.(syscall.Conn)
	if !ok {
		return nil
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return nil
	}
	size := 0
	_ = rc.Control(func(fd uintptr) {
		_, _, _ = syscall.Syscall(syscall.SYS_FCNTL, fd, syscall.F_SETPIPE_SZ, pipeSize)
		if r, _, e := syscall.Syscall(syscall.SYS_FCNTL, fd, syscall.F_GETPIPE_SZ, 0); e == 0 {
			size = int(r)
		}
	})
	if size == 0 {
		return nil // not a pipe
	}
	return func(n int) error { return waitRoom(rc, size, n) }
}

// errReaderGone is returned when Vim has closed its end of the pipe.
var errReaderGone = errors.New("the editor closed the channel")

// waitRoom waits until the pipe of size bytes holds no more than what
// leaves n bytes free (with half of it to spare for the kernel's page
// accounting), or nothing, polling: Vim empties the pipe whenever it
// reads, so the wait is short unless Vim is busy, when a write would
// block too. It fails when Vim has closed the pipe.
func waitRoom(rc syscall.RawConn, size, n int) error {
	delay := 20 * time.Microsecond
	for {
		var queued int32
		var gone bool
		err := rc.Control(func(fd uintptr) {
			if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TIOCINQ, uintptr(unsafe.Pointer(&queued))); e != 0 {
				queued = 0 // unknown: write, as without a wait
			}
			// POLLERR: the pipe has no reader left.
			pfd := struct {
				fd             int32
				events, revent int16
			}{fd: int32(fd)}
			var ts syscall.Timespec
			if r, _, e := syscall.Syscall6(syscall.SYS_PPOLL, uintptr(unsafe.Pointer(&pfd)), 1, uintptr(unsafe.Pointer(&ts)), 0, 0, 0); e == 0 && r == 1 && pfd.revent&0x8 != 0 {
				gone = true
			}
		})
		switch {
		case err != nil:
			return err
		case gone:
			return errReaderGone
		case queued == 0 || int(queued)+n <= size/2:
			return nil
		}
		time.Sleep(delay)
		delay = min(2*delay, time.Millisecond)
	}
}
