//go:build !unix

package vigor

import "os"

// channelOut returns the file that the session writes the channel to.
func channelOut(poll bool) *os.File { return os.Stdout }
