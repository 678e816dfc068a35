package bufname_test

import (
	"fmt"
	"net/url"

	"github.com/vigorvim/vigor/std/bufname"
)

func Example() {
	name, err := bufname.Format(bufname.Bufname{
		Scheme:   "gitshow",
		Expr:     "/home/me/my repo",
		Params:   url.Values{"commit": {"HEAD~1"}},
		Fragment: "main.go",
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(name)

	b, err := bufname.Parse(name)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s | %s | %s | %s\n", b.Scheme, b.Expr, b.Params.Get("commit"), b.Fragment)

	_, err = bufname.Parse("gitshow:///tmp/a?b")
	fmt.Println(err)
	// Output:
	// gitshow:///home/me/my repo;commit=HEAD~1#main.go
	// gitshow | /home/me/my repo | HEAD~1 | main.go
	// bufname.Parse: "gitshow:///tmp/a?b" has '?' at byte 16, which a buffer name cannot have; Format writes it as %3F
}
