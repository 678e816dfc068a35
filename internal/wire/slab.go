package wire

// Slab copies small frames out of a codec's read buffer into shared
// blocks, so that reading a message allocates about once per block
// instead of once per message. A copy is a full slice expression: an
// append to it reallocates rather than writing over its neighbour. The
// garbage collector keeps a block while any copy in it is referenced, so a
// value kept for long keeps up to SlabBlock bytes alive with it.
//
// A Slab belongs to the codec's one reader at a time; it is not safe for
// concurrent use.
type Slab struct{ b []byte }

const (
	// SlabBlock is the size of a block.
	SlabBlock = 4096
	// SlabMax is the largest frame that goes into a block; a larger one
	// gets a slice of its own.
	SlabMax = 512
)

// Clone returns a copy of p that no one else writes.
func (s *Slab) Clone(p []byte) []byte {
	if len(p) > SlabMax {
		return append([]byte(nil), p...)
	}
	if cap(s.b)-len(s.b) < len(p) {
		s.b = make([]byte, 0, SlabBlock)
	}
	n := len(s.b)
	s.b = append(s.b, p...)
	return s.b[n:len(s.b):len(s.b)]
}
