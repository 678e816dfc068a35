//go:build unix

package inherited

import (
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"
)

// A descriptor without close-on-exec is closed, one with it is kept, and
// fds 0, 1 and 2 stay. The test runs CloseAll in a child process, whose
// descriptors it may close.
func TestCloseAll(t *testing.T) {
	if os.Getenv("INHERITED_TEST_CHILD") != "" {
		t.Skip("run by TestCloseAll in its parent")
	}
	inherit, err := os.CreateTemp(t.TempDir(), "inherit")
	if err != nil {
		t.Fatal(err)
	}
	defer inherit.Close()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCloseAllChild$", "-test.v")
	// ExtraFiles are given to the child without close-on-exec, as Vim
	// gives its descriptors to a job: fd 3.
	cmd.ExtraFiles = []*os.File{inherit}
	cmd.Env = append(os.Environ(), "INHERITED_TEST_CHILD=3")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
}

func TestCloseAllChild(t *testing.T) {
	fd, _ := strconv.Atoi(os.Getenv("INHERITED_TEST_CHILD"))
	if fd == 0 {
		t.Skip("run by TestCloseAll in a child process")
	}
	kept, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer kept.Close()
	n, err := CloseAll()
	if err != nil {
		t.Fatal(err)
	}
	if n < 1 {
		t.Errorf("CloseAll closed %d descriptors, want at least 1 (fd %d)", n, fd)
	}
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != syscall.EBADF {
		t.Errorf("the inherited fd %d is still open (fstat: %v)", fd, err)
	}
	if err := syscall.Fstat(int(kept.Fd()), &st); err != nil {
		t.Errorf("the close-on-exec fd %d was closed: %v", kept.Fd(), err)
	}
	for std := range 3 {
		if err := syscall.Fstat(std, &st); err != nil {
			t.Errorf("fd %d was closed: %v", std, err)
		}
	}
}
