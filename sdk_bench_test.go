package vigor

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"testing"

	"github.com/vigorvim/vigor/internal/codec/msgpackrpc"
	"github.com/vigorvim/vigor/internal/host"
	"github.com/vigorvim/vigor/internal/wire"
)

// The SDK's own share of a call and of a batch, against an adapter that
// answers at once in the same goroutine, without encoding or pipes: what
// the typed and the recorded forms add to a call is measured here apart
// from the round trip, whose time varies far more between runs.
//
// go test -run '^$' -bench 'SDK' -benchmem .

// zeroAdapter answers every call, and every call of a batch, with the
// Number 0 in msgpack.
type zeroAdapter struct{ zeros []wire.Raw }

var msgpackZero = wire.Raw{0x00}

func (a *zeroAdapter) Call(ctx context.Context, fn string, args []any) (wire.Raw, error) {
	return msgpackZero, nil
}

func (a *zeroAdapter) Notify(ctx context.Context, fn string, args []any) error { return nil }

func (a *zeroAdapter) Batch(ctx context.Context, calls []host.Call) ([]wire.Raw, error) {
	for len(a.zeros) < len(calls) {
		a.zeros = append(a.zeros, msgpackZero)
	}
	return a.zeros[:len(calls)], nil
}

func (a *zeroAdapter) EditorNotification(m *wire.Message) (bool, error) { return false, nil }

func sdkPlugin() *Plugin {
	return &Plugin{
		ed:    &zeroAdapter{},
		codec: msgpackrpc.New(bytes.NewReader(nil)),
		log:   slog.New(slog.NewTextHandler(io.Discard, nil)),
	}
}

func BenchmarkCallSDK(b *testing.B) {
	p := sdkPlugin()
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

func BenchmarkBatchSDK(b *testing.B) {
	p := sdkPlugin()
	ctx := context.Background()
	const data = "................................................................"
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
	b.Run("into-any", func(b *testing.B) {
		b.ReportAllocs()
		results := make([]any, 1000)
		for i := 0; i < b.N; i++ {
			err := p.Batch(ctx, func(bt *Batch) error {
				for j := range results {
					if err := bt.Into(&results[j]).CallInto(ctx, nil, "vigor_benchmark#discard", data); err != nil {
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
	b.Run("into-int", func(b *testing.B) {
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
