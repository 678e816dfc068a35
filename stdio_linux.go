package vigor

import (
	"io"
	"os"
	"syscall"
	"unsafe"
)

// dupTo makes fd to a duplicate of fd from (dup2; Linux on arm64 has only
// dup3).
func dupTo(from, to int) error { return syscall.Dup3(from, to, 0) }

// rawOut is the channel's output when a write to it can be made without
// blocking: a socket (Neovim's job channel; send(2) with MSG_DONTWAIT) or
// a descriptor in non-blocking mode (Vim's pipe). A write of up to
// rawWriteMax bytes is one system call made with RawSyscall, which the
// runtime does not see, so it costs neither the runtime's system call
// entry nor the os and poll layers (BENCHMARKS.md, "Writes to the
// editor"). What does not go at once (a full buffer, an error) goes
// through f, which waits for room and makes the error.
//
// The session writes one batch at a time (rpc's writer), so no two
// writes overlap. f is never closed while the plugin runs, so the
// descriptor stays f's.
type rawOut struct {
	f    *os.File
	fd   uintptr
	sock bool // send(2) with MSG_DONTWAIT; else write(2)
}

// rawWriteMax is the most one raw write takes: the length of Vim's pipe
// (vimjson's pipeSize). Such a write holds the processor while the kernel
// copies it, and a batch's message (about 100 KB) written so keeps the
// runtime from handing the processor to another thread, and sysmon from
// waking for it (BENCHMARKS.md, "Writes to the editor"). Vim's frames stay
// whole: vimjson.Writer writes at most PIPE_BUF bytes at a time, which a
// pipe takes whole or not at all, or a longer frame once the pipe has
// room for all of it.
const rawWriteMax = 1 << 20

// fastOut returns the writer for the channel's output w: a rawOut when w
// is a file that allows it, else w.
func fastOut(w io.Writer) io.Writer {
	f, ok := w.(*os.File)
	if !ok {
		return w
	}
	sc, err := f.SyscallConn()
	if err != nil {
		return w
	}
	var fd uintptr
	if sc.Control(func(d uintptr) { fd = d }) != nil {
		return w
	}
	o := &rawOut{f: f, fd: fd}
	if _, err := syscall.GetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_TYPE); err == nil {
		o.sock = true
		return o
	}
	flags, _, errno := syscall.Syscall(syscall.SYS_FCNTL, fd, syscall.F_GETFL, 0)
	if errno != 0 || flags&syscall.O_NONBLOCK == 0 {
		return w // a blocking pipe or file: a raw write could block
	}
	return o
}

func (o *rawOut) Write(b []byte) (int, error) {
	if len(b) == 0 || len(b) > rawWriteMax {
		return o.f.Write(b)
	}
	var n uintptr
	var errno syscall.Errno
	if o.sock {
		n, _, errno = syscall.RawSyscall6(syscall.SYS_SENDTO, o.fd, uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)),
			syscall.MSG_DONTWAIT|syscall.MSG_NOSIGNAL, 0, 0)
	} else {
		n, _, errno = syscall.RawSyscall(syscall.SYS_WRITE, o.fd, uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)))
	}
	if errno == 0 && int(n) == len(b) {
		return len(b), nil
	}
	done := 0
	if errno == 0 {
		done = int(n)
	}
	m, err := o.f.Write(b[done:])
	return done + m, err
}

// SyscallConn is f's (vimjson.Writer looks at the pipe through it).
func (o *rawOut) SyscallConn() (syscall.RawConn, error) { return o.f.SyscallConn() }
