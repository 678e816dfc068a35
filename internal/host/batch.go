package host

import (
	"slices"
	"sort"
	"sync/atomic"

	"github.com/vigorvim/vigor/internal/codec/msgpackrpc"
	"github.com/vigorvim/vigor/internal/codec/vimjson"
)

// Batch holds the calls of a batch, encoded for its editor as they are
// added, so that a batch keeps neither its calls' arguments nor a list of
// calls: a 1000-call batch is one growing buffer. Get one from an
// adapter's NewBatch; Reset empties it for the next batch. A Batch is for
// one goroutine at a time.
type Batch struct {
	kind batchKind
	t    vimjson.Transport
	// buf holds the calls one after the other, each starting at its offs:
	// on Vim the items of a JSON List (with their commas), on Neovim the
	// items of a msgpack array without its header.
	buf  []byte
	offs []int32
	// fns names the function of each call, in runs of calls of one
	// function: for errors, which are rare, without a string per call.
	fns []fnRun
	mp  msgpackrpc.CallAppender
	// sizes is the adapter's: the size of its last batch that was too
	// large for Reset to keep, where a batch's buffer starts, so that a
	// batch of large values grows it once instead of a quarter at a time
	// (nil: no hint).
	sizes *atomic.Int64
}

type batchKind uint8

const (
	batchVim batchKind = iota
	batchAtomic
	batchList // [fn, args] items, for nvim_exec_lua and the Vim script loop
)

// fnRun is the function of the calls from start up to the next run's.
type fnRun struct {
	start int
	fn    string
}

// Len is the number of calls in b.
func (b *Batch) Len() int { return len(b.offs) }

// Fn is the function of call i.
func (b *Batch) Fn(i int) string {
	k := sort.Search(len(b.fns), func(k int) bool { return b.fns[k].start > i })
	if k == 0 {
		return ""
	}
	return b.fns[k-1].fn
}

// maxKeptBatch is the largest buffer that Reset keeps for the next batch:
// a batch of large values does not hold their memory afterwards.
const maxKeptBatch = 1 << 20

// Reset empties b, keeping its buffers unless they are large.
func (b *Batch) Reset() {
	if b.sizes != nil {
		n := 0
		if cap(b.buf) > maxKeptBatch {
			n = len(b.buf) + len(b.buf)/8
		}
		b.sizes.Store(int64(n))
	}
	if cap(b.buf) > maxKeptBatch {
		b.buf = nil
	}
	if cap(b.offs) > maxKeptBatch/4 {
		b.offs = nil
	}
	b.buf, b.offs = b.buf[:0], b.offs[:0]
	clear(b.fns)
	b.fns = b.fns[:0]
}

// Add encodes a call of fn with args at the end of b. An argument that
// cannot be sent is an *ArgError (its Call is the index the call would
// have had), and b is as it was. args are encoded now: b keeps no
// reference to them.
func (b *Batch) Add(fn string, args []any) error {
	if len(b.offs) == 0 && b.sizes != nil {
		if n := int(b.sizes.Load()); cap(b.buf) < n {
			b.buf = make([]byte, 0, n)
		}
	}
	start := len(b.buf)
	var err error
	switch b.kind {
	case batchVim:
		b.buf, err = b.appendVim(fn, args)
	default:
		b.buf, err = b.mp.AppendCall(b.buf, fn, args, b.kind == batchAtomic)
	}
	if err != nil {
		b.buf = b.buf[:start]
		// The codecs' Path starts at the index of the argument.
		return argError(fn, len(b.offs), err, 1)
	}
	if n := len(b.fns); n == 0 || b.fns[n-1].fn != fn {
		b.fns = append(b.fns, fnRun{start: len(b.offs), fn: fn})
	}
	b.offs = append(b.offs, int32(start))
	return nil
}

// appendVim appends [name, args] (or [legacy, [name, args]], as the
// transport wants it), after a comma unless it is the first.
func (b *Batch) appendVim(fn string, args []any) ([]byte, error) {
	buf := b.buf
	if len(b.offs) > 0 {
		buf = append(buf, ',')
	}
	buf = append(buf, '[')
	name, legacy := b.t.BatchCall(fn)
	if legacy { // [legacy, [fn, args]]
		buf = append(buf, `"`+vimjson.FuncLegacy+`",[`...)
	}
	buf = append(vimjson.AppendString(buf, name), ',')
	var err error
	if args == nil {
		buf = append(buf, '[', ']')
	} else if buf, err = vimjson.AppendArgs(buf, args); err != nil {
		return buf, err
	}
	if legacy {
		buf = append(buf, ']')
	}
	return append(buf, ']'), nil
}

// appendList appends b's calls as a msgpack array, in the form of kind
// (batchAtomic or batchList).
func (b *Batch) appendList(out []byte, kind batchKind) []byte {
	out = slices.Grow(out, len(b.buf)+16) // the message's buffer grows once
	out = msgpackrpc.AppendArrayLen(out, len(b.offs))
	if kind == b.kind {
		return append(out, b.buf...)
	}
	// batchAtomic's calls, for a Neovim without nvim_call_atomic: each
	// without its prefix.
	for i, off := range b.offs {
		end := len(b.buf)
		if i+1 < len(b.offs) {
			end = int(b.offs[i+1])
		}
		out = append(out, b.buf[int(off)+len(msgpackrpc.AtomicCallPrefix):end]...)
	}
	return out
}
