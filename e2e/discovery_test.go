package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vigorvim/vigor/internal/editortest"
)

// Discovery expands nothing that it finds on disk: a plugin directory
// named with backticks runs no command (it is skipped for its name), and
// a repository whose path holds ', $, ;, [, ], {, }, * or ? is found.
func TestDiscoveryExpandsNothing(t *testing.T) {
	base := t.TempDir()
	marker := filepath.Join(base, "ran")
	evil := filepath.Join(base, "evil")
	bad := filepath.Join(evil, "vigor", "x`touch $VIGOR_TEST_MARKER`")
	odd := filepath.Join(base, "O'Brien $vigor_no_such_var;[a]{b}*?", "repo")
	for _, dir := range []string{bad, filepath.Join(odd, "vigor", "oddone")} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	opts := editortest.Options{RTP: []string{evil, odd}, Env: []string{"VIGOR_TEST_MARKER=" + marker}}
	each(t, opts, func(t *testing.T, ed *editortest.Editor) {
		ed.WaitFor(t, "vigor#plugin#discovered()", 30*time.Second)
		ed.MustExec(t, "call vigor#plugin#discover()")
		if _, err := os.Stat(marker); err == nil {
			t.Fatalf("%s: discovery ran the command in a directory name", ed.Kind)
		}
		if st := ed.MustEval(t, "vigor#plugin#status('oddone')"); st == "" {
			t.Fatalf("%s: the plugin under %q was not found; runtimepath: %v", ed.Kind, odd, ed.MustEval(t, "&runtimepath"))
		}
		msgs := ed.Messages(t)
		if !strings.Contains(msgs, "skipped") || !strings.Contains(msgs, "a plugin name is letters, digits, - and _") {
			t.Fatalf("%s: no message for the skipped directory; messages: %s", ed.Kind, msgs)
		}
	})
}

// The logs that the runtime writes (a build's failure, a plugin's stderr)
// are made for the user alone.
func TestRuntimeLogsArePrivate(t *testing.T) {
	each(t, editortest.Options{RTP: rtp("broken")}, func(t *testing.T, ed *editortest.Editor) {
		ed.WaitFor(t, "vigor#plugin#status('broken') ==# 'failed'", 60*time.Second)
		log := ed.MustEval(t, "g:vigor#cache_dir . '/log/broken.log'").(string)
		if err := os.Remove(log); err != nil {
			t.Fatal(err)
		}
		ed.MustExec(t, "call vigor#plugin#reload('broken')")
		ed.WaitFor(t, "vigor#plugin#status('broken') ==# 'failed' && filereadable(g:vigor#cache_dir . '/log/broken.log')", 60*time.Second)
		mustEqual(t, ed, "the log's permissions", ed.MustEval(t, "getfperm(g:vigor#cache_dir . '/log/broken.log')"), "rw-------")
	})
}

// A plugin that :packadd puts on 'runtimepath' after startup is found by
// the first request to it, with no call of vigor#plugin#discover(); an
// unknown name suggests the closest known one.
func TestPackaddAfterStartup(t *testing.T) {
	opts := editortest.Options{RTP: []string{hello()}}
	each(t, opts, func(t *testing.T, ed *editortest.Editor) {
		waitLoaded(t, ed, "hello")
		ed.MustExec(t, "set packpath^="+filepath.Join(editortest.Root(), "e2e", "testdata"))
		ed.MustExec(t, "packadd lazyrepo")
		mustEqual(t, ed, "vlazy", ed.MustEval(t, `vigor#request('vlazy', 'upper', ['lazy'])`), "LAZY")
		mustThrow(t, ed, `vigor#request('helo', 'greet', [])`,
			"[vigor] helo.greet: there is no plugin helo (no vigor/helo/ directory on 'runtimepath'); did you mean hello?")
		msg := mustThrow(t, ed, `vigor#request('zzzzzz', 'greet', [])`, "there is no plugin zzzzzz")
		if strings.Contains(msg, "did you mean") {
			t.Fatalf("%s: a suggestion for a name like no other: %s", ed.Kind, msg)
		}
	})
}

// A repository with a plugin/ file is discovered as soon as it is put on
// 'runtimepath' and that file is sourced, with no request: by :packadd,
// or by a lazy plugin manager on an event of its own (++nested: inside
// an autocommand that is not, no SourcePost fires, and the first request
// finds it, TestPackaddAfterStartup).
func TestAddedRepoDiscoveredOnItsOwn(t *testing.T) {
	packs := filepath.Join(editortest.Root(), "e2e", "testdata")
	repo := filepath.Join(packs, "pack", "lazy", "opt", "lazyrepo2")
	for name, add := range map[string][]string{
		"packadd": {"set packpath^=" + packs, "packadd lazyrepo2"},
		"event": {"autocmd User LazyLoad ++once ++nested set runtimepath+=" + repo + " | runtime! plugin/lazyrepo2.vim",
			"doautocmd User LazyLoad"},
	} {
		t.Run(name, func(t *testing.T) {
			each(t, editortest.Options{RTP: []string{hello()}}, func(t *testing.T, ed *editortest.Editor) {
				waitLoaded(t, ed, "hello")
				for _, cmd := range add {
					ed.MustExec(t, cmd)
				}
				mustEqual(t, ed, "its plugin file ran", ed.MustEval(t, "get(g:, 'lazyrepo2_sourced', 0)"), int64(1))
				if st := ed.MustEval(t, "vigor#plugin#status('vlazy2')"); st == "" {
					t.Fatalf("%s: vlazy2 was not discovered when its repository was added", ed.Kind)
				}
				waitLoaded(t, ed, "vlazy2")
			})
		})
	}
}

// A repository with no plugin/ file that :packadd puts on 'runtimepath'
// is listed, before any request to its plugin, by :Vigor status, the
// health report and the completion of plugin names.
func TestPackaddListedBeforeRequest(t *testing.T) {
	packs := filepath.Join(editortest.Root(), "e2e", "testdata")
	for name, list := range map[string]string{
		"status":     "execute('Vigor status')",
		"health":     "string(vigor#health#report())",
		"completion": "string(getcompletion('Vigor log v', 'cmdline'))",
	} {
		t.Run(name, func(t *testing.T) {
			each(t, editortest.Options{RTP: []string{hello()}}, func(t *testing.T, ed *editortest.Editor) {
				waitLoaded(t, ed, "hello")
				ed.MustExec(t, "set packpath^="+packs)
				ed.MustExec(t, "packadd lazyrepo")
				if got := ed.MustEval(t, list).(string); !strings.Contains(got, "vlazy") {
					t.Fatalf("%s: %s does not list vlazy after :packadd: %s", ed.Kind, list, got)
				}
				waitLoaded(t, ed, "vlazy")
			})
		})
	}
}
