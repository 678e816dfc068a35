package build

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// A lock left by a builder that was killed is taken over at once, not
// after staleLock.
func TestLockTakesOverLockOfDeadProcess(t *testing.T) {
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatalf("cannot run true(1) to get a dead pid: %v", err)
	}
	dead := cmd.Process.Pid // it has exited and been waited for
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
