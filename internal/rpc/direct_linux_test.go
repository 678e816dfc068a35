package rpc_test

import (
	"os"
	"syscall"
	"testing"

	"github.com/vigorvim/vigor/internal/rpc"
)

// A session whose input has a descriptor past 1023 works: the descriptors
// it polls are then past the 1024 that select(2)'s fd_set holds (which
// made it panic). Every free descriptor below 1024 is taken first, so that
// the pipes and the session's own descriptors are all above.
func TestDirectReadsHighDescriptor(t *testing.T) {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		t.Fatal(err)
	}
	if lim.Cur < 1100 {
		t.Skipf("the limit on open files is %d; this test needs 1100", lim.Cur)
	}
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	var low []int
	defer func() {
		for _, fd := range low {
			syscall.Close(fd)
		}
	}()
	for {
		fd, err := syscall.Dup(int(null.Fd()))
		if err != nil {
			t.Fatal(err)
		}
		if fd >= 1024 {
			syscall.Close(fd)
			break
		}
		low = append(low, fd)
	}
	p := startEcho(t)
	fds := append([]int{int(p.input.Fd())}, rpc.DirectDescriptors(p.sess)...)
	for _, fd := range fds {
		if fd < 1024 {
			t.Fatalf("descriptor %d of %v is below 1024", fd, fds)
		}
	}
	p.hammer(t, "high descriptors", 2, 50)
	p.end(t, "high descriptors")
}
