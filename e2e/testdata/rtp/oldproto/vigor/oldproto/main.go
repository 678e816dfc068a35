// Command oldproto says it speaks protocol 0, as a plugin built against an
// old SDK would.
package main

import (
	"context"
	"os"

	"github.com/vigorvim/vigor/internal/host"
	"github.com/vigorvim/vigor/internal/protocol"
)

type nop struct{}

func (nop) Request(context.Context, string, host.Values) any  { return nil }
func (nop) Notification(context.Context, string, host.Values) {}
func (nop) Async(context.Context, host.Async)                 {}
func (nop) Late(host.Async)                                   {}

func main() {
	h := os.Getenv(protocol.EnvHost)
	conn, err := host.Open(host.Config{
		Editor: h, VimCalls: os.Getenv(protocol.EnvVimCalls),
		Plugin: os.Getenv(protocol.EnvPlugin), Instance: os.Getenv(protocol.EnvInstance),
		In: os.Stdin, Out: os.Stdout, Handler: nop{},
	})
	if err != nil {
		os.Exit(2)
	}
	go func() {
		_ = conn.Notify(context.Background(), protocol.FuncReady, []any{
			os.Getenv(protocol.EnvPlugin), os.Getenv(protocol.EnvInstance), map[string]any{"protocol": 0}})
	}()
	_ = conn.Run(context.Background())
}
