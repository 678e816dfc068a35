package build

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// staleLock is the age after which an exclusive-create lock file (lockExcl)
// is taken to be left over from a build that died, and after which a
// build-* work directory is removed.
const staleLock = 10 * time.Minute

// A builder that waits for a lock tries again after minPoll, then after
// twice as long each time, up to maxPoll.
const (
	minPoll = 5 * time.Millisecond
	maxPoll = 50 * time.Millisecond
)

// backoff returns the next wait after d.
func backoff(d time.Duration) time.Duration {
	return min(2*d, maxPoll)
}

// lockExcl takes a lock file created with O_EXCL, waiting while another
// process holds it. It is the lock where flock(2) is not available. A lock
// left by a builder that died is taken over once its process is gone (where
// that can be told) or once it is older than staleLock; two builders that
// find the same left-over lock at the same moment can both take it, so this
// lock is not exact.
func lockExcl(ctx context.Context, path string) (func(), error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	for wait := minPoll; ; wait = backoff(wait) {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if err == nil {
			fmt.Fprintf(f, "%d\n", os.Getpid())
			f.Close()
			return func() { os.Remove(path) }, nil
		}
		if !os.IsExist(err) {
			return nil, err
		}
		if st, err := os.Stat(path); err == nil && time.Since(st.ModTime()) > staleLock {
			os.Remove(path)
			continue
		}
		if data, err := os.ReadFile(path); err == nil {
			var pid int
			if _, err := fmt.Sscan(string(data), &pid); err == nil && pid > 0 && !processAlive(pid) {
				os.Remove(path)
				continue
			}
		}
		if err := sleepCtx(ctx, wait); err != nil {
			return nil, err
		}
	}
}

// sleepCtx waits for d, or until ctx ends.
func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
