// Command linecount is a plugin as an author writes it from the docs,
// with no raw Vim script but what the editors take as Ex text
// (:help vigor-std-raw): on BufWritePost it records the buffer's line
// count in b:linecount and in the Dict g:linecounts, <Leader>lc counts
// its presses in g:linecount_pressed, and :LineCount [--reset] [name]
// shows or clears the counts. Its setup defines all of it in one batch.
package main

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/vigorvim/vigor"
	"github.com/vigorvim/vigor/std/autocmd"
	"github.com/vigorvim/vigor/std/command"
	"github.com/vigorvim/vigor/std/fn"
	"github.com/vigorvim/vigor/std/helper"
	"github.com/vigorvim/vigor/std/lambda"
	"github.com/vigorvim/vigor/std/mapping"
	"github.com/vigorvim/vigor/std/variables"
)

func main() {
	vigor.Main(setup)
}

func setup(ctx context.Context, p *vigor.Plugin) error {
	written := lambda.Register(p, func(ctx context.Context, buf int) error {
		var lines []string
		var name string
		if err := p.Batch(ctx, func(b *vigor.Batch) error {
			fn.GetbuflineEnd(ctx, b.Into(&lines), buf, 1, "$")
			fn.BufnameBuf(ctx, b.Into(&name), buf)
			return nil
		}); err != nil {
			return err
		}
		name = name[strings.LastIndexAny(name, `/\`)+1:]
		return p.Batch(ctx, func(b *vigor.Batch) error {
			if err := variables.BufSet(ctx, b, buf, "linecount", len(lines)); err != nil {
				return err
			}
			return variables.DictSet(ctx, b, variables.G, "linecounts", name, len(lines))
		})
	})
	pressed := lambda.Register(p, func(ctx context.Context) error {
		n, err := variables.Get(ctx, p, variables.G, "linecount_pressed", 0)
		if err != nil {
			return err
		}
		return variables.Set(ctx, p, variables.G, "linecount_pressed", n+1)
	})
	show := func(ctx context.Context, a command.Args) error {
		args, err := a.Parse()
		if err != nil {
			return err
		}
		if args.Flags.Has("reset") {
			return variables.Set(ctx, p, variables.G, "linecounts", map[string]int{})
		}
		counts, err := variables.Get(ctx, p, variables.G, "linecounts", map[string]int{})
		if err != nil {
			return err
		}
		var out []string
		for name, n := range counts {
			if len(args.Rest) == 0 || args.Rest[0] == name {
				out = append(out, fmt.Sprintf("%s=%d", name, n))
			}
		}
		sort.Strings(out)
		return helper.Echo(ctx, p, "lines: "+strings.Join(out, " "))
	}
	names := func(ctx context.Context, lead, line string, pos int) ([]string, error) {
		counts, err := variables.Get(ctx, p, variables.G, "linecounts", map[string]int{})
		var out []string
		for name := range counts {
			if strings.HasPrefix(name, lead) {
				out = append(out, name)
			}
		}
		sort.Strings(out)
		return out, err
	}
	return p.Batch(ctx, func(b *vigor.Batch) error {
		if err := variables.Set(ctx, b, variables.G, "linecounts", map[string]int{}); err != nil {
			return err
		}
		if err := autocmd.Group(ctx, b, "linecount", func(g *autocmd.GroupDefs) error {
			return g.Define(autocmd.Def{Events: []string{"BufWritePost"},
				Cmd: "call " + written.Request("str2nr(expand('<abuf>'))")})
		}); err != nil {
			return err
		}
		if err := mapping.Map(ctx, b, mapping.Normal, "<Leader>lc", "<Cmd>call "+pressed.Notify()+"<CR>",
			mapping.Options{Silent: true}); err != nil {
			return err
		}
		return command.Define(ctx, b, "LineCount", command.Options{Nargs: "*", CompleteFunc: names}, show)
	})
}
