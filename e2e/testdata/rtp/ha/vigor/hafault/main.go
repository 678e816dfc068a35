// Command hafault misbehaves on its channel: it reports the descriptors it
// holds, closes its channel while it keeps running, and writes garbage
// into its channel; and it has long and re-entering handlers to run
// beside that.
package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/vigorvim/vigor"
)

// The targets (/proc/self/fd links) of fds 0, 1 and 2 and a raw duplicate
// of fd 1, taken in init, before vigor.Main moves the channel off fds 0
// and 1: the channel's input, its output, and stderr.
var (
	chanIn, chanOut, stderr string
	rawOut                  int
)

func init() {
	chanIn, _ = os.Readlink("/proc/self/fd/0")
	chanOut, _ = os.Readlink("/proc/self/fd/1")
	stderr, _ = os.Readlink("/proc/self/fd/2")
	r, _, errno := syscall.Syscall(syscall.SYS_FCNTL, 1, syscall.F_DUPFD_CLOEXEC, 0)
	rawOut = int(r)
	if errno != 0 {
		rawOut = -1
	}
}

func main() {
	vigor.Main(func(ctx context.Context, p *vigor.Plugin) error {
		p.Handle("pid", func() int { return os.Getpid() })
		p.Handle("echo", func(s string) string { return s })
		// killme kills its own process with SIGKILL, during the call.
		p.Handle("killme", func() error { return syscall.Kill(os.Getpid(), syscall.SIGKILL) })
		// fds lists the pipes and sockets the process holds that are
		// neither its channel nor its stderr, as "fd: target".
		p.Handle("fds", func() ([]string, error) {
			ents, err := os.ReadDir("/proc/self/fd")
			if err != nil {
				return nil, err
			}
			foreign := []string{}
			for _, e := range ents {
				if _, err := strconv.Atoi(e.Name()); err != nil {
					continue
				}
				target, err := os.Readlink(filepath.Join("/proc/self/fd", e.Name()))
				if err != nil || !strings.HasPrefix(target, "pipe:") && !strings.HasPrefix(target, "socket:") {
					continue
				}
				if target != chanIn && target != chanOut && target != stderr {
					foreign = append(foreign, e.Name()+": "+target)
				}
			}
			return foreign, nil
		})
		// closechan closes its channel (closeChannel) and sleeps,
		// ignoring its ctx; the process keeps running.
		p.Handle("closechan", func() error { return closeChannel(false) })
		// closestop closes its channel as closechan does, then stops its
		// process (SIGSTOP): it neither exits nor answers, until a SIGKILL.
		p.Handle("closestop", func() error { return closeChannel(true) })
		// closeexit closes its channel as closechan does, and its
		// process exits (status 3) a moment later.
		p.Handle("closeexit", func() error {
			time.AfterFunc(100*time.Millisecond, func() { os.Exit(3) })
			return closeChannel(false)
		})
		// quiet keeps reenter from writing while garbage writes and
		// answers, so that its answer comes right after the garbage.
		var quiet sync.Mutex
		// garbage writes bytes that are no message into the channel, then
		// answers. For Vim, the start of a message that the answer cannot
		// continue: Vim waits for the rest, reads the answer with it, and
		// drops both. For Neovim, a byte that msgpack does not use.
		p.Handle("garbage", func() (string, error) {
			if rawOut < 0 {
				return "", fmt.Errorf("no raw duplicate of the channel")
			}
			garbage := "\xc1\xc1garbage]]]\n"
			if os.Getenv("VIGOR_HOST") == "vim" {
				garbage = `[1,"`
			}
			quiet.Lock()
			time.AfterFunc(50*time.Millisecond, quiet.Unlock)
			if _, err := syscall.Write(rawOut, []byte(garbage)); err != nil {
				return "", fmt.Errorf("write: %w", err)
			}
			return "after garbage", nil
		})
		// sleep answers ms after ms milliseconds, or fails when its ctx
		// ends.
		p.Handle("sleep", func(ctx context.Context, ms int) (int, error) {
			select {
			case <-time.After(time.Duration(ms) * time.Millisecond):
				return ms, nil
			case <-ctx.Done():
				return 0, context.Cause(ctx)
			}
		})
		// reenter calls the editor (it increments g:ha_reentered) every
		// 5 ms until its ctx ends, or for at most 30 s, and returns how
		// many calls it made.
		p.Handle("reenter", func(ctx context.Context) (int, error) {
			n := 0
			for end := time.Now().Add(30 * time.Second); time.Now().Before(end); n++ {
				// Waits while garbage writes and answers.
				quiet.Lock()
				quiet.Unlock()
				if err := p.Cmd(ctx, "let g:ha_reentered += 1", nil); err != nil {
					return n, err
				}
				time.Sleep(5 * time.Millisecond)
			}
			return n, nil
		})
		return nil
	})
}

// closeChannel replaces every descriptor of the channel's output with
// /dev/null, so that the editor reads the end of the channel, then stops
// the process (stop) or sleeps.
func closeChannel(stop bool) error {
	null, err := syscall.Open("/dev/null", syscall.O_WRONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return err
	}
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return err
	}
	for _, e := range ents {
		fd, err := strconv.Atoi(e.Name())
		if err != nil || fd == null {
			continue
		}
		if target, _ := os.Readlink(filepath.Join("/proc/self/fd", e.Name())); target == chanOut {
			if err := syscall.Dup3(null, fd, syscall.O_CLOEXEC); err != nil {
				return fmt.Errorf("dup3 onto fd %d: %w", fd, err)
			}
		}
	}
	if stop {
		return syscall.Kill(os.Getpid(), syscall.SIGSTOP)
	}
	time.Sleep(time.Hour)
	return nil
}
