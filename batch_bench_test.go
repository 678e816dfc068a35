package vigor

import (
	"context"
	"os"
	"testing"

	"github.com/vmihailenco/msgpack/v5"

	"github.com/vigorvim/vigor/internal/codec/msgpackrpc"
	"github.com/vigorvim/vigor/internal/wire"
)

// BenchmarkBatchNvim is a 1000-call Batch, as the benchmark plugin makes
// it, to a fake Neovim over real pipes that answers at once: the SDK's own
// cost per batch (encoding, writing, reading and decoding), without an
// editor. The time includes the fake's reading of the request; a CPU
// profile (-cpuprofile) separates the two.
//
// go test -run '^$' -bench BatchNvim -benchmem .
func BenchmarkBatchNvim(b *testing.B) {
	inR, inW, _ := os.Pipe()
	outR, outW, _ := os.Pipe()
	go fakeNvim(outR, inW)
	env := map[string]string{"VIGOR_PLUGIN": "bench", "VIGOR_HOST": "nvim", "VIGOR_INSTANCE": "1"}
	plugin := make(chan *Plugin, 1)
	done := make(chan int)
	go func() {
		done <- serve(context.Background(), func(k string) string { return env[k] }, inR, outW, discard{},
			func(ctx context.Context, p *Plugin) error {
				plugin <- p
				return nil
			})
	}()
	p := <-plugin
	calls := make([]BatchCall, 1000)
	for i := range calls {
		calls[i] = C("vigor_benchmark#discard", "................................................................")
	}
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := p.Batch(ctx, calls...); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	inW.Close()
	<-done
	outW.Close()
}

// fakeNvim answers every request on r: nvim_call_atomic with as many
// zeros as it has calls, anything else with nil. It reads with the SDK's
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
