package vigortest_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

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

// A test of a mapping, with a real screen: in headless Vim (Ex mode)
// keys and mappings do nothing, so the test asks for a screen.
func ExampleEditor_Keys() {
	// In vigor/hello/main_test.go, say, of a repository whose
	// plugin/hello.vim maps <Leader>h to :Hello<CR>, a command that
	// echoes the plugin's greeting:
	_ = func(t *testing.T) {
		vigortest.Each(t, vigortest.Options{Screen: true}, func(t *testing.T, ed *vigortest.Editor) {
			ed.WaitLoaded(t, "hello")
			ed.Keys(t, `\h`)
			ed.WaitScreen(t, "Hello, you!", 5*time.Second)
			if s := ed.Screen(t); strings.Contains(s, "E492") {
				t.Fatalf("%s: the screen shows an error:\n%s", ed.Kind, s)
			}
		})
	}
}

// What a plugin showed: the text that a command echoed, and the
// messages that the plugin's Infof gave, which arrive after the call.
func ExampleEditor_Output() {
	_ = func(t *testing.T) {
		vigortest.Each(t, vigortest.Options{}, func(t *testing.T, ed *vigortest.Editor) {
			if got := ed.Output(t, "Hello"); got != "\nHello, you!" {
				t.Fatalf("%s: :Hello echoed %q", ed.Kind, got)
			}
			ed.ClearMessages(t)
			ed.Cmd(t, "HelloLater")
			ed.WaitMessage(t, "[hello] done", 5*time.Second)
		})
	}
}
