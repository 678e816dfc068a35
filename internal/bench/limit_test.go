package bench

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestLimitClients builds the limit clients and runs each, briefly, in
// the real editors, on all CPUs and on one: every sample is there and
// positive (a client that gets an unexpected reply fails its run).
func TestLimitClients(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	_, file, _, _ := runtime.Caller(0)
	o := Options{Root: filepath.Join(filepath.Dir(file), "..", ".."), Size: 64, Count: 3, N: 2, Timeout: time.Minute}
	bins := map[string]string{"vim": editor(t, "VIGOR_TEST_VIM", "vim"), "nvim": editor(t, "VIGOR_TEST_NVIM", "nvim")}
	clients, err := BuildLimitClients(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, cpus := range []int{0, 1} {
		o := o
		if cpus > 0 {
			if o.cpuList, err = lastCPUs(cpus); err != nil {
				t.Fatal(err)
			}
		}
		runLimits(ctx, t, o, bins, clients, cpus)
	}
}

// The clients make calls and batches of large payloads (size 65536, which
// vigor-bench --size 65536 --count 100 measures): a batch of 12 is longer
// than Vim's chunk threshold, so the Vim clients send it in chunks.
func TestLimitClientsLarge(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	_, file, _, _ := runtime.Caller(0)
	o := Options{Root: filepath.Join(filepath.Dir(file), "..", ".."), Size: 65536, Count: 12, N: 1, Timeout: time.Minute}
	bins := map[string]string{"vim": editor(t, "VIGOR_TEST_VIM", "vim"), "nvim": editor(t, "VIGOR_TEST_NVIM", "nvim")}
	clients, err := BuildLimitClients(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	runLimits(ctx, t, o, bins, clients, 0)
}

// runLimits runs every limit client of both editors with o and checks
// that every sample is there and positive.
func runLimits(ctx context.Context, t *testing.T, o Options, bins map[string]string, clients LimitClients, cpus int) {
	t.Helper()
	for _, ed := range []string{"vim", "nvim"} {
		for _, l := range Limits(ed) {
			p, err := l.run(ctx, bins[ed], clients[ed], o)
			if err != nil {
				t.Errorf("%s %s (cpus %d): %v", ed, l.Name, cpus, err)
				continue
			}
			for _, r := range []struct {
				name    string
				samples []float64
			}{{"call", p.Call.Samples}, {"batch", p.Batch.Samples}} {
				if len(r.samples) != o.N {
					t.Errorf("%s %s %s (cpus %d): %d samples, want %d", ed, l.Name, r.name, cpus, len(r.samples), o.N)
				}
				for _, s := range r.samples {
					if s <= 0 {
						t.Errorf("%s %s %s (cpus %d): sample %v", ed, l.Name, r.name, cpus, s)
					}
				}
			}
		}
	}
}

// editor returns the editor's path from $env, or finds name on $PATH; a
// missing editor fails the test, as in e2e.
func editor(t *testing.T, env, name string) string {
	t.Helper()
	if v := os.Getenv(env); v != "" {
		name = v
	}
	p, err := exec.LookPath(name)
	if err != nil {
		t.Fatalf("%s not found (%v): scripts/setup-editors.sh installs it", name, err)
	}
	return p
}

// TestBuildLimitClientsCached: a second build with the same sources and
// compiler finds the first one's binaries; another compiler command builds
// anew, and a missing compiler says what to do.
func TestBuildLimitClientsCached(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	first, err := BuildLimitClients(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(first["vim"])
	if err != nil {
		t.Fatal(err)
	}
	again, err := BuildLimitClients(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	info2, err := os.Stat(again["vim"])
	if err != nil || again["vim"] != first["vim"] || !info2.ModTime().Equal(info.ModTime()) {
		t.Fatalf("second build: %v %v (%v), want the first's %v", again, info2, err, first)
	}
	t.Setenv("CC", "cc -DVIGOR_BENCH_TEST")
	other, err := BuildLimitClients(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if other["vim"] == first["vim"] {
		t.Fatalf("another compiler command reused %s", first["vim"])
	}
	t.Setenv("CC", "vigor-no-such-cc")
	if _, err := BuildLimitClients(ctx, dir); err == nil || !strings.Contains(err.Error(), "no C compiler for the limit clients (vigor-no-such-cc, or $CC)") {
		t.Fatalf("missing compiler: %v", err)
	}
}
