//go:build go1.23

package vigor

import (
	"os"
	"runtime/debug"
)

// crashOutput makes Go's runtime write the report of a fatal panic or
// error to f too (a duplicate of it), besides stderr.
func crashOutput(f *os.File) { _ = debug.SetCrashOutput(f, debug.CrashOptions{}) }
