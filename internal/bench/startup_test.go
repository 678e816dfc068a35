package bench

import (
	"os"
	"path/filepath"
	"testing"
)

// readStartupTime takes STARTED and the vimrc's start from the process that
// loads plugins: Vim's only one, Neovim's "Embedded" one.
func TestReadStartupTime(t *testing.T) {
	dir := t.TempDir()
	rc := "/x/rc.vim"
	for _, c := range []struct {
		kind, text     string
		started, start float64
	}{
		{"vim", "\n\ntimes in msec\n clock   self+sourced   self:  sourced script\n000.008  000.008: --- VIM STARTING ---\n" +
			"004.000  001.500  000.500: sourcing /x/rc.vim\n009.250  000.001: --- VIM STARTED ---\n", 9.25, 2.5},
		{"nvim", "--- Startup times for process: Primary (or UI client) ---\n001.000  000.100  000.100: sourcing /x/rc.vim\n002.000  000.001: --- NVIM STARTED ---\n\n" +
			"--- Startup times for process: Embedded ---\n003.000  000.500  000.200: sourcing /x/rc.vim\n006.000  000.001: --- NVIM STARTED ---\n", 6, 2.5},
	} {
		path := filepath.Join(dir, c.kind)
		if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		started, start, err := readStartupTime(path, c.kind, rc)
		if err != nil || started != c.started || start != c.start {
			t.Errorf("%s: got %v, %v, %v; want %v, %v", c.kind, started, start, err, c.started, c.start)
		}
	}
	path := filepath.Join(dir, "partial")
	if err := os.WriteFile(path, []byte("004.000  001.500  000.500: sourcing /x/rc.vim\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := readStartupTime(path, "vim", rc); err == nil {
		t.Error("a file without STARTED was read as complete")
	}
}
