package e2e

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/vigorvim/vigor/internal/editortest"
)

// A lazy plugin in a repository put on 'runtimepath' after startup, with
// no plugin/ file (so nothing discovers it before the request), starts on
// its first request and answers it.
func TestRequestStartsAddedLazyPlugin(t *testing.T) {
	each(t, editortest.Options{RTP: []string{hello()}}, func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "hello")
		mustEqual(t, ed, "lazyp before", ed.MustEval(t, "vigor#plugin#status('lazyp')"), "")
		ed.MustExec(t, "set runtimepath+="+rtp("lazy")[0])
		mustEqual(t, ed, "the request", ed.MustEval(t, `string(vigor#request('lazyp', 'log', []))`), "[]")
		mustEqual(t, ed, "lazyp after", ed.MustEval(t, "vigor#plugin#status('lazyp')"), "loaded")
	})
}

// Discovery run again from inside discovery (a VigorPluginFail handler
// that calls vigor#plugin#discover() while startup's discovery registers
// the plugins) leaves the outer one running: the startup summary waits
// for it to end.
func TestDiscoverFromFailHandler(t *testing.T) {
	repo := t.TempDir()
	dir := filepath.Join(repo, "vigor", "a0bad")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "lazy.json"), []byte(`{"commands": ["X"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	opts := editortest.Options{RTP: []string{repo, hello()}, Cmds: []string{
		"autocmd User VigorPluginFail:a0bad ++once call vigor#plugin#discover() | let g:still = vigor#_internal#discover#running()",
	}}
	each(t, opts, func(t *testing.T, ed *editortest.Editor) {
		ed.WaitFor(t, "exists('g:still')", 30*time.Second)
		mustEqual(t, ed, "discovery running after the nested one", ed.MustEval(t, "g:still"), int64(1))
		waitLoaded(t, ed, "hello")
	})
}
