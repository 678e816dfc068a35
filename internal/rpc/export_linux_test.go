package rpc

// DirectDescriptors returns the descriptors that s polls besides its
// input, or nil when direct reads are off.
func DirectDescriptors(s *Session) []int {
	if s.rd == nil {
		return nil
	}
	return []int{s.rd.dir.fd, s.rd.dir.wfd}
}
