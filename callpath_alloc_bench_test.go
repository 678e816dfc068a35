package vigor

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"runtime"
	"strings"
	"testing"
)

// Allocations on the plugin's call path, on Vim: BenchmarkCallVim and
// BenchmarkBatchVim are BenchmarkCallNvim and BenchmarkBatchNvim with a
// fake Vim (fakeVim) at the other end of the pipes. Read allocs/op: a
// call's allocations (encode the request, read and decode a scalar
// reply), and a batch's, over 1000 for a recorded call's. The fake runs
// in this process, so -memprofile counts its allocations too; it makes
// none per message of its own but bufio's.
//
// go test -run '^$' -bench 'CallVim|BatchVim|CallNvim|BatchNvim' -benchmem .
// go test -run '^$' -bench 'CallVim/raw' -benchmem -memprofile /tmp/mem.out -memprofilerate 1 . &&
//	go tool pprof -sample_index=alloc_objects -top /tmp/mem.out

// BenchmarkCallVim is one call of an editor function to a fake Vim over
// real pipes that answers at once: raw is Plugin.Call, typed CallAs[int]
// through the Caller interface.
func BenchmarkCallVim(b *testing.B) {
	p, stop := benchVimPlugin(b)
	defer stop()
	benchCalls(b, p)
}

// BenchmarkBatchVim is a 1000-call batch to a fake Vim over real pipes
// that answers at once, as BenchmarkBatchNvim is to Neovim.
func BenchmarkBatchVim(b *testing.B) {
	p, stop := benchVimPlugin(b)
	defer stop()
	benchBatches(b, p)
}

// benchVimPlugin serves a plugin to fakeVim over real pipes, as the
// runtime runs it in Vim, and returns it and a func that ends the session.
func benchVimPlugin(b *testing.B) (*Plugin, func()) { return pipePlugin("vim", fakeVim) }

// fakeVim answers the plugin's requests on r as the runtime's channel
// callback does: a request [0,[-ID,fn,args]] gets [-ID,[0,null]], a call
// of the runtime's batch helper [-ID,[[[0,...],null],null]] with a zero
// for each of its calls (counted as the `],[` between them, plus one:
// the benchmarks' arguments hold no brackets). Other messages (the
// plugin's notifications) get nothing. It ends, closing w, when r does.
func fakeVim(r *os.File, w *os.File) {
	defer w.Close()
	in := bufio.NewReaderSize(r, 1<<20)
	out := bufio.NewWriter(w)
	var reply []byte
	for {
		// Flush before a read that may block: the replies to what has been
		// read must not wait in out for more requests.
		if in.Buffered() == 0 {
			if err := out.Flush(); err != nil {
				return
			}
		}
		line, err := in.ReadSlice('\n')
		if err != nil {
			return
		}
		rest, ok := bytes.CutPrefix(line, []byte("[0,[-"))
		if !ok {
			continue
		}
		end := bytes.IndexByte(rest, ',')
		if end < 0 {
			continue
		}
		id := rest[:end]
		reply = append(append(append(reply[:0], "[-"...), id...), ',')
		if bytes.HasPrefix(rest[end:], []byte(`,"`+batchHelper+`"`)) {
			n := bytes.Count(rest, []byte("],[")) + 1
			reply = append(reply, "[[["...)
			for i := range n {
				if i > 0 {
					reply = append(reply, ',')
				}
				reply = append(reply, '0')
			}
			reply = append(reply, "],null],null]]\n"...)
		} else {
			reply = append(reply, "[0,null]]\n"...)
		}
		if _, err := out.Write(reply); err != nil {
			return
		}
	}
}

// batchHelper is the runtime's batch function in Vim
// (autoload/vigor/_internal/api/vim.vim).
const batchHelper = "vigor#_internal#api#vim#batch"

// BenchmarkCallLarge is one call with a 65536-character String, as
// `vigor-bench --size 65536 --count 100` makes it, to the fake Vim and the
// fake Neovim: B/op counts the bytes allocated per call (the copies that
// allocate); a CPU profile shows the copies into reused buffers.
//
// It runs with one P, as plugins do: with two, the plugin's blocking
// write of a message longer than the pipe waits for the fake in this
// process, parked on the runtime poller, until sysmon polls the network,
// which no editor in another process makes it do.
//
// go test -run '^$' -bench 'CallLarge' -benchmem .
func BenchmarkCallLarge(b *testing.B) {
	var data any = strings.Repeat(".", 65536)
	eachFake(b, func(b *testing.B, p *Plugin) {
		// Here: the testing package sets GOMAXPROCS for each benchmark
		// it runs (-cpu).
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
		ctx := context.Background()
		b.SetBytes(65536)
		for range b.N {
			if _, err := p.Call(ctx, "vigor_benchmark#discard", data); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// eachFake runs body, with allocations reported, against a plugin of a
// fake Vim and one of a fake Neovim, each over real pipes.
func eachFake(b *testing.B, body func(b *testing.B, p *Plugin)) {
	for _, c := range []struct {
		name  string
		start func(*testing.B) (*Plugin, func())
	}{{"vim", benchVimPlugin}, {"nvim", benchPlugin}} {
		b.Run(c.name, func(b *testing.B) {
			p, stop := c.start(b)
			defer stop()
			b.ReportAllocs()
			body(b, p)
		})
	}
}

// BenchmarkCallParallel is BenchmarkCallVim/raw and BenchmarkCallNvim/raw
// made from 8 goroutines at once, as vigor-bench's parallel workload
// makes them: ns/op against the sequential benchmark's is how much the
// calls overlap (the fake answers at once, so less than with an editor).
//
// go test -run '^$' -bench 'CallParallel|CallVim/raw|CallNvim/raw' -benchmem .
func BenchmarkCallParallel(b *testing.B) {
	eachFake(b, func(b *testing.B, p *Plugin) {
		ctx := context.Background()
		// SetParallelism counts goroutines per processor: 8 in all.
		b.SetParallelism(max(1, 8/runtime.GOMAXPROCS(0)))
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if _, err := p.Call(ctx, "vigor_benchmark#discard", benchData); err != nil {
					b.Error(err)
					return
				}
			}
		})
	})
}
