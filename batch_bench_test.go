package vigor

import (
	"context"
	"os"
	"testing"

	"github.com/vmihailenco/msgpack/v5"

	"github.com/vigorvim/vigor/internal/codec/msgpackrpc"
	"github.com/vigorvim/vigor/internal/wire"
)

// BenchmarkBatchNvim is a 1000-call batch, as the benchmark plugin makes
// it, to a fake Neovim over real pipes that answers at once: the SDK's own
// cost per batch (recording, encoding, writing, reading and decoding),
// without an editor. The time includes the fake's reading of the request;
// a CPU profile (-cpuprofile) separates the two. recorded drops the
// results, as the benchmark plugin does; into decodes each into an int
// through Into.
//
// go test -run '^$' -bench BatchNvim -benchmem .
func BenchmarkBatchNvim(b *testing.B) {
	p, stop := benchPlugin(b)
	defer stop()
	const data = "................................................................"
	ctx := context.Background()
	b.Run("recorded", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			err := p.Batch(ctx, func(bt *Batch) error {
				for j := 0; j < 1000; j++ {
					if err := bt.CallInto(ctx, nil, "vigor_benchmark#discard", data); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("into", func(b *testing.B) {
		b.ReportAllocs()
		results := make([]int, 1000)
		for i := 0; i < b.N; i++ {
			err := p.Batch(ctx, func(bt *Batch) error {
				for j := range results {
					if _, err := CallAs[int](ctx, bt.Into(&results[j]), "vigor_benchmark#discard", data); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				b.Fatal(err)
			}
		}
	})
}

// fakeNvim answers every request on r: nvim_call_atomic with as many
// zeros as it has calls, nvim_call_function with 0, anything else with
// nil. It reads with the SDK's
// codec and answers with bytes made in advance, so that it costs little
// next to the SDK.
func fakeNvim(r *os.File, w *os.File) {
	c := msgpackrpc.NewSize(r, 1<<20)
	for {
		var m wire.Message
		if err := c.ReadMessage(&m); err != nil {
			w.Close()
			return
		}
		if m.Kind != wire.Request {
			continue
		}
		var result any
		if m.Method == "nvim_call_function" {
			result = 0
		}
		if m.Method == "nvim_call_atomic" && len(m.Params) == 1 && len(m.Params[0]) > 3 && m.Params[0][0] == 0xdc {
			p := m.Params[0]
			// An array16 header: the number of calls.
			result = []any{make([]int, int(p[1])<<8|int(p[2])), nil}
		}
		b, err := msgpack.Marshal([]any{1, m.ID, nil, result})
		if err != nil {
			return
		}
		if _, err := w.Write(b); err != nil {
			return
		}
	}
}
