package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vigorvim/vigor/internal/editortest"
)

// A cache that cannot be written is said once, in a [vigor] line that names
// it and what to do, and every call fails at once with that reason (issue
// 9, item 8). The cache is under a regular file, which no one, not even
// root, can make a directory in; a read-only directory is tried too where
// the tests do not run as root. Another cache and a reload fix it without
// a restart.
func TestUnwritableCache(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	caches := []string{filepath.Join(file, "cache")}
	if os.Geteuid() != 0 {
		ro := filepath.Join(dir, "readonly")
		if err := os.Mkdir(ro, 0o500); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = os.Chmod(ro, 0o700) })
		caches = append(caches, filepath.Join(ro, "cache"))
	}
	for _, cache := range caches {
		opts := editortest.Options{RTP: []string{hello()}, Cache: cache,
			Cmds: []string{"let g:vigor#request_timeout = 5000"}}
		each(t, opts, func(t *testing.T, ed *editortest.Editor) {
			start := time.Now()
			msg := mustThrow(t, ed, `vigor#request('hello', 'greet', ['x'])`,
				"[vigor] hello.greet: the plugin failed to load: cannot write the cache directory "+cache+" ",
				"g:vigor#cache_dir", ":help vigor-cache")
			if d := time.Since(start); d > 2*time.Second {
				t.Fatalf("%s: the call failed after %s, want at once: %s", ed.Kind, d, msg)
			}
			mustThrow(t, ed, `vigor#request('hello', 'greet', ['again'])`, "cannot write the cache directory "+cache)
			msgs := ed.Messages(t)
			if n := strings.Count(msgs, "cannot write the cache directory"); n != 1 || !strings.Contains(msgs, "[vigor] cannot write the cache directory "+cache+" ") {
				t.Fatalf("%s: want one [vigor] line about the cache, got %d in messages: %s", ed.Kind, n, msgs)
			}
			if strings.Contains(msgs, "E739") {
				t.Fatalf("%s: a raw E739 in messages: %s", ed.Kind, msgs)
			}
			// Fixed without a restart: another cache, and a reload.
			ed.MustExec(t, "let g:vigor#cache_dir = "+editortest.VimString(editortest.SharedCache(t)))
			ed.MustEval(t, `vigor#plugin#reload('hello')`)
			mustEqual(t, ed, "after the fix", ed.MustEval(t, `vigor#request('hello', 'greet', ['fixed'])`), "Hello, fixed!")
			if log := ed.MustEval(t, "vigor#_internal#plugin#get('hello').log").(string); !strings.HasPrefix(log, editortest.SharedCache(t)) {
				t.Fatalf("%s: the plugin logs to %s, not into the cache now set", ed.Kind, log)
			}
		})
	}
}
