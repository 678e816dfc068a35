//go:build !linux

package rpc

import "os"

type direct struct{}

func newDirect(*os.File) *direct    { return nil }
func (*direct) waitReadable() error { return nil }
func (*direct) readable() bool      { return true }
func (*direct) kick()               {}
func (*direct) unkick()             {}
