//go:build !unix

package vigor

import "os"

func pollable(fd int, name string, fallback *os.File) *os.File { return fallback }
