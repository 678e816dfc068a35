package vigor

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"testing"
)

// BenchmarkServeRequest is one editor request to a plugin and its answer,
// over real pipes, with the plugin served in this process: the SDK's own
// cost per vigor#request(), without an editor. Compare it with
// BenchmarkPipeEcho, the same round trip to a goroutine that answers at
// once.
//
// go test -run '^$' -bench 'ServeRequest|PipeEcho' .
func BenchmarkServeRequest(b *testing.B) {
	benchServe(b, func(w *bufio.Writer, i int) { fmt.Fprintf(w, `[%d,["greet",["CI"]]]`+"\n", i) })
}

// BenchmarkServeAsync is one request_async call to a plugin and its
// answer (the resolve call), as BenchmarkServeRequest is for a request.
//
// go test -run '^$' -bench 'ServeAsync' .
func BenchmarkServeAsync(b *testing.B) {
	benchServe(b, func(w *bufio.Writer, i int) {
		fmt.Fprintf(w, `[0,["$async",["vigor:%d","vigor:f%d","greet",["CI"]]]]`+"\n", i, i)
	})
}

// benchServe serves a plugin with a greet handler over pipes, as Vim
// would run it, and times b.N rounds of writing message i (send) and
// reading one message back.
func benchServe(b *testing.B, send func(w *bufio.Writer, i int)) {
	inR, inW, _ := os.Pipe()
	outR, outW, _ := os.Pipe()
	env := map[string]string{"VIGOR_PLUGIN": "bench", "VIGOR_HOST": "vim", "VIGOR_INSTANCE": "1"}
	done := make(chan int)
	go func() {
		done <- serve(context.Background(), func(k string) string { return env[k] }, inR, outW, discard{},
			func(ctx context.Context, p *Plugin) error {
				p.Handle("greet", func(ctx context.Context, name string) (string, error) { return "Hello, " + name + "!", nil })
				return nil
			})
	}()
	dec := json.NewDecoder(bufio.NewReader(outR))
	var ready []json.RawMessage
	if err := dec.Decode(&ready); err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(inW)
	b.ResetTimer()
	for i := 1; i <= b.N; i++ {
		send(w, i)
		w.Flush()
		var msg []json.RawMessage
		if err := dec.Decode(&msg); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	inW.Close()
	<-done
	outW.Close()
}

func BenchmarkPipeEcho(b *testing.B) {
	inR, inW, _ := os.Pipe()
	outR, outW, _ := os.Pipe()
	go func() {
		dec := json.NewDecoder(bufio.NewReader(inR))
		for {
			var msg []json.RawMessage
			if dec.Decode(&msg) != nil {
				outW.Close()
				return
			}
			fmt.Fprintf(outW, "[%s,[\"Hello, CI!\",null]]\n", msg[0])
		}
	}()
	dec := json.NewDecoder(bufio.NewReader(outR))
	w := bufio.NewWriter(inW)
	for i := 1; i <= b.N; i++ {
		fmt.Fprintf(w, `[%d,["greet",["CI"]]]`+"\n", i)
		w.Flush()
		var msg []json.RawMessage
		if err := dec.Decode(&msg); err != nil {
			b.Fatal(err)
		}
	}
	inW.Close()
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
