// Package e2e holds Vigor's end-to-end tests: every test body runs against a
// real headless Vim and a real Neovim.
package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/vigorvim/vigor/internal/editortest"
)

// prebuildDir holds what prebuild builds, once for the test binary.
var prebuildDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "vigor-e2e-prebuild-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	prebuildDir = dir
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

// rtp returns fixture plugin repositories by name (e2e/testdata/rtp/<name>).
func rtp(names ...string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = filepath.Join(editortest.Root(), "e2e", "testdata", "rtp", n)
	}
	return out
}

func hello() string { return filepath.Join(editortest.Root(), "examples", "hello") }

// ready starts an editor per kind with the given repos, waits until plugin
// is loaded, and runs body.
func each(t *testing.T, opts editortest.Options, body func(t *testing.T, ed *editortest.Editor)) {
	t.Helper()
	editortest.Each(t, opts, body)
}

func waitLoaded(t testing.TB, ed *editortest.Editor, name string) {
	t.Helper()
	waitLoadedWithin(t, ed, name, 60*time.Second)
}

// coldBuild bounds a wait that includes real builds of the vigor command
// and a plugin into an empty cache, on a cold Go build cache (CI).
const coldBuild = 5 * time.Minute

// waitLoadedWithin is waitLoaded with the bound d.
func waitLoadedWithin(t testing.TB, ed *editortest.Editor, name string, d time.Duration) {
	t.Helper()
	ed.WaitFor(t, "vigor#plugin#status('"+name+"') ==# 'loaded' || vigor#plugin#status('"+name+"') ==# 'failed'", d)
	if st := ed.MustEval(t, "vigor#plugin#status('"+name+"')"); st != "loaded" {
		t.Fatalf("%s: %s is %v; messages: %s", ed.Kind, name, st, ed.Messages(t))
	}
}

func mustEqual(t *testing.T, ed *editortest.Editor, what string, got, want any) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s: %s = %#v, want %#v", ed.Kind, what, got, want)
	}
}

// mustThrow evaluates expr and checks that it throws an exception that
// contains every part.
func mustThrow(t *testing.T, ed *editortest.Editor, expr string, parts ...string) string {
	t.Helper()
	v, err := ed.Eval(expr)
	if err == nil {
		t.Fatalf("%s: %s returned %#v, want an exception", ed.Kind, expr, v)
	}
	msg := err.Error()
	for _, p := range parts {
		if !strings.Contains(msg, p) {
			t.Fatalf("%s: %s threw %q, want it to contain %q", ed.Kind, expr, msg, p)
		}
	}
	return msg
}

func events(t *testing.T, ed *editortest.Editor) []string {
	t.Helper()
	var evs []string
	if err := ed.EvalInto("g:events", &evs); err != nil {
		t.Fatal(err)
	}
	return evs
}

// eventsFor returns the events of one plugin (and VigorReady).
func eventsFor(t *testing.T, ed *editortest.Editor, name string) []string {
	t.Helper()
	var out []string
	for _, e := range events(t, ed) {
		if e == "VigorReady" || strings.HasSuffix(e, ":"+name) {
			out = append(out, strings.TrimSuffix(e, ":"+name))
		}
	}
	return out
}
