// Command hello is the example Vigor plugin: vigor#request('hello', 'greet',
// ['CI']) returns 'Hello, CI!'.
package main

import (
	"context"

	"github.com/vigorvim/vigor"
)

func main() {
	vigor.Main(func(ctx context.Context, p *vigor.Plugin) error {
		p.Handle("greet", func(ctx context.Context, name string) (string, error) {
			return "Hello, " + name + "!", nil
		})
		return nil
	})
}
