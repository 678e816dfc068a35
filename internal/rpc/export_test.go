package rpc

import "time"

// DirectReadsOn reports whether callers of s may read their own replies.
// (For the tests of package rpc_test.)
func DirectReadsOn(s *Session) bool { return s.dir != nil }

// DirectReadCount returns how many direct reads callers of s have made.
func DirectReadCount(s *Session) uint64 { return s.directReads.Load() }

// SetRemindAfter sets the time before the first reminder and between
// reminders (Options.Wake) of s.
func SetRemindAfter(s *Session, d time.Duration) {
	s.mu.Lock()
	s.remindAfter = d
	s.mu.Unlock()
}
