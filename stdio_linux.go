package vigor

import "syscall"

// dupTo makes fd to a duplicate of fd from (dup2; Linux on arm64 has only
// dup3).
func dupTo(from, to int) error { return syscall.Dup3(from, to, 0) }
