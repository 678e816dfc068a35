package vigor

import (
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// groupOthers lists the running processes of a group, and a process that
// has ended (a zombie not yet waited for) no more.
func TestGroupOthers(t *testing.T) {
	cmd := exec.Command("sleep", "100")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	pids, err := groupOthers(pid)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(pids, []int{pid}) {
		t.Fatalf("group %d: %v, want [%d]", pid, pids, pid)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		pids, err := groupOthers(pid)
		if err != nil {
			t.Fatal(err)
		}
		if len(pids) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("group %d: %v 10s after the kill, want none", pid, pids)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// killInGroup kills a process of the group, and leaves alone one that is
// not (a pid that another process has taken).
func TestKillInGroup(t *testing.T) {
	start := func() *exec.Cmd {
		cmd := exec.Command("sleep", "100")
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
		return cmd
	}
	member, other := start(), start()
	pgid := member.Process.Pid
	killInGroup(other.Process.Pid, pgid)
	killInGroup(member.Process.Pid, pgid)
	if err := member.Wait(); err == nil || !strings.Contains(err.Error(), "killed") {
		t.Errorf("the group's process: %v, want killed", err)
	}
	if !inGroup(other.Process.Pid, other.Process.Pid) {
		t.Errorf("the process of another group was ended")
	}
}
