package rpc

// DirectDescriptors returns the descriptors that s polls besides its
// input, or nil when direct reads are off.
func DirectDescriptors(s *Session) []int {
	if s.dir == nil {
		return nil
	}
	return []int{s.dir.fd, s.dir.wfd}
}
