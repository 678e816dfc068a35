// Command latefail fails its setup after 3 s, so that the startup's
// summary comes while the user is typing.
package main

import (
	"context"
	"errors"
	"time"

	"github.com/vigorvim/vigor"
)

func main() {
	vigor.Main(func(ctx context.Context, p *vigor.Plugin) error {
		time.Sleep(3 * time.Second)
		return errors.New("late failure")
	})
}
