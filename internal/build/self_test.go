package build

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// SourcesFresh takes a list as the runtime writes it ("path:mtime:size"),
// and any change of the files it names, or a source added, makes it stale.
func TestSourcesFresh(t *testing.T) {
	root := t.TempDir()
	write := func(rel, data string) {
		t.Helper()
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"a.go", "go.mod", "internal/x/x.go", "internal/x/testdata/t.go", "cmd/vigor/main.go",
		".hidden.go", "internal/.h/h.go", "cmd/other/o.go", "std/s.go", "a_test.txt"} {
		write(f, "package x\n")
	}
	list := filepath.Join(t.TempDir(), "sources")
	stamp := func() {
		t.Helper()
		files, err := VigorSources(root)
		if err != nil {
			t.Fatal(err)
		}
		var lines []string
		for _, f := range files {
			lines = append(lines, f+":"+statStamp(f))
		}
		if err := os.WriteFile(list, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	stamp()
	files, _ := VigorSources(root)
	want := []string{"/a.go", "/internal/x/testdata/t.go", "/internal/x/x.go", "/cmd/vigor/main.go", "/go.mod", "/go.sum"}
	if len(files) != len(want) {
		t.Fatalf("VigorSources = %v, want the files %v", files, want)
	}
	for i, f := range files {
		if f != root+want[i] {
			t.Fatalf("VigorSources = %v, want the files %v", files, want)
		}
	}
	if !SourcesFresh(root, list) {
		t.Fatal("the list just written is not fresh")
	}
	write("internal/x/x.go", "package x // changed\n")
	if SourcesFresh(root, list) {
		t.Fatal("a changed source is fresh")
	}
	stamp()
	write("internal/x/y.go", "package x\n")
	if SourcesFresh(root, list) {
		t.Fatal("a new source is fresh")
	}
	stamp()
	write("std/s.go", "package x // not a source of the command\n")
	if !SourcesFresh(root, list) {
		t.Fatal("a file that is not a source of the command made it stale")
	}
	if SourcesFresh(root, filepath.Join(root, "none")) {
		t.Fatal("a missing list is fresh")
	}
}
