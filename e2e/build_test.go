package e2e

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

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

// The first start needs no network: with an empty module cache and
// GOPROXY=off, the vigor command and a plugin that needs nothing beyond
// the SDK build from the checkout's third_party/goproxy.
func TestFirstStartOffline(t *testing.T) {
	modcache := t.TempDir()
	opts := editortest.Options{RTP: []string{hello()}, Cache: t.TempDir(),
		Env: []string{"GOMODCACHE=" + modcache, "GOPROXY=off", "GOFLAGS=-modcacherw"}}
	each(t, opts, func(t *testing.T, ed *editortest.Editor) {
		ed.WaitFor(t, "index(['loaded', 'failed'], vigor#plugin#status('hello')) >= 0", 180*time.Second)
		if st := ed.MustEval(t, "vigor#plugin#status('hello')"); st != "loaded" {
			t.Fatalf("%s: hello is %v offline: %v; %v", ed.Kind, st, ed.MustEval(t, "get(vigor#_internal#plugin#get('hello'), 'error', '')"), ed.Messages(t))
		}
		mustEqual(t, ed, "greet", ed.MustEval(t, `vigor#request('hello', 'greet', ['offline'])`), "Hello, offline!")
	})
}
