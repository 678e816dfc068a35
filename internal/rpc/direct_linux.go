//go:build linux

package rpc

import (
	"encoding/binary"
	"os"
	"runtime"
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
	in   *Input
	ifd  int // in's descriptor
	// hold: the first holdFor of a wait is hidden from the runtime
	// (holdInput, or holdRead on a socket). Set when the process has one
	// CPU and one P.
	hold    bool
	holdFor syscall.Timespec
}

// newDirect returns nil when input cannot be used so.
func newDirect(input *Input) *direct {
	f := input.f
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
	d := &direct{wait: wait, rc: rc, fd: fd, wake: os.NewFile(r, "vigor-input-wake"), wfd: int(r), in: input, ifd: in}
	d.setHold(runtime.NumCPU() == 1 && runtime.GOMAXPROCS(0) == 1, holdFor)
	return d
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

// holdFor bounds holdInput's wait: Go's own time slice. Shorter bounds
// lose (BENCHMARKS.md, "The wait for a reply").
const holdFor = 10 * time.Millisecond

// holdInput is poll(fds, d.holdFor) made with RawSyscall6, which the runtime
// does not see: it returns true if an event came, false on a timeout or
// a signal. The thread keeps its P meanwhile, as if the goroutine ran.
//
// With one CPU, a wait the runtime sees costs the call more than the wait
// itself: after about 20 µs sysmon takes the P from the waiting thread
// and wakes another to look for work, and both take the CPU from the
// editor that is computing the reply (BENCHMARKS.md, "The wait for a
// reply"). Held, nothing else of the plugin runs until the reply comes:
// no more than Go's own preemption would let one goroutine run, and only
// while nothing this caller dispatched waits to run (readOwnLocked).
func (d *direct) holdInput(fds []pollFd) bool {
	ts := d.holdFor
	n, _, errno := syscall.RawSyscall6(syscall.SYS_PPOLL, uintptr(unsafe.Pointer(&fds[0])), uintptr(len(fds)),
		uintptr(unsafe.Pointer(&ts)), 0, 0, 0)
	return errno == 0 && n > 0
}

// holds reports whether awaitInput may hold the processor.
func (d *direct) holds() bool { return d.hold }

// holdsRead reports whether a hold is the read itself (holdRead).
func (d *direct) holdsRead() bool { return d.hold && d.in.timed }

// setHold turns holding on or off, with bound max. When the input is a
// socket (Neovim's job channel), its reads then time out after max
// (SO_RCVTIMEO), and a hold reads the reply itself (holdRead) instead of
// polling first: one system call less a call (BENCHMARKS.md, "The wait
// for a reply").
func (d *direct) setHold(on bool, max time.Duration) {
	d.hold, d.holdFor = on, syscall.NsecToTimespec(int64(max))
	tv := syscall.NsecToTimeval(int64(max))
	if !on {
		tv = syscall.Timeval{}
	}
	if _, err := syscall.GetsockoptInt(d.ifd, syscall.SOL_SOCKET, syscall.SO_TYPE); err != nil {
		return // not a socket
	}
	d.in.timed = syscall.SetsockoptTimeval(d.ifd, syscall.SOL_SOCKET, syscall.SO_RCVTIMEO, &tv) == nil && on
}

// holdBuf is the most a hold reads: less than the buffer of any codec
// (64 KiB), whose next read then takes it all (Input.pend).
const holdBuf = 4096

// holdRead is a read(2) of the input into in.pend made with RawSyscall,
// which the runtime does not see, bounded by the socket's timeout (or
// made once the input is readable): it returns true when the input has
// given bytes, its end or an error (the codec's read reports them), false
// when it timed out or a signal came.
func (d *direct) holdRead() bool {
	in := d.in
	if in.buf == nil {
		in.buf = make([]byte, holdBuf)
	}
	n, _, errno := syscall.RawSyscall(syscall.SYS_READ, uintptr(d.ifd), uintptr(unsafe.Pointer(&in.buf[0])), holdBuf)
	switch {
	case errno == syscall.EAGAIN || errno == syscall.EINTR:
		return false
	case errno != 0 || n == 0:
		return true
	}
	in.pend = in.buf[:n]
	return true
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
func (d *direct) awaitInput(hold bool) bool {
	fds := [2]pollFd{{fd: int32(d.fd), events: pollIn}, {fd: int32(d.wfd), events: pollIn}}
	// A hold reads or polls the input only: while it lasts nothing of the
	// plugin runs that could wake it (one fd polls faster than two).
	if hold && d.in.timed {
		if d.holdRead() {
			return true
		}
	} else if hold && d.holdInput(fds[:1]) {
		// Readable, so the read does not block: made raw too, it saves
		// the codec's read the runtime's system call entry.
		d.holdRead()
		return true
	}
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
