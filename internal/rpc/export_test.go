package rpc

// DirectReadsOn reports whether callers of s may read their own replies.
// (For the tests of package rpc_test.)
func DirectReadsOn(s *Session) bool { return s.dir != nil }

// DirectReadCount returns how many direct reads callers of s have made.
func DirectReadCount(s *Session) uint64 { return s.directReads.Load() }
