package vigor

import (
	"context"
	"os"
	"testing"
)

// BenchmarkCallNvim is one call of an editor function to a fake Neovim
// over real pipes that answers at once (fakeNvim): raw is Plugin.Call,
// whose result is an any; typed is CallAs[int] through the Caller
// interface, as the std wrappers make it.
//
// go test -run '^$' -bench CallNvim -benchmem .
func BenchmarkCallNvim(b *testing.B) {
	p, stop := benchPlugin(b)
	defer stop()
	ctx := context.Background()
	const data = "................................................................"
	b.Run("raw", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, err := p.Call(ctx, "vigor_benchmark#discard", data); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("typed", func(b *testing.B) {
		b.ReportAllocs()
		var c Caller = p
		for i := 0; i < b.N; i++ {
			if _, err := CallAs[int](ctx, c, "vigor_benchmark#discard", data); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// benchPlugin serves a plugin to fakeNvim over real pipes and returns it,
// and a func that ends the session.
func benchPlugin(b *testing.B) (*Plugin, func()) {
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
	return <-plugin, func() {
		inW.Close()
		<-done
		outW.Close()
	}
}
