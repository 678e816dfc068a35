package vigortest_test

import (
	"testing"

	"github.com/vigorvim/vigor/vigortest"
)

// A test in a plugin repository: the body runs in Vim and in Neovim, with
// the repository's plugins loaded as a user's editor loads them.
func ExampleEach() {
	// In vigor/hello/main_test.go, say:
	_ = func(t *testing.T) {
		vigortest.Each(t, vigortest.Options{}, func(t *testing.T, ed *vigortest.Editor) {
			if got := ed.Request(t, "hello", "greet", "you"); got != "Hello, you!" {
				t.Fatalf("%s: greet = %v", ed.Kind, got)
			}
		})
	}
}
