package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Without $HOME and $XDG_CACHE_HOME, vigor build has no private place for
// its cache: it refuses, and says what to pass, instead of using a shared
// directory under $TMPDIR.
func TestBuildWithoutHomeRefuses(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("HOME", "")
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("TMPDIR", tmp)
	dir := filepath.Join(t.TempDir(), "vigor", "p")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr strings.Builder
	code := run(context.Background(), []string{"build", "-sdk", t.TempDir(), "p=" + dir}, &stdout, &stderr)
	if code != 2 {
		t.Errorf("exit code %d, want 2; stderr:\n%s", code, stderr.String())
	}
	msg := stderr.String()
	for _, want := range []string{"vigor build: ", "$HOME", "$XDG_CACHE_HOME", "-cache"} {
		if !strings.Contains(msg, want) {
			t.Errorf("stderr %q, want it to contain %q", msg, want)
		}
	}
	if strings.Count(strings.TrimSpace(msg), "\n") != 0 {
		t.Errorf("stderr %q is more than one line", msg)
	}
	if _, err := os.Stat(filepath.Join(tmp, "vigor")); !os.IsNotExist(err) {
		t.Errorf("vigor build made %s: %v", filepath.Join(tmp, "vigor"), err)
	}
}

// Every command prints its usage for -h and for `vigor help CMD`, on
// stdout, and exits 0.
func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"-h"}, {"help", "build"}, {"build", "-h"}, {"build", "-help"},
		{"help", "version"}, {"version", "-h"}} {
		var stdout, stderr strings.Builder
		if code := run(context.Background(), args, &stdout, &stderr); code != 0 || stderr.Len() > 0 {
			t.Errorf("vigor %s: exit code %d, stderr %q; want 0 and nothing", strings.Join(args, " "), code, stderr.String())
		}
		if !strings.Contains(stdout.String(), "Usage:") {
			t.Errorf("vigor %s printed no usage:\n%s", strings.Join(args, " "), stdout.String())
		}
	}
	var stdout, stderr strings.Builder
	if code := run(context.Background(), []string{"help", "nosuch"}, &stdout, &stderr); code != 2 ||
		!strings.Contains(stderr.String(), `unknown command "nosuch"`) {
		t.Errorf("vigor help nosuch: exit code %d, stderr %q", code, stderr.String())
	}
}

// vigor build says what it needs: with no plugins it explains NAME=DIR and
// prints its usage; given a repository's root it names a plugin in it.
func TestBuildArguments(t *testing.T) {
	var stdout, stderr strings.Builder
	if code := run(context.Background(), []string{"build"}, &stdout, &stderr); code != 2 ||
		!strings.Contains(stderr.String(), "vigor build: name the plugins to build, as NAME=DIR") ||
		!strings.Contains(stderr.String(), "-sdk") {
		t.Errorf("vigor build: exit code %d, stderr:\n%s", code, stderr.String())
	}
	repo := t.TempDir()
	if err := os.MkdirAll(filepath.Join(repo, "vigor", "hello"), 0o700); err != nil {
		t.Fatal(err)
	}
	stderr.Reset()
	want := "vigor build: " + repo + " is a plugin repository, not a plugin: name its plugins, such as " +
		filepath.Join(repo, "vigor", "hello") + "\n"
	if code := run(context.Background(), []string{"build", repo}, &stdout, &stderr); code != 2 || stderr.String() != want {
		t.Errorf("vigor build REPO: exit code %d, stderr %q, want %q", code, stderr.String(), want)
	}
}

// -sdk defaults to the checkout that the command was built from.
func TestBuildSDKDefault(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if got := sourceCheckout(); got != root {
		t.Errorf("sourceCheckout() = %q, want %q", got, root)
	}
}
