package rpc

import (
	"context"
	"time"
)

// DirectReadsOn reports whether callers of s may read their own replies.
// (For the tests of package rpc_test.)
func DirectReadsOn(s *Session) bool { return s.rd != nil }

// DirectReadCount returns how many direct reads callers of s have made.
func DirectReadCount(s *Session) uint64 {
	if s.rd == nil {
		return 0
	}
	return s.rd.reads.Load()
}

// CheckDeep makes every change of s's state check all its invariants,
// also those that cost time in proportion to the calls pending. Call it
// before Run.
func CheckDeep(s *Session) { s.deep = true }

// CheckEnded reports a broken invariant of s's state, and, once Run has
// returned, state left behind: a call still pending, a worker waiting,
// or a queue that is still busy.
func CheckEnded(s *Session) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.st.check(true)
}

// SetHold makes s's callers wait for their replies holding the processor
// (or not), for at most max at a time, whatever the CPUs.
func SetHold(s *Session, on bool, max time.Duration) {
	if s.rd != nil {
		s.rd.dir.setHold(on, max)
	}
}

// WithoutDirectRead returns a ctx whose calls wait for their reply on a
// channel, never reading it themselves, as Long's do when they cannot
// hold.
func WithoutDirectRead(ctx context.Context) context.Context { return long{Context: ctx, never: true} }
