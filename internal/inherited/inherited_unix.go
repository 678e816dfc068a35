//go:build unix

package inherited

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"syscall"
)

func closeAll() (int, error) {
	// Linux lists a process's descriptors in /proc/self/fd, macOS and the
	// BSDs in /dev/fd.
	dir := "/dev/fd"
	if runtime.GOOS == "linux" {
		dir = "/proc/self/fd"
	}
	// The directory's own descriptor is close-on-exec, so it is kept.
	ents, err := os.ReadDir(dir)
	if err != nil {
		return 0, fmt.Errorf("list the inherited descriptors: %w", err)
	}
	n := 0
	for _, e := range ents {
		fd, err := strconv.Atoi(e.Name())
		if err != nil || fd <= 2 {
			continue
		}
		flags, _, errno := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_GETFD, 0)
		if errno != 0 || flags&syscall.FD_CLOEXEC != 0 {
			continue
		}
		if syscall.Close(fd) == nil {
			n++
		}
	}
	return n, nil
}
