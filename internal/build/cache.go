package build

import (
	"errors"
	"os"
	"path/filepath"
)

// ErrNoCache is DefaultCache's error when the environment names no
// directory of the user's own for the cache.
var ErrNoCache = errors.New("no cache directory: neither $XDG_CACHE_HOME nor $HOME is set; pass -cache DIR, a directory only you can write to")

// DefaultCache is the cache directory of `vigor build` when none is given:
// $XDG_CACHE_HOME/vigor, else the user's cache directory (os.UserCacheDir)
// with vigor in it. Without either it returns ErrNoCache: it never falls
// back to a shared directory such as $TMPDIR, where another user could
// create the cache first and decide what the editor runs.
func DefaultCache() (string, error) {
	if d := os.Getenv("XDG_CACHE_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "vigor"), nil
	}
	d, err := os.UserCacheDir()
	if err != nil || !filepath.IsAbs(d) {
		return "", ErrNoCache
	}
	return filepath.Join(d, "vigor"), nil
}
