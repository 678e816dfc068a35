// Command hbping answers at once (e2e/stderr_test.go: is the editor
// responsive while another plugin floods its stderr?).
package main

import (
	"context"

	"github.com/vigorvim/vigor"
)

func main() {
	vigor.Main(func(ctx context.Context, p *vigor.Plugin) error {
		p.Handle("ping", func(s string) string { return s })
		return nil
	})
}
