package vigor

import (
	"context"
	"io"
	"testing"

	"github.com/vigorvim/vigor/internal/codec/vimjson"
	"github.com/vigorvim/vigor/internal/host"
	"github.com/vigorvim/vigor/internal/wire"
)

// BenchmarkRun is the dispatch of one call to its handler (Plugin.run),
// without the channel: what the SDK adds to each request and
// notification around the handler itself.
//
// go test -run '^$' -bench 'Run$' -benchmem .
func BenchmarkRun(b *testing.B) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	go func() { _, _ = io.Copy(io.Discard, outR) }()
	env := map[string]string{"VIGOR_PLUGIN": "bench", "VIGOR_HOST": "vim", "VIGOR_INSTANCE": "1"}
	plugin := make(chan *Plugin, 1)
	done := make(chan int)
	go func() {
		done <- serve(context.Background(), func(k string) string { return env[k] }, inR, outW, discard{},
			func(ctx context.Context, p *Plugin) error {
				p.Handle("greet", func(ctx context.Context, name string) (string, error) { return "Hello, " + name + "!", nil })
				plugin <- p
				return nil
			})
	}()
	p := <-plugin
	params := host.NewValues(vimjson.New(nil), []wire.Raw{wire.Raw(`"CI"`)})
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if _, err := benchRun(p, ctx, params); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	inW.Close()
	<-done
	outW.Close()
}

func benchRun(p *Plugin, ctx context.Context, params host.Values) (any, error) {
	return p.run(ctx, "greet", params, host.Async{})
}
