// Command h6proc misbehaves as a process: its handlers ignore their ctx,
// write to fd 1 behind the SDK's back and start children that inherit the
// plugin's descriptors.
package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"

	"github.com/vigorvim/vigor"
)

func main() {
	vigor.Main(func(ctx context.Context, p *vigor.Plugin) error {
		var hang atomic.Bool
		never := make(chan struct{})
		p.Handle("pid", func() int { return os.Getpid() })
		p.Handle("echo", func(s string) string { return s })
		p.Handle("hang_hook", func() { hang.Store(true) })
		p.OnUnload(func(ctx context.Context) error {
			if hang.Load() {
				<-never
			}
			return nil
		})
		// hang ignores its ctx: it creates the file marker, then blocks
		// (how is "block") or spins (how is "spin") for ever.
		p.Handle("hang", func(ctx context.Context, marker, how string) {
			_ = os.WriteFile(marker, nil, 0o600)
			if how == "spin" {
				for n := 0; ; n++ {
					_ = n
				}
			}
			<-never
		})
		// stray writes tag to fd 1 itself (with no newline, so that it
		// runs into what comes next) and through a child that
		// inherits fds 0, 1 and 2, then answers.
		p.Handle("stray", func(tag string) (string, error) {
			if _, err := syscall.Write(1, []byte("raw "+tag+" ")); err != nil {
				return "", fmt.Errorf("write to fd 1: %w", err)
			}
			if err := child("echo child " + tag); err != nil {
				return "", err
			}
			return "answered " + tag, nil
		})
		// fds describes what a child inherits: fds 0, 1 and 2 as the
		// child sees them, and the descriptors that it would inherit (not
		// close-on-exec) of the pipes and sockets that the plugin holds
		// close-on-exec: the channel's, for one.
		p.Handle("fds", func() (map[string]any, error) {
			ents, err := os.ReadDir("/proc/self/fd")
			if err != nil {
				return nil, err
			}
			private := map[string]bool{}
			inherited := map[string][]string{}
			for _, e := range ents {
				fd, err := strconv.Atoi(e.Name())
				if err != nil {
					continue
				}
				target, err := os.Readlink(filepath.Join("/proc/self/fd", e.Name()))
				if err != nil || !strings.HasPrefix(target, "pipe:") && !strings.HasPrefix(target, "socket:") {
					continue
				}
				flags, _, errno := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_GETFD, 0)
				if errno != 0 {
					continue
				}
				if flags&syscall.FD_CLOEXEC != 0 {
					private[target] = true
				} else {
					inherited[target] = append(inherited[target], e.Name())
				}
			}
			var leaked []string
			for target, fds := range inherited {
				if private[target] {
					leaked = append(leaked, strings.Join(fds, " ")+": "+target)
				}
			}
			std := make([]string, 3)
			for fd := range std {
				std[fd], _ = os.Readlink(fmt.Sprintf("/proc/self/fd/%d", fd))
			}
			return map[string]any{"leaked": strings.Join(leaked, ", "), "std": std}, nil
		})
		return nil
	})
}

// child runs sh -c script with the plugin's fds 0, 1 and 2 and waits for it.
func child(script string) error {
	pid, err := syscall.ForkExec("/bin/sh", []string{"sh", "-c", script}, &syscall.ProcAttr{
		Env:   os.Environ(),
		Files: []uintptr{0, 1, 2},
	})
	if err != nil {
		return fmt.Errorf("start sh: %w", err)
	}
	var ws syscall.WaitStatus
	if _, err := syscall.Wait4(pid, &ws, 0, nil); err != nil {
		return fmt.Errorf("wait for sh: %w", err)
	}
	if ws.ExitStatus() != 0 {
		return fmt.Errorf("sh exited with %d", ws.ExitStatus())
	}
	return nil
}
