//go:build linux

package rpc

import (
	"os"
	"syscall"
	"time"
	"unsafe"
)

// direct lets a caller read its own reply with a blocking read() on the
// session's input, instead of having the read goroutine hand it over. On a
// 2-vCPU VM a thread blocked in read() is woken much faster than a
// goroutine parked on the runtime poller (BENCHMARKS.md, "Direct reads").
//
// The input stays in blocking mode, so every read of the codec is a plain
// read(). The read goroutine waits for input on the runtime poller, which
// leaves the processor free for other goroutines while the plugin idles,
// through a second descriptor of the same file (a dup, registered with the
// poller). It reads only once the input is readable, and a caller about to
// read its reply kicks it out of that wait first, so that the reply wakes
// one thread only.
type direct struct {
	wait *os.File // the dup the read goroutine waits on
	rc   syscall.RawConn
	fd   int // wait's descriptor
}

// newDirect returns nil when f cannot be used so.
func newDirect(f *os.File) *direct {
	if f == nil {
		return nil
	}
	// Fd puts f in blocking mode, which is what the codec's reads want.
	in := int(f.Fd())
	fd, err := dupCloexec(in)
	if err != nil {
		return nil
	}
	// The poller takes only a descriptor in non-blocking mode. The mode
	// belongs to the open file, which both descriptors share, so set it for
	// the registration only: epoll does not care about it, and reads must
	// block.
	if err := syscall.SetNonblock(fd, true); err != nil {
		syscall.Close(fd)
		return nil
	}
	wait := os.NewFile(uintptr(fd), "vigor-input-wait")
	_ = syscall.SetNonblock(in, false)
	rc, err := wait.SyscallConn()
	if err != nil || wait.SetReadDeadline(time.Time{}) != nil { // not pollable
		wait.Close()
		return nil
	}
	return &direct{wait: wait, rc: rc, fd: fd}
}

func dupCloexec(fd int) (int, error) {
	r, _, errno := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_DUPFD_CLOEXEC, 0)
	if errno != 0 {
		return -1, errno
	}
	return int(r), nil
}

const fionread = 0x541B

// pending returns how many bytes the input holds.
func (d *direct) pending() int {
	var n int32
	_, _, errno := syscall.Syscall(syscall.SYS_IOCTL, uintptr(d.fd), fionread, uintptr(unsafe.Pointer(&n)))
	if errno != 0 {
		return 0
	}
	return int(n)
}

// waitReadable waits, without reading, until the input has data or is at
// its end. It returns an error when kicked.
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
// waits work again.
func (d *direct) kick()   { _ = d.wait.SetReadDeadline(time.Unix(1, 0)) }
func (d *direct) unkick() { _ = d.wait.SetReadDeadline(time.Time{}) }

// readable reports whether a read would not block.
func (d *direct) readable() bool { return d.pending() > 0 || d.atEOF() }
