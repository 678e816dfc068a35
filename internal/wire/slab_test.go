package wire

import (
	"bytes"
	"testing"
)

// Copies are equal to their source, independent of it and of each other
// (an append to one does not change the next), and small ones share a
// block: fewer than one allocation per copy.
func TestSlabClone(t *testing.T) {
	var s Slab
	src := []byte("[1,0,null,42]")
	a := s.Clone(src)
	b := s.Clone(src)
	src[1] = '9'
	if string(a) != "[1,0,null,42]" || string(b) != "[1,0,null,42]" {
		t.Fatalf("copies changed with their source: %q %q", a, b)
	}
	_ = append(a, 'x')
	if string(b) != "[1,0,null,42]" {
		t.Fatalf("an append to one copy changed the next: %q", b)
	}
	big := bytes.Repeat([]byte{'.'}, SlabMax+1)
	if c := s.Clone(big); !bytes.Equal(c, big) || cap(c) < len(big) {
		t.Fatalf("large copy: %d bytes, cap %d", len(c), cap(c))
	}
	if n := testing.AllocsPerRun(1000, func() { s.Clone(src[:13]) }); n >= 1 {
		t.Fatalf("%.2f allocations per small copy, want under 1", n)
	}
}
