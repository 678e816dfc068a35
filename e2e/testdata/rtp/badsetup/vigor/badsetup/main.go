// Command badsetup fails in setup, on purpose.
package main

import (
	"context"
	"errors"

	"github.com/vigorvim/vigor"
)

func main() {
	vigor.Main(func(ctx context.Context, p *vigor.Plugin) error {
		return errors.New("cannot find the config file")
	})
}
