package host

import (
	"strings"
	"testing"
)

// A batch too large for Reset to keep tells the adapter's next batch its
// size, so that a batch of large values grows its buffer once; the buffer
// itself is not kept.
func TestLargeBatchStartsAtLastSize(t *testing.T) {
	data := strings.Repeat(".", 64<<10)
	for _, a := range []Adapter{&Nvim{}, &Vim{}} {
		b := a.NewBatch()
		for i := 0; i < 32; i++ {
			if err := b.Add("x", []any{data}); err != nil {
				t.Fatal(err)
			}
		}
		size := len(b.buf)
		b.Reset()
		if b.buf != nil && cap(b.buf) > maxKeptBatch {
			t.Fatalf("%T: Reset kept a buffer of %d bytes", a, cap(b.buf))
		}
		next := a.NewBatch()
		if err := next.Add("x", []any{"small"}); err != nil {
			t.Fatal(err)
		}
		if cap(next.buf) < size {
			t.Errorf("%T: the next batch starts at %d bytes, want at least the last one's %d", a, cap(next.buf), size)
		}
		next.Reset()
		after := a.NewBatch()
		if err := after.Add("x", []any{"small"}); err != nil {
			t.Fatal(err)
		}
		if cap(after.buf) >= size {
			t.Errorf("%T: a batch after a small one starts at %d bytes", a, cap(after.buf))
		}
	}
}

// BenchmarkLargeBatch encodes and frames 100 calls of 64 KiB each, as
// vigor-bench --size 65536 --count 100 does.
func BenchmarkLargeBatch(b *testing.B) {
	n := &Nvim{}
	data := strings.Repeat(".", 64<<10)
	var out []byte
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		bt := n.NewBatch()
		for j := 0; j < 100; j++ {
			if err := bt.Add("x", []any{data}); err != nil {
				b.Fatal(err)
			}
		}
		out = bt.appendList(out[:0], batchAtomic)
		if cap(out) > maxKeptBatch {
			out = nil
		}
		bt.Reset()
	}
}
