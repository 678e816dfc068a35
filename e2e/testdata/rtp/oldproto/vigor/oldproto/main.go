// Command oldproto says it speaks protocol 0, as a plugin built against an
// old SDK would.
package main

import (
	"context"
	"os"

	"github.com/vigorvim/vigor/internal/host"
	"github.com/vigorvim/vigor/internal/protocol"
	"github.com/vigorvim/vigor/internal/rpc"
	"github.com/vigorvim/vigor/internal/wire"
)

type nop struct{}

func (nop) Request(context.Context, *wire.Message) any  { return nil }
func (nop) Notification(context.Context, *wire.Message) {}

func main() {
	h := os.Getenv(protocol.EnvHost)
	codec, err := host.NewCodec(h, os.Getenv(protocol.EnvVimCalls), os.Getenv(protocol.EnvPlugin), os.Getenv(protocol.EnvInstance), os.Stdin)
	if err != nil {
		os.Exit(2)
	}
	s := rpc.New(codec, os.Stdout, rpc.Options{Handler: nop{}})
	ed := host.New(s, codec)
	go func() {
		_ = ed.Notify(context.Background(), protocol.FuncReady, []any{
			os.Getenv(protocol.EnvPlugin), os.Getenv(protocol.EnvInstance), map[string]any{"protocol": 0}})
	}()
	_ = s.Run(context.Background())
}
