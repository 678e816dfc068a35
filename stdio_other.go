//go:build !unix

package vigor

import "os"

// channelFiles returns the files that the session reads and writes the
// channel through: stdin and stdout.
func channelFiles(poll bool) (in, out *os.File) { return os.Stdin, os.Stdout }

// stderrToLog does nothing here: stderr stays the editor's pipe, which the
// runtime copies to the plugin's log.
func stderrToLog(path string, channelMoved bool) {}
