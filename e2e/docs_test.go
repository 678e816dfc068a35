package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/vigorvim/vigor/internal/editortest"
)

// doc/vigor.txt is valid help: :helptags succeeds on it, in both editors.
func TestHelptags(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(editortest.Root(), "doc", "vigor.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range editortest.Kinds {
		t.Run(kind, func(t *testing.T) {
			bin, err := editortest.Binary(kind)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "vigor.txt"), src, 0o644); err != nil {
				t.Fatal(err)
			}
			// cquit makes an error in :helptags (a duplicate tag, say) exit 1.
			cmd := exec.Command(bin, "-u", "NONE", "-i", "NONE", "-N", "-es",
				"-c", "try | helptags "+dir+" | catch | cquit | endtry", "-c", "qa!")
			if kind == "nvim" {
				cmd = exec.Command(bin, "--headless", "-u", "NONE", "-i", "NONE", "-n",
					"-c", "try | helptags "+dir+" | catch | cquit | endtry", "-c", "qa!")
			}
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("%s: helptags failed: %v\n%s", kind, err, out)
			}
			tags, err := os.ReadFile(filepath.Join(dir, "tags"))
			if err != nil || len(tags) == 0 {
				t.Fatalf("%s: no tags written: %v", kind, err)
			}
		})
	}
}
