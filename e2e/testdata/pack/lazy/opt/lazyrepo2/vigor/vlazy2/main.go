// Command vlazy2 is a plugin in an optional package with a plugin/ file, which
// :packadd puts on 'runtimepath' after startup.
package main

import (
	"context"
	"strings"

	"github.com/vigorvim/vigor"
)

func main() {
	vigor.Main(func(ctx context.Context, p *vigor.Plugin) error {
		p.Handle("upper", func(s string) string { return strings.ToUpper(s) })
		return nil
	})
}
