package e2e

import "os/exec"

func execLookPath(name string) (string, error) { return exec.LookPath(name) }
