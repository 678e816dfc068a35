// Command vtest2 is a second plugin, the target of Dispatch.
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
