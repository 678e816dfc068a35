//go:build unix && !linux

package vigor

import "syscall"

// dupTo makes fd to a duplicate of fd from.
func dupTo(from, to int) error { return syscall.Dup2(from, to) }
