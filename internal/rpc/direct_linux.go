//go:build linux

package rpc

import (
	"encoding/binary"
	"os"
	"syscall"
	"time"
	"unsafe"
)

// direct lets a caller read its own reply with a blocking read() on the
// session's input, instead of having the read goroutine hand it over. On a
// 2-vCPU VM a thread blocked in the kernel is woken much faster than a
// goroutine parked on the runtime poller (BENCHMARKS.md, "Direct reads").
//
// The input stays in blocking mode, so every read of the codec is a plain
// read(). The read goroutine waits for input on the runtime poller, which
// leaves the processor free for other goroutines while the plugin idles,
// through a second descriptor of the same file (a dup, registered with the
// poller). It reads only once the input is readable, and a caller about to
// read its reply kicks it out of that wait first, so that the reply wakes
// one thread only.
//
// A caller that would block waits in poll(2) on the input and on wake, an
// eventfd, so that it can stop when its ctx ends (awaitInput, wakeUp)
// without having read part of a message.
type direct struct {
	wait *os.File // the dup the read goroutine waits on
	rc   syscall.RawConn
	fd   int // wait's descriptor
	// wake is an eventfd in blocking mode (so not on the runtime poller):
	// a write makes awaitInput return. Its *os.File makes a write after
	// close fail instead of hitting a reused descriptor.
	wake *os.File
	wfd  int // wake's descriptor
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
	r, _, errno := syscall.Syscall(syscall.SYS_EVENTFD2, 0, syscall.O_CLOEXEC, 0)
	if errno != 0 {
		wait.Close()
		return nil
	}
	return &direct{wait: wait, rc: rc, fd: fd, wake: os.NewFile(r, "vigor-input-wake"), wfd: int(r)}
}

func dupCloexec(fd int) (int, error) {
	r, _, errno := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_DUPFD_CLOEXEC, 0)
	if errno != 0 {
		return -1, errno
	}
	return int(r), nil
}

// pollFd is struct pollfd of poll(2).
type pollFd struct {
	fd      int32
	events  int16
	revents int16
}

const pollIn = 0x1 // POLLIN; POLLHUP and POLLERR are reported without asking

// poll is poll(2), through ppoll(2), which every Linux architecture has:
// it waits until one of fds has an event, or for timeout (nil: no limit).
// It returns how many have one. A signal (the Go runtime sends them) makes
// it start again.
func poll(fds []pollFd, timeout *syscall.Timespec) (int, error) {
	for {
		n, _, errno := syscall.Syscall6(syscall.SYS_PPOLL, uintptr(unsafe.Pointer(&fds[0])), uintptr(len(fds)),
			uintptr(unsafe.Pointer(timeout)), 0, 0, 0)
		if errno == syscall.EINTR {
			continue
		}
		if errno != 0 {
			return 0, errno
		}
		return int(n), nil
	}
}

// readable reports whether a read would not block: the input has data, or
// is at its end (the writer closed it), or has failed.
func (d *direct) readable() bool {
	fds := [1]pollFd{{fd: int32(d.fd), events: pollIn}}
	n, err := poll(fds[:], &syscall.Timespec{})
	return err != nil || n > 0
}

// waitReadable waits on the runtime poller, without reading, until the
// input is readable. It returns an error when kicked.
func (d *direct) waitReadable() error {
	return d.rc.Read(func(uintptr) bool { return d.readable() })
}

// kick makes a waitReadable under way return with an error; unkick lets
// waits work again.
func (d *direct) kick()   { _ = d.wait.SetReadDeadline(time.Unix(1, 0)) }
func (d *direct) unkick() { _ = d.wait.SetReadDeadline(time.Time{}) }

// awaitInput blocks the calling thread until the input is readable (true)
// or wakeUp has been called (false; the wake-up is then used up). Only
// the holder of the baton calls it.
func (d *direct) awaitInput() bool {
	fds := [2]pollFd{{fd: int32(d.fd), events: pollIn}, {fd: int32(d.wfd), events: pollIn}}
	if _, err := poll(fds[:], nil); err != nil {
		return true // the read reports what is wrong
	}
	if fds[1].revents == 0 {
		return true
	}
	var n [8]byte
	_, _ = d.wake.Read(n[:]) // readable, so it does not block; resets the count
	return false
}

// wakeUp makes the awaitInput under way, or else the next one, return
// false. Any goroutine may call it, also after close.
func (d *direct) wakeUp() {
	var one [8]byte
	binary.NativeEndian.PutUint64(one[:], 1)
	_, _ = d.wake.Write(one[:])
}

// close closes the descriptors. Only the last holder of the baton calls it
// (reader.close and reader.release).
func (d *direct) close() {
	d.wait.Close()
	d.wake.Close()
}
