//go:build !linux

package rpc

import "time"

// direct is Linux only (direct_linux.go): elsewhere only Run reads.
type direct struct{}

func newDirect(*Input) *direct              { return nil }
func (*direct) waitReadable() error         { return nil }
func (*direct) readable() bool              { return true }
func (*direct) kick()                       {}
func (*direct) unkick()                     {}
func (*direct) awaitInput(bool) bool        { return true }
func (*direct) wakeUp()                     {}
func (*direct) close()                      {}
func (*direct) holds() bool                 { return false }
func (*direct) holdsRead() bool             { return false }
func (*direct) setHold(bool, time.Duration) {}
