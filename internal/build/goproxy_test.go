package build

import (
	"encoding/json"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// The checkout's third_party/goproxy holds exactly the modules that the
// SDK needs, as go.sum has them: downloading them from it alone, into an
// empty module cache, succeeds (the go command checks each against
// go.sum), and it holds nothing else. Run scripts/update-goproxy.sh when
// this fails.
func TestGoproxyInSync(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	modcache := t.TempDir()
	cmd := exec.Command("go", "mod", "download", "-json")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOMODCACHE="+modcache, "GOFLAGS=-modcacherw", "GOWORK=off",
		"GOTOOLCHAIN=local", "GOPROXY="+ProxyURL(root)+",off")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go mod download from %s alone: %v\n%s\n%s; run scripts/update-goproxy.sh", ProxyDir, err, out, stderrOf(err))
	}
	var needed []string
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for {
		var m struct{ Path, Version string }
		if err := dec.Decode(&m); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		needed = append(needed, m.Path+"@"+m.Version)
	}
	var held []string
	dir := filepath.Join(root, ProxyDir)
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !strings.HasSuffix(path, ".zip") {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		mod, ver, _ := strings.Cut(filepath.ToSlash(rel), "/@v/")
		held = append(held, mod+"@"+strings.TrimSuffix(ver, ".zip"))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(needed)
	sort.Strings(held)
	if strings.Join(needed, " ") != strings.Join(held, " ") {
		t.Fatalf("%s holds %v, but the SDK needs %v; run scripts/update-goproxy.sh", ProxyDir, held, needed)
	}
}

func stderrOf(err error) string {
	if ee, ok := err.(*exec.ExitError); ok {
		return string(ee.Stderr)
	}
	return ""
}
