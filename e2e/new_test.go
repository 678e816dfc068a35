package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigorvim/vigor/internal/editortest"
)

// vigor new creates a plugin repository whose own tests (vigortest, in
// both editors) pass at once, and after it go vet and go test work
// offline, from an empty module cache: vigor dev's go.work points them
// at the checkout.
func TestNewPlugin(t *testing.T) {
	root := editortest.Root()
	bin := filepath.Join(t.TempDir(), "vigor")
	if out, err := exec.Command("go", "build", "-o", bin, filepath.Join(root, "cmd", "vigor")).CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/vigor: %v\n%s", err, out)
	}
	repo := filepath.Join(t.TempDir(), "greeter")
	offline := append(os.Environ(), "GOMODCACHE="+t.TempDir(), "GOPROXY=off", "GOFLAGS=-modcacherw")
	run := func(dir string, name string, args ...string) string {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir = dir
		cmd.Env = offline
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	out := run(root, bin, "new", "greeter", repo)
	if !strings.Contains(out, "created the plugin greeter in "+repo) {
		t.Fatalf("vigor new printed:\n%s", out)
	}
	for _, f := range []string{"go.mod", "go.work", ".gitignore", "README.md", "vigor/greeter/main.go", "vigor/greeter/main_test.go"} {
		if _, err := os.Stat(filepath.Join(repo, f)); err != nil {
			t.Errorf("vigor new wrote no %s: %v", f, err)
		}
	}
	run(repo, "go", "vet", "./...")
	out = run(repo, "go", "test", "-count=1", "-v", "./...")
	for _, want := range []string{"--- PASS: TestGreet/vim", "--- PASS: TestGreet/nvim"} {
		if !strings.Contains(out, want) {
			t.Fatalf("go test in the new repository:\n%s", out)
		}
	}
	// A second vigor new into it refuses.
	cmd := exec.Command(bin, "new", "greeter", repo)
	if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "exists and is not empty") {
		t.Fatalf("vigor new into a full directory: %v\n%s", err, out)
	}
}
