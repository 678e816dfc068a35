//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd

package build

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// lock takes the lock file at path, waiting while another builder holds
// it. The lock is flock(2) on the open file, so the kernel releases it when
// its holder exits, however it exits: a lock file left behind by a builder
// that died is free, and no builder ever decides that another is dead. The
// file holds the holder's pid, for people.
//
// The holder removes the file before it lets go. A waiter that opened the
// file before that locks a file that path no longer names, so a lock counts
// only when path still names the locked file; otherwise the taker closes it
// and tries again. Two builders therefore never hold the lock at once.
//
// On a file system without flock(2), lock falls back to lockExcl.
func lock(ctx context.Context, path string) (func(), error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	for wait := minPoll; ; wait = backoff(wait) {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
		if err != nil {
			return nil, err
		}
		err = flockNB(f)
		switch {
		case err == nil:
			if held(f, path) {
				_ = f.Chmod(0o600)
				_ = f.Truncate(0)
				fmt.Fprintf(f, "%d\n", os.Getpid())
				return func() {
					os.Remove(path)
					f.Close()
				}, nil
			}
			f.Close()
			continue
		case errors.Is(err, syscall.EWOULDBLOCK):
			f.Close()
		case errors.Is(err, syscall.ENOLCK) || errors.Is(err, syscall.EOPNOTSUPP) || errors.Is(err, syscall.ENOTSUP):
			f.Close()
			return lockExcl(ctx, path)
		default:
			f.Close()
			return nil, fmt.Errorf("cannot lock %s: %w", path, err)
		}
		if err := sleepCtx(ctx, wait); err != nil {
			return nil, err
		}
	}
}

// flockNB takes an exclusive flock on f without waiting.
func flockNB(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}

// held reports whether path still names the open file f.
func held(f *os.File, path string) bool {
	a, err := f.Stat()
	if err != nil {
		return false
	}
	b, err := os.Stat(path)
	return err == nil && os.SameFile(a, b)
}
