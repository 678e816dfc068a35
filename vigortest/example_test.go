package vigortest_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/vigorvim/vigor"
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

// A unit test of a handler against a Fake, once per editor's protocol:
// the plugin's call of getline() goes to a Go function. In a test, take
// vigortest.NewFake(t, ...), which stops the plugin when the test ends.
func ExampleStartFake() {
	setup := func(ctx context.Context, p *vigor.Plugin) error {
		p.Handle("first", func(ctx context.Context) (string, error) {
			return vigor.CallAs[string](ctx, p, "getline", 1)
		})
		return nil
	}
	for _, editor := range vigortest.Kinds {
		f, err := vigortest.StartFake(vigortest.FakeOptions{
			Editor: editor,
			Funcs: map[string]vigortest.Func{
				"getline": func(args ...any) (any, error) { return fmt.Sprintf("line %d", args[0]), nil },
			},
		}, setup)
		if err != nil {
			fmt.Println(err)
			return
		}
		got, err := f.Request("first")
		fmt.Println(editor, got, err)
		if err := f.Close(); err != nil {
			fmt.Println(err)
		}
	}
	// Output:
	// vim line 1 <nil>
	// nvim line 1 <nil>
}
