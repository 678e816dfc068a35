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

func BenchmarkCallSDK(b *testing.B) { benchCalls(b, sdkPlugin()) }

func BenchmarkBatchSDK(b *testing.B) { benchBatches(b, sdkPlugin()) }
