package vigor

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"testing"

	"github.com/vmihailenco/msgpack/v5"

	"github.com/vigorvim/vigor/internal/codec/msgpackrpc"
	"github.com/vigorvim/vigor/internal/host"
	"github.com/vigorvim/vigor/internal/wire"
)

// The SDK's own share of a call and of a batch, without a session or
// pipes: what the typed and the recorded forms add is measured here apart
// from the round trip, whose time varies far more between runs.
//
// go test -run '^$' -bench 'CallSDK|BatchAdapter' -benchmem .

// zeroAdapter is the real Neovim editor over answerCaller, except that it
// answers a single call at once with the Number 0, without encoding it.
type zeroAdapter struct{ editor }

var (
	msgpackZero = wire.Raw{0x00}
	valueZero   = host.NewValue(msgpackrpc.New(nil), msgpackZero)
)

func (a zeroAdapter) Call(ctx context.Context, fn string, args []any) (host.Value, error) {
	return valueZero, nil
}

func (a zeroAdapter) Notify(ctx context.Context, fn string, args []any) error { return nil }

// BenchmarkCallSDK is one call through zeroAdapter: raw is Plugin.Call,
// typed CallAs[int] through the Caller interface.
func BenchmarkCallSDK(b *testing.B) {
	p := adapterPlugin()
	p.ed = zeroAdapter{p.ed}
	benchCalls(b, p)
}

// answerCaller is a host.Caller that encodes each request's parameters,
// as a session does, and answers nvim_call_atomic with a result per call
// (Number 0), anything else with the Number 0: with it, the real Neovim
// adapter runs without a session or pipes.
type answerCaller struct {
	buf     []byte
	replies map[int]wire.Raw
}

func (c *answerCaller) Call(ctx context.Context, method string, params []any) (wire.Raw, error) {
	if method != "nvim_call_atomic" {
		return msgpackZero, nil
	}
	var err error
	if c.buf, err = params[0].(wire.Appender)(c.buf[:0]); err != nil {
		return nil, err
	}
	p := c.buf
	n := int(p[1])<<8 | int(p[2]) // an array16 header: the number of calls
	if c.replies == nil {
		c.replies = map[int]wire.Raw{}
	}
	r, ok := c.replies[n]
	if !ok {
		b, err := msgpack.Marshal([]any{make([]int, n), nil})
		if err != nil {
			return nil, err
		}
		r = b
		c.replies[n] = r
	}
	return r, nil
}

func (c *answerCaller) Notify(ctx context.Context, method string, params []any) error { return nil }

// adapterPlugin is a plugin whose adapter is the real Neovim one, over
// answerCaller.
func adapterPlugin() *Plugin {
	codec, _ := host.NewCodec("nvim", "", "bench", "1", bytes.NewReader(nil))
	ed := host.NewEditor(host.New(&answerCaller{}, codec), codec)
	return &Plugin{
		ed:  &ed,
		log: slog.New(slog.NewTextHandler(io.Discard, nil)),
	}
}

// BenchmarkBatchAdapter is a 1000-call batch through the real Neovim
// adapter, which encodes the request and splits the reply, without a
// session or pipes: the SDK's and the adapter's work.
//
// go test -run '^$' -bench 'BatchAdapter' -benchmem .
func BenchmarkBatchAdapter(b *testing.B) { benchBatches(b, adapterPlugin()) }
