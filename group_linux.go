package vigor

import (
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// endGroup ends the other processes of the plugin's process group as the
// plugin exits: the processes that it started and that did not leave the
// group (a daemon starts in a session of its own; see Main). It does so
// only in a process that leads a session of its own, as both editors
// start their jobs on Unix, so that the group is the plugin's: run any
// other way (from a shell, by a test), a plugin leaves its group alone.
// The group gets SIGTERM, and those of its processes still running after
// grace get SIGKILL. This covers the ends that the runtime does not see
// coming (the editor quitting or being killed); once the process has
// exited, the runtime ends what is left of the group too
// (vigor#_internal#job#end_group()).
func endGroup(grace time.Duration) {
	pid := os.Getpid()
	if sid, _, errno := syscall.RawSyscall(syscall.SYS_GETSID, 0, 0, 0); errno != 0 || int(sid) != pid {
		return
	}
	// The plugin is in its group too, and it exits next.
	signal.Ignore(syscall.SIGTERM)
	if err := syscall.Kill(-pid, syscall.SIGTERM); err != nil {
		return
	}
	deadline := time.Now().Add(grace)
	for {
		left, err := groupOthers(pid)
		if err != nil || len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			for _, p := range left {
				killInGroup(p, pid)
			}
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// groupOthers lists the running processes of process group pgid but this
// one (a zombie has ended), from /proc.
func groupOthers(pgid int) ([]int, error) {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil, err
	}
	var pids []int
	self := os.Getpid()
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self {
			continue
		}
		if inGroup(pid, pgid) {
			pids = append(pids, pid)
		}
	}
	return pids, nil
}

// inGroup reports whether process pid runs (it is not a zombie) in
// process group pgid, from /proc.
func inGroup(pid, pgid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	// pid (comm) state ppid pgrp ...: comm may hold spaces and
	// parentheses, the fields follow the last one.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return false
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 3 || f[0] == "Z" || f[0] == "X" {
		return false
	}
	g, err := strconv.Atoi(f[2])
	return err == nil && g == pgid
}

// killInGroup sends SIGKILL to process pid if it is still in process
// group pgid. The pid was read from /proc, and the process may have ended
// since and its pid gone to another: os.FindProcess holds the process
// itself (a pidfd, with Go 1.23 or later on Linux 5.3 or later), the look
// at its group that follows is of that process or finds it gone, and the
// signal goes to that process or to none.
func killInGroup(pid, pgid int) {
	proc, err := os.FindProcess(pid)
	if err != nil {
		return
	}
	defer proc.Release()
	if inGroup(pid, pgid) {
		_ = proc.Signal(os.Kill)
	}
}
