package vigor

import (
	"bufio"
	"context"
	"os"
	"testing"

	"github.com/vmihailenco/msgpack/v5"
)

// BenchmarkBatchNvim is a 1000-call batch, as the benchmark plugin makes
// it, to a fake Neovim over real pipes that answers at once: the SDK's own
// cost per batch (recording, encoding, writing, reading and decoding),
// without an editor. The time includes the fake's reading of the request;
// a CPU profile (-cpuprofile) separates the two. See benchBatches for the
// sub-benchmarks.
//
// go test -run '^$' -bench BatchNvim -benchmem .
func BenchmarkBatchNvim(b *testing.B) {
	p, stop := benchPlugin(b)
	defer stop()
	benchBatches(b, p)
}

// benchData is the argument of every call in the benchmarks, 64 bytes as
// in denops-benchmark.
const benchData = "................................................................"

// benchBatches runs 1000-call batches of p: recorded drops the results,
// as the benchmark plugin does; into-any decodes each into an any through
// Into, as Call does; into-int decodes each into an int with CallAs
// through Into; into-int-wrapped does it through a Caller that wraps Into's
// (benchWrapper), made for each call as a helper would make it: two
// allocations a call, the wrapper and the copy of args that CallAs gives
// a Caller that is not the batch's own.
func benchBatches(b *testing.B, p *Plugin) {
	ctx := context.Background()
	anys := make([]any, 1000)
	ints := make([]int, 1000)
	for _, bench := range []struct {
		name string
		call func(bt *Batch, j int) error
	}{
		{"recorded", func(bt *Batch, j int) error {
			return bt.CallInto(ctx, nil, "vigor_benchmark#discard", benchData)
		}},
		{"into-any", func(bt *Batch, j int) error {
			return bt.Into(&anys[j]).CallInto(ctx, nil, "vigor_benchmark#discard", benchData)
		}},
		{"into-int", func(bt *Batch, j int) error {
			_, err := CallAs[int](ctx, bt.Into(&ints[j]), "vigor_benchmark#discard", benchData)
			return err
		}},
		{"into-int-wrapped", func(bt *Batch, j int) error {
			_, err := CallAs[int](ctx, benchWrapper{bt.Into(&ints[j])}, "vigor_benchmark#discard", benchData)
			return err
		}},
	} {
		b.Run(bench.name, func(b *testing.B) {
			b.ReportAllocs()
			defer reportCPU(b)()
			for i := 0; i < b.N; i++ {
				err := p.Batch(ctx, func(bt *Batch) error {
					for j := 0; j < 1000; j++ {
						if err := bench.call(bt, j); err != nil {
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
}

// benchWrapper is the smallest Caller that wraps another.
type benchWrapper struct{ Caller }

// BenchmarkCallNvim is one call of an editor function to a fake Neovim
// over real pipes that answers at once (fakeNvim): raw is Plugin.Call,
// whose result is an any; typed is CallAs[int] through the Caller
// interface, as the std wrappers make it.
//
// go test -run '^$' -bench CallNvim -benchmem .
func BenchmarkCallNvim(b *testing.B) {
	p, stop := benchPlugin(b)
	defer stop()
	benchCalls(b, p)
}

// benchCalls runs calls of p: raw is Plugin.Call, typed CallAs[int]
// through the Caller interface.
func benchCalls(b *testing.B, p *Plugin) {
	ctx := context.Background()
	var c Caller = p
	for _, bench := range []struct {
		name string
		call func() error
	}{
		{"raw", func() error {
			_, err := p.Call(ctx, "vigor_benchmark#discard", benchData)
			return err
		}},
		{"typed", func() error {
			_, err := CallAs[int](ctx, c, "vigor_benchmark#discard", benchData)
			return err
		}},
	} {
		b.Run(bench.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if err := bench.call(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// benchPlugin serves a plugin to fakeNvim over real pipes and returns it,
// and a func that ends the session.
func benchPlugin(b *testing.B) (*Plugin, func()) { return pipePlugin("nvim", fakeNvim) }

// pipePlugin serves a plugin of editor to fake over real pipes (fake
// reads what the plugin writes and writes its answers), and returns it
// and a func that ends the session.
func pipePlugin(editor string, fake func(r, w *os.File)) (*Plugin, func()) {
	inR, inW, _ := os.Pipe()
	outR, outW, _ := os.Pipe()
	go fake(outR, inW)
	env := map[string]string{"VIGOR_PLUGIN": "bench", "VIGOR_HOST": editor, "VIGOR_INSTANCE": "1"}
	plugin := make(chan *Plugin, 1)
	done := make(chan int)
	go func() {
		done <- serve(context.Background(), func(k string) string { return env[k] }, inR, outW, discard{},
			func(ctx context.Context, p *Plugin) error {
				plugin <- p
				return nil
			})
	}()
	return <-plugin, func() {
		inW.Close()
		<-done
		outW.Close()
	}
}

// fakeNvim answers every request on r: nvim_call_atomic with as many
// zeros as it has calls, nvim_call_function with 0, anything else with
// nil. It decodes only the request's head, into buffers it keeps, and
// encodes its answers by hand, so that it makes no allocation per
// message: the benchmarks' allocs/op are the SDK's.
func fakeNvim(r *os.File, w *os.File) {
	defer w.Close()
	br := bufio.NewReaderSize(r, 1<<20)
	dec := msgpack.NewDecoder(br)
	out := bufio.NewWriter(w)
	var method, reply []byte
	for {
		if br.Buffered() == 0 && out.Flush() != nil {
			return
		}
		n, err := dec.DecodeArrayLen()
		if err != nil {
			return
		}
		if kind, err := dec.DecodeInt(); err != nil || kind != 0 || n != 4 {
			// A notification or a response: skip the rest.
			for i := 1; i < n; i++ {
				if dec.Skip() != nil {
					return
				}
			}
			continue
		}
		id, err2 := dec.DecodeUint32()
		size, err3 := dec.DecodeBytesLen()
		if err2 != nil || err3 != nil {
			return
		}
		method = append(method[:0], make([]byte, size)...)
		if dec.ReadFull(method) != nil {
			return
		}
		calls := -1
		if string(method) == "nvim_call_atomic" {
			// [[call, ...]]: the number of calls.
			if _, err := dec.DecodeArrayLen(); err != nil {
				return
			}
			if calls, err = dec.DecodeArrayLen(); err != nil {
				return
			}
			for i := 0; i < calls; i++ {
				if dec.Skip() != nil {
					return
				}
			}
		} else if dec.Skip() != nil {
			return
		}
		reply = append(reply[:0], 0x94, 0x01, 0xce, byte(id>>24), byte(id>>16), byte(id>>8), byte(id), 0xc0)
		switch {
		case calls >= 0:
			reply = append(reply, 0x92, 0xdd, byte(calls>>24), byte(calls>>16), byte(calls>>8), byte(calls))
			for i := 0; i < calls; i++ {
				reply = append(reply, 0)
			}
			reply = append(reply, 0xc0)
		case string(method) == "nvim_call_function":
			reply = append(reply, 0)
		default:
			reply = append(reply, 0xc0)
		}
		if _, err := out.Write(reply); err != nil {
			return
		}
	}
}

// reportCPU starts counting the CPU time of the process (user and
// system, every goroutine's, the garbage collector's included), and
// returns a func that reports it per op as cpu-ns/op. On a shared machine
// it varies less than the time per op, which counts the time that other
// processes take from this one.
func reportCPU(b *testing.B) func() {
	start := cpuTime()
	return func() {
		b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
	}
}
