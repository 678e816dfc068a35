//go:build !unix

package vigor

import "os"

// channelFiles returns the files that the session reads and writes the
// channel through: stdin and stdout.
func channelFiles(poll bool) (in, out *os.File) { return os.Stdin, os.Stdout }
