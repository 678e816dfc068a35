package command_test

import (
	"context"
	"fmt"

	"github.com/vigorvim/vigor"
	"github.com/vigorvim/vigor/std/command"
)

// A command's function gets the arguments as the user typed them and
// split as <f-args>; Parse reads options, flags and quoted strings.
func ExampleArgs_Parse() {
	a := command.Args{Args: `++enc=latin1 -v --name=x 'a b' c`}
	parsed, err := a.Parse()
	fmt.Println(parsed.Opts["enc"], parsed.Flags.Has("v"), parsed.Flags.Get("name"), parsed.Rest, err)
	// Output: latin1 true x [a b c] <nil>
}

// Define checks the name and the attributes before any call to the
// editor: this example needs no editor.
func ExampleDefine() {
	ctx := context.Background()
	var p *vigor.Plugin // a plugin's setup has one
	run := func(ctx context.Context, a command.Args) error { return nil }
	fmt.Println(command.Define(ctx, p, "greet", command.Options{}, run))
	fmt.Println(command.Define(ctx, p, "Greet", command.Options{Nargs: "2"}, run))
	fmt.Println(command.Define(ctx, p, "Greet", command.Options{Range: "%", Count: "1"}, run))
	// Output:
	// command.Define: "greet" is not a user command name (an upper-case letter, then letters and digits)
	// command.Define: Greet: Nargs "2" is not one of 0, 1, *, ? and +
	// command.Define: Greet: a command has a Range or a Count, not both
}

// A command completed in Go, which runs when the user types :Greet.
func ExampleDefine_complete() {
	setup := func(ctx context.Context, p *vigor.Plugin) error {
		names := func(ctx context.Context, lead, line string, pos int) ([]string, error) {
			return []string{"world", "Vigor"}, nil
		}
		return command.Define(ctx, p, "Greet", command.Options{Nargs: "?", CompleteFunc: names},
			func(ctx context.Context, a command.Args) error {
				p.Infof(ctx, "Hello, %s!", a.Args)
				return nil
			})
	}
	_ = setup // vigor.Main(setup) in the plugin's main
}
