// Command latefail fails its setup after 3 s, so that the startup's
// summary comes while the user is typing. With $LATEFAIL_MARK set, it
// creates that file as it fails, for a test to know when.
package main

import (
	"context"
	"errors"
	"os"
	"time"

	"github.com/vigorvim/vigor"
)

func main() {
	vigor.Main(func(ctx context.Context, p *vigor.Plugin) error {
		time.Sleep(3 * time.Second)
		if mark := os.Getenv("LATEFAIL_MARK"); mark != "" {
			if err := os.WriteFile(mark, nil, 0o600); err != nil {
				return err
			}
		}
		return errors.New("late failure")
	})
}
