package build

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// deadPid returns the pid of a process that has exited and been waited for.
func deadPid(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatalf("cannot run true(1) to get a dead pid: %v", err)
	}
	return cmd.Process.Pid
}

// A lock left by a builder that was killed is taken over at once, not
// after staleLock.
func TestLockTakesOverLockOfDeadProcess(t *testing.T) {
	dead := deadPid(t)
	path := filepath.Join(t.TempDir(), "key.lock")
	if err := os.WriteFile(path, []byte(strconv.Itoa(dead)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	unlock, err := lock(ctx, path)
	if err != nil {
		t.Fatalf("lock over a dead builder's lock: %v", err)
	}
	unlock()
}

// Many builders that find the same left-over lock at once take it over one
// at a time: never two hold it together, and the plugin builds once.
func TestLockTakeoverIsExact(t *testing.T) {
	dead := deadPid(t)
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	const rounds, builders = 200, 8
	for round := range rounds {
		dir := t.TempDir()
		path := filepath.Join(dir, "key.lock")
		if err := os.WriteFile(path, []byte(strconv.Itoa(dead)+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		if round%2 == 1 {
			// A lock of a live process, but old enough to count as stale.
			if err := os.WriteFile(path, []byte(strconv.Itoa(os.Getpid())+"\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			old := time.Now().Add(-2 * staleLock)
			if err := os.Chtimes(path, old, old); err != nil {
				t.Fatal(err)
			}
		}
		built := filepath.Join(dir, "bin")
		var (
			holders, most, builds atomic.Int32
			wg                    sync.WaitGroup
		)
		start := make(chan struct{})
		errs := make(chan error, builders)
		for range builders {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				unlock, err := lock(ctx, path)
				if err != nil {
					errs <- err
					return
				}
				n := holders.Add(1)
				for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
				}
				if _, err := os.Stat(built); os.IsNotExist(err) {
					builds.Add(1)
					time.Sleep(time.Millisecond) // a build takes a while
					if err := os.WriteFile(built, nil, 0o600); err != nil {
						errs <- err
					}
				}
				holders.Add(-1)
				unlock()
			}()
		}
		close(start)
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatalf("round %d: %v", round, err)
		}
		if most.Load() != 1 || builds.Load() != 1 {
			t.Fatalf("round %d: %d builders held the lock at once and %d built, want 1 and 1", round, most.Load(), builds.Load())
		}
	}
}
