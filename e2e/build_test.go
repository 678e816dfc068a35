package e2e

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigorvim/vigor/internal/editortest"
)

// A plugin builds with its go.mod as it is and with the installed Go, even
// offline and where the go command would fetch another Go: a toolchain line
// does not make the build download one, and an import that no requirement
// provides fails with what to run instead of being looked up.
func TestBuildUsesModuleAsIs(t *testing.T) {
	opts := editortest.Options{
		RTP: rtp("h5"),
		Env: []string{"GOPROXY=off", "GOTOOLCHAIN=auto"},
	}
	each(t, opts, func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "h5toolchain")
		mustEqual(t, ed, "ping", ed.MustEval(t, `vigor#request('h5toolchain', 'ping', [])`), "pong")

		waitState(t, ed, "h5tidy", "failed")
		dir := filepath.Join(rtp("h5")[0], "vigor", "h5tidy")
		want := "[vigor] h5tidy: build failed: " + filepath.Join(dir, "main.go") + ":8:2: no requirement in " +
			filepath.Join(dir, "go.mod") + " provides package example.com/h5absent/lib: run `go mod tidy` in " + dir
		if msgs := ed.Messages(t); !strings.Contains(msgs, want) {
			t.Errorf("%s: messages lack %q:\n%s", ed.Kind, want, msgs)
		}
		mustThrow(t, ed, `vigor#request('h5tidy', 'ping', [])`,
			"[vigor] h5tidy.ping: the plugin failed to load: build failed: ", "run `go mod tidy` in "+dir)
	})
}
