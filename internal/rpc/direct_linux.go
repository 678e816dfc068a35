//go:build linux

package rpc

import (
	"os"
	"syscall"
	"time"
	"unsafe"
)

// direct lets a caller read its own reply with a blocking read() on the
// session's input pipe, instead of having the read goroutine hand it over.
// On a 2-vCPU VM a thread blocked in read() is woken much faster than one
// in the runtime poller's epoll_wait() (BENCHMARKS.md).
type direct struct {
	f  *os.File
	rc syscall.RawConn
	fd int
}

// newDirect returns nil when f cannot be used so (not a file the runtime
// poller serves).
func newDirect(f *os.File) *direct {
	if f == nil {
		return nil
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return nil
	}
	fd := -1
	if err := rc.Control(func(u uintptr) { fd = int(u) }); err != nil || fd < 0 {
		return nil
	}
	if err := f.SetReadDeadline(time.Time{}); err != nil {
		return nil // not pollable
	}
	return &direct{f: f, rc: rc, fd: fd}
}

const fionread = 0x541B

// pending returns how many bytes the pipe holds.
func (d *direct) pending() int {
	var n int32
	_, _, errno := syscall.Syscall(syscall.SYS_IOCTL, uintptr(d.fd), fionread, uintptr(unsafe.Pointer(&n)))
	if errno != 0 {
		return 0
	}
	return int(n)
}

// waitReadable waits, without reading, until the pipe has data or is at
// its end. It returns an error when kicked or when the file is closed.
func (d *direct) waitReadable() error {
	return d.rc.Read(func(uintptr) bool { return d.pending() > 0 || d.atEOF() })
}

// atEOF reports whether a read would not block although nothing is
// pending: the writer closed the pipe.
func (d *direct) atEOF() bool {
	var set syscall.FdSet
	set.Bits[d.fd/64] |= 1 << (uint(d.fd) % 64)
	tv := syscall.Timeval{}
	n, err := syscall.Select(d.fd+1, &set, nil, nil, &tv)
	return err == nil && n > 0
}

// kick makes a waitReadable under way return with an error; unkick lets
// reads work again.
func (d *direct) kick()   { _ = d.f.SetReadDeadline(time.Unix(1, 0)) }
func (d *direct) unkick() { _ = d.f.SetReadDeadline(time.Time{}) }

func (d *direct) setBlocking(block bool) { _ = syscall.SetNonblock(d.fd, !block) }
