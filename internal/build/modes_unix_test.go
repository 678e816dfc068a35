//go:build unix

package build

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// What the build creates in the cache is the user's alone: directories
// 0700, the lock and the stamp 0600, whatever the umask.
func TestBuildFileModes(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go build")
	}
	old := syscall.Umask(0)
	defer syscall.Umask(old)
	opts := Options{Cache: t.TempDir(), SDK: sdkRoot(t)}
	pl := Plugin{Name: "tiny", Dir: pluginRepo(t, "tiny", tinyMain)}
	res, _ := buildOnce(t, opts, pl)
	if res.Err != nil {
		t.Fatalf("build: %v\n%s", res.Err, strings.Join(res.Output, "\n"))
	}
	want := map[string]os.FileMode{
		filepath.Join(opts.Cache, "plugins"):         0o700,
		filepath.Join(opts.Cache, "plugins", "tiny"): 0o700,
		filepath.Dir(res.Bin):                        0o700,
		res.Bin + ".go":                              0o600,
	}
	for p, mode := range want {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != mode {
			t.Errorf("%s is %v, want %v", p, st.Mode().Perm(), mode)
		}
	}

	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	path := filepath.Join(t.TempDir(), "plugins", "p", "key.lock")
	unlock, err := lock(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	for p, mode := range map[string]os.FileMode{path: 0o600, filepath.Dir(path): 0o700} {
		if st, err := os.Stat(p); err != nil || st.Mode().Perm() != mode {
			t.Errorf("%s: %v, %v; want mode %v", p, st.Mode().Perm(), err, mode)
		}
	}
}
