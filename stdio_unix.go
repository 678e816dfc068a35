//go:build unix

package vigor

import (
	"io"
	"os"
	"syscall"

	"github.com/vigorvim/vigor/internal/protocol"
)

// channelFiles returns the files that the session reads and writes the
// channel through, and takes fds 0 and 1 away from the channel: fd 0 then
// reads /dev/null, and fd 1 writes to stderr (the plugin's log). So
// nothing written to fd 1 behind the SDK's back (C code, a raw write, a
// child process that inherits stdout) reaches the channel, where it would
// break the editor's reading of a reply, and no child can read the
// editor's messages from fd 0 or, on Neovim, whose channel is one socket
// on fds 0 and 1, write into it. The channel's own descriptors are
// close-on-exec: no child inherits them.
//
// If poll is set (host.PollWrites), the output is non-blocking and served
// by Go's runtime poller; otherwise it stays a plain blocking file,
// unknown to the poller. The input stays blocking
// (internal/rpc/direct_linux.go). The descriptors belong to this process
// alone, so the flag changes nothing for the editor.
//
// The channel being on descriptors other than 1 and 2 matters for the
// editor's going away too: a write to fd 1 or 2 after the editor has gone
// (a broken pipe) kills a Go program with SIGPIPE, before the plugin's
// unload hooks run; on another descriptor it fails with EPIPE, which ends
// the session like the end of its input. Fds 1 and 2 then both write to
// stderr, until stderrToLog points them at the log file, which raises no
// SIGPIPE.
//
// If a descriptor cannot be moved, the channel stays on fds 0 and 1.
func channelFiles(poll bool) (in, out *os.File) {
	// Main calls this before the plugin's code runs, and F_DUPFD_CLOEXEC
	// sets close-on-exec atomically, so no exec can inherit the channel.
	outFd, err := dupCloexec(1)
	if err != nil {
		return os.Stdin, os.Stdout
	}
	inFd, err := dupCloexec(0)
	if err != nil {
		syscall.Close(outFd)
		return os.Stdin, os.Stdout
	}
	if poll {
		if err := syscall.SetNonblock(outFd, true); err != nil {
			syscall.Close(outFd)
			syscall.Close(inFd)
			return os.Stdin, os.Stdout
		}
	}
	if err := dupTo(2, 1); err != nil {
		syscall.Close(outFd)
		syscall.Close(inFd)
		return os.Stdin, os.Stdout
	}
	// Fd 0 reads /dev/null; if it cannot, it stays the channel's input,
	// which only a child that reads stdin would notice.
	if null, err := syscall.Open("/dev/null", syscall.O_RDONLY|syscall.O_CLOEXEC, 0); err == nil {
		_ = dupTo(null, 0)
		syscall.Close(null)
	}
	return os.NewFile(uintptr(inFd), "vigor-channel-in"), os.NewFile(uintptr(outFd), "vigor-channel-out")
}

// channelIntact returns a function that reports whether the descriptor
// of w, the channel's output, is still the file it is now: a plugin that
// closed it, or put another file in its place, has closed its channel.
// For what is not a file it always reports true.
func channelIntact(w io.Writer) func() bool {
	stat := func() (dev, ino uint64, ok bool) {
		f, isFile := w.(*os.File)
		if !isFile {
			return 0, 0, false
		}
		// Not f.Fd(), which would make a pollable output blocking.
		rc, err := f.SyscallConn()
		if err != nil {
			return 0, 0, false
		}
		var st syscall.Stat_t
		var serr error
		if err := rc.Control(func(fd uintptr) { serr = syscall.Fstat(int(fd), &st) }); err != nil || serr != nil {
			return 0, 0, false
		}
		return uint64(st.Dev), uint64(st.Ino), true
	}
	dev, ino, ok := stat()
	if !ok {
		return func() bool { return true }
	}
	return func() bool {
		d, i, ok := stat()
		return ok && d == dev && i == ino
	}
}

// pipeSafe returns w, or for os.Stderr a writer that writes through a
// duplicate of fd 2: a write to fd 1 or 2 whose reader has gone (the
// editor quit) kills a Go program with SIGPIPE, before the unload hooks
// run, and one to another descriptor fails with EPIPE.
func pipeSafe(w io.Writer) io.Writer {
	if w != io.Writer(os.Stderr) {
		return w
	}
	return dupWriter(2)
}

// dupWriter writes to a duplicate of its descriptor.
type dupWriter int

func (w dupWriter) Write(b []byte) (int, error) {
	fd, err := dupCloexec(int(w))
	if err != nil {
		return 0, err
	}
	defer syscall.Close(fd)
	return syscall.Write(fd, b)
}

// dupCloexec duplicates fd onto a new close-on-exec descriptor.
func dupCloexec(fd int) (int, error) {
	r, _, errno := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_DUPFD_CLOEXEC, 0)
	if errno != 0 {
		return -1, errno
	}
	return int(r), nil
}

// stderrToLog points fd 2 at the plugin's log file (openLogFile), and fd 1
// too when the channel has left it (channelMoved): from then on whatever
// the plugin, its children and Go's runtime write there lands in the log
// with no work for the editor: copied by the editor line by line, a flood
// of lines would hold it for seconds (BENCHMARKS.md). Vim's err_io 'file'
// would not do: Vim truncates the file at every start and writes at its
// own offset over the SDK's lines, and Neovim has no such option.
// Then it tells the runtime, on the old stderr, that the rest is in the
// log (protocol.StderrInLog), and it keeps that pipe, close-on-exec,
// for Go's report of a fatal panic or error (crashOutput): the runtime
// takes the failure message from there, which is this process's alone
// where the log may be shared by the same plugin in other editors. It
// returns that pipe, for the lines that the SDK writes for the runtime
// (protocol.ClosedByEditor...), or nil when stderr stays the editor's
// pipe: without a path, or if the log cannot be opened or fd 2 moved.
func stderrToLog(path string, channelMoved bool) *os.File {
	if path == "" {
		return nil
	}
	f, err := openLogFile(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	pipe, err := dupCloexec(2)
	if err != nil {
		return nil
	}
	toRuntime := os.NewFile(uintptr(pipe), "vigor-stderr-pipe")
	fd := int(f.Fd())
	if dupTo(fd, 2) != nil {
		toRuntime.Close()
		return nil
	}
	// Through the duplicate, which shares fd 2's old file: the marker
	// comes after whatever reached the runtime before.
	_, _ = toRuntime.Write([]byte(protocol.StderrInLog + "\n"))
	crashOutput(toRuntime)
	if channelMoved {
		_ = dupTo(fd, 1)
	}
	return toRuntime
}
