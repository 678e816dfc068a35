//go:build !(darwin || dragonfly || freebsd || linux || netbsd || openbsd)

package build

import "context"

// lock takes the lock file at path, waiting while another builder holds
// it. Without flock(2), it is lockExcl.
func lock(ctx context.Context, path string) (func(), error) {
	return lockExcl(ctx, path)
}
