package lambda_test

import (
	"context"
	"fmt"

	"github.com/vigorvim/vigor"
	"github.com/vigorvim/vigor/std/lambda"
	"github.com/vigorvim/vigor/vigortest"
)

// A lambda gives the expressions that call a Go closure, for a mapping,
// an autocmd, a command or a timer. Here a vigortest.Fake stands for the
// editor and calls the lambda as the expression would.
func Example() {
	f, err := vigortest.StartFake(vigortest.FakeOptions{Name: "myplugin"}, func(ctx context.Context, p *vigor.Plugin) error {
		double := lambda.Register(p, func(n int) int { return 2 * n })
		fmt.Println(double.Request("v:count1"))
		p.Handle("double", func() string { return double.Method() })
		return nil
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer f.Close()
	method, _ := f.Request("double")
	n, err := f.Request(method.(string), 21)
	fmt.Println(n, err)
	// Output:
	// vigor#request('myplugin', '$lambda:1.1', [v:count1])
	// 42 <nil>
}
