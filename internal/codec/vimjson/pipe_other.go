//go:build !linux

package vimjson

import "io"

// pipeBuf is PIPE_BUF: a write of at most this many bytes goes into a pipe
// whole. (POSIX promises 512.)
const pipeBuf = 512

// pipeRoom returns nil: only Linux says when a longer write goes in whole.
func pipeRoom(io.Writer) func(n int) error { return nil }
