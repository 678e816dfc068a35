//go:build unix

package vigor

import (
	"bytes"
	"os"
	"os/exec"
	"syscall"
	"testing"
)

func TestChannelFiles(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestChannelFilesMoveTheChannel$", "-test.v")
	cmd.Env = append(os.Environ(), "VIGOR_TEST_CHANNEL_FILES=1")
	// Pipes, as the editors give: stdin and stdout apart from stderr.
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	if err != nil || !bytes.Contains(stderr.Bytes(), []byte("--- PASS")) {
		t.Fatalf("child: %v\nstdout: %s\nstderr: %s", err, stdout.Bytes(), stderr.Bytes())
	}
	// The child's test output went to fd 1, which was its stderr by then.
	if bytes.Contains(stdout.Bytes(), []byte("PASS")) {
		t.Errorf("the child's fd 1 still wrote to its stdout: %s", stdout.Bytes())
	}
}

// The channel is read and written through close-on-exec duplicates of
// fds 0 and 1, and fds 0 and 1 are then /dev/null and stderr. The test
// runs it in a child process, whose fds it may take over.
func TestChannelFilesMoveTheChannel(t *testing.T) {
	if os.Getenv("VIGOR_TEST_CHANNEL_FILES") == "" {
		t.Skip("run by TestChannelFiles in a child process")
	}
	for _, poll := range []bool{true, false} {
		var st0, st1, stNull, stErr syscall.Stat_t
		_ = syscall.Fstat(0, &st0)
		_ = syscall.Fstat(1, &st1)
		in, out := channelFiles(poll)
		for _, f := range []*os.File{in, out} {
			fd := int(f.Fd())
			if fd <= 2 {
				t.Fatalf("poll %v: the channel is on fd %d", poll, fd)
			}
			flags, _, _ := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_GETFD, 0)
			if flags&syscall.FD_CLOEXEC == 0 {
				t.Errorf("poll %v: fd %d is not close-on-exec", poll, fd)
			}
		}
		var gotIn, gotOut syscall.Stat_t
		_ = syscall.Fstat(int(in.Fd()), &gotIn)
		_ = syscall.Fstat(int(out.Fd()), &gotOut)
		if gotIn.Ino != st0.Ino || gotOut.Ino != st1.Ino {
			t.Errorf("poll %v: the channel files are not the old fds 0 and 1", poll)
		}
		_ = syscall.Fstat(0, &st0)
		_ = syscall.Fstat(1, &st1)
		_ = syscall.Stat("/dev/null", &stNull)
		_ = syscall.Fstat(2, &stErr)
		if st0.Rdev != stNull.Rdev || st1.Ino != stErr.Ino || st1.Dev != stErr.Dev {
			t.Errorf("poll %v: fds 0 and 1 are not /dev/null and stderr", poll)
		}
		_ = syscall.SetNonblock(int(out.Fd()), false)
		in.Close()
		out.Close()
	}
}
