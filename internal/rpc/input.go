package rpc

import (
	"errors"
	"os"
	"syscall"
)

// Input is a session's input: the file its codec reads through it
// (NewInput), so that on Linux a caller that holds its processor can read
// its reply itself (direct_linux.go, holdRead). Only the session's reader
// of the moment (the holder of the baton, direct.go) touches it.
type Input struct {
	f *os.File
	// timed: reads of f time out (SO_RCVTIMEO, a socket's option), which
	// a hold uses to bound its read; Read then reads on after a timeout.
	timed bool
	// pend is what a hold read and the codec has not taken yet; it counts
	// as buffered input (reader.buffered). A hold reads less than any
	// codec's buffer (holdBuf), into an empty one, so the codec's next
	// read takes it all.
	pend []byte
	buf  []byte // pend's memory, made at the first hold read
}

// NewInput returns the input that reads f, for a codec and
// Options.Input.
func NewInput(f *os.File) *Input { return &Input{f: f} }

// Read reads what a hold read first, then from the file.
func (in *Input) Read(p []byte) (int, error) {
	if len(in.pend) > 0 {
		n := copy(p, in.pend)
		in.pend = in.pend[n:]
		return n, nil
	}
	for {
		n, err := in.f.Read(p)
		if n == 0 && in.timed && errors.Is(err, syscall.EAGAIN) {
			continue // a read timed out inside a message: the rest is coming
		}
		return n, err
	}
}
