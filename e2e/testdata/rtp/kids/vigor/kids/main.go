// Command kids starts child processes: ones in its own process group,
// which must end with the plugin, and a daemon in a session of its own,
// which outlives it.
package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"syscall"

	"github.com/vigorvim/vigor"
)

func main() {
	vigor.Main(func(ctx context.Context, p *vigor.Plugin) error {
		p.Handle("pid", func() int { return os.Getpid() })
		// child starts sleep, in the plugin's process group; stubborn
		// makes it ignore SIGTERM. It returns the child's pid.
		p.Handle("child", func(stubborn bool) (int, error) {
			script := "exec sleep 120"
			if stubborn {
				script = "trap '' TERM; exec sleep 120"
			}
			return start(exec.Command("/bin/sh", "-c", script))
		})
		// daemon starts sleep in a session of its own (the documented way
		// to keep a process after the plugin) and returns its pid.
		p.Handle("daemon", func() (int, error) {
			cmd := exec.Command("sleep", "120")
			cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
			return start(cmd)
		})
		// crash panics on a goroutine of its own, which ends the process.
		p.Handle("crash", func() {
			go func() { panic("kids: crash") }()
		})
		return nil
	})
}

// start starts cmd and waits for it on a goroutine, which ends with it.
func start(cmd *exec.Cmd) (int, error) {
	if err := cmd.Start(); err != nil {
		return 0, fmt.Errorf("start %s: %w", cmd.Path, err)
	}
	go func() { _ = cmd.Wait() }()
	return cmd.Process.Pid, nil
}
