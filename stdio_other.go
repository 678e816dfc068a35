//go:build !unix

package vigor

import (
	"io"
	"os"
)

// channelFiles returns the files that the session reads and writes the
// channel through: stdin and stdout.
func channelFiles(poll bool) (in, out *os.File) { return os.Stdin, os.Stdout }

// pipeSafe returns w.
func pipeSafe(w io.Writer) io.Writer { return w }

// channelIntact reports true: where the channel is stdio, the SDK does
// not tell a channel that the plugin closed from one that the editor did.
func channelIntact(io.Writer) func() bool { return func() bool { return true } }

// stderrToLog does nothing here: stderr stays the editor's pipe, which the
// runtime copies to the plugin's log.
func stderrToLog(path string, channelMoved bool) *os.File { return nil }
