//go:build !go1.23

package vigor

import "os"

// crashOutput does nothing before Go 1.23 (no debug.SetCrashOutput): the
// report of a fatal panic or error goes to stderr, the log, alone.
func crashOutput(f *os.File) {}
