package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vigorvim/vigor/internal/editortest"
)

// doc/vigor.txt is valid help: :helptags succeeds on it, in both editors,
// and writes what doc/tags holds (the project ships doc/tags, so that
// :help works for users of native packages, who do not run :helptags; run
// `make doc/tags` after adding a tag).
func TestHelptags(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(editortest.Root(), "doc", "vigor.txt"))
	if err != nil {
		t.Fatal(err)
	}
	shipped, err := os.ReadFile(filepath.Join(editortest.Root(), "doc", "tags"))
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
			if string(tags) != string(shipped) {
				t.Fatalf("%s: doc/tags is not what :helptags writes; run `make doc/tags`", kind)
			}
		})
	}
}

// :help finds Vigor's tags with nothing but Vigor on 'runtimepath' (no
// :helptags run by the user).
func TestHelpWithoutHelptags(t *testing.T) {
	each(t, editortest.Options{}, func(t *testing.T, ed *editortest.Editor) {
		ed.MustExec(t, "help vigor-discovery")
		mustEqual(t, ed, "the help file", ed.MustEval(t, "expand('%:t')"), "vigor.txt")
		ed.MustExec(t, "helpclose")
	})
}

// The health report warns, with advice, when Vigor's help tags are
// missing (here: a Vigor root without doc/tags).
func TestHealthWarnsWithoutHelpTags(t *testing.T) {
	dir := t.TempDir()
	each(t, editortest.Options{}, func(t *testing.T, ed *editortest.Editor) {
		ed.WaitFor(t, "vigor#plugin#discovered()", 30*time.Second)
		var report [][]any
		if err := ed.EvalInto(`vigor#health#report()`, &report); err != nil {
			t.Fatal(err)
		}
		for _, r := range report {
			if strings.Contains(fmt.Sprint(r[1]), "help tags") {
				t.Fatalf("%s: a warning about help tags with doc/tags there: %v", ed.Kind, r)
			}
		}
		// The runtime's root, as the report sees it, moved to a copy
		// without doc/tags.
		ed.MustExec(t, "function! vigor#_internal#bootstrap#root() abort\nreturn '"+dir+"'\nendfunction")
		report = nil
		if err := ed.EvalInto(`vigor#health#report()`, &report); err != nil {
			t.Fatal(err)
		}
		want := fmt.Sprintf("[warn no help tags in %s/doc, so :help vigor fails [run :helptags %s/doc]]", dir, dir)
		for _, r := range report {
			if fmt.Sprint(r) == want {
				return
			}
		}
		t.Fatalf("%s: no warning %s in the report: %v", ed.Kind, want, report)
	})
}
