//go:build !unix

package vigor

import "os"

// channelOut returns the file that the session writes the channel to.
func channelOut(host string) *os.File { return os.Stdout }
