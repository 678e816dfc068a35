package argument_test

import (
	"fmt"

	"github.com/vigorvim/vigor/std/argument"
)

func Example() {
	// What the handler of
	//   command! -nargs=* Grep call vigor#notify('grep', 'grep', [<q-args>])
	// receives for :Grep ++enc=sjis -i --glob=*.go "hello world" src
	line := `++enc=sjis -i --glob=*.go "hello world" src`

	a, err := argument.Parse(line)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("opts %q\nflags %q\nrest %q\n", a.Opts, a.Flags, a.Rest)
	fmt.Println(a.Flags.Has("i"), a.Flags.Get("glob"))

	fmt.Println(argument.ValidateOpts(a.Opts, argument.BuiltinOpts()...))
	fmt.Println(argument.ValidateFlags(a.Flags, "i", "word"))

	s, _ := argument.Format(a)
	fmt.Println(s)
	// Output:
	// opts map["enc":"sjis"]
	// flags map["glob":["*.go"] "i":[""]]
	// rest ["hello world" "src"]
	// true *.go
	// <nil>
	// argument.ValidateFlags: unknown flag --glob (known: -i, --word)
	// ++enc=sjis --glob=*.go -i "hello world" src
}

// FArgs splits as Vim's <f-args> does; Split reads quotes as well.
func ExampleSplit() {
	fmt.Printf("%q\n", argument.FArgs(`a\ b "c d" C:\x`))
	args, _ := argument.Split(`a\ b "c d" C:\x`)
	fmt.Printf("%q\n", args)
	fmt.Println(argument.Join(args))
	// Output:
	// ["a b" "\"c" "d\"" "C:\\x"]
	// ["a b" "c d" "C:\\x"]
	// "a b" "c d" "C:\\x"
}
