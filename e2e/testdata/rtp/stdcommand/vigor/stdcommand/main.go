// Command stdcommand is the end-to-end tests' plugin for std/command:
// handlers define, remove and list commands whose Go function records the
// Args it got in g:stdcommand_args.
package main

import (
	"context"
	"errors"
	"strings"

	"github.com/vigorvim/vigor"
	"github.com/vigorvim/vigor/std/command"
)

func main() {
	vigor.Main(setup)
}

func setup(ctx context.Context, p *vigor.Plugin) error {
	record := func(ctx context.Context, a command.Args) error {
		if a.Args == "fail" {
			return errors.New("asked to fail")
		}
		return p.Cmd(ctx, "let g:stdcommand_args = l:a", map[string]any{"a": a})
	}
	p.Handle("define", func(ctx context.Context, name string, o command.Options, gocomplete bool) error {
		if gocomplete {
			o.CompleteFunc = func(ctx context.Context, lead, line string, pos int) ([]string, error) {
				var out []string
				for _, w := range []string{"alpha", "beta", "gamma"} {
					if strings.HasPrefix(w, lead) {
						out = append(out, w)
					}
				}
				return out, nil
			}
		}
		return command.Define(ctx, p, name, o, record)
	})
	p.Handle("remove", func(ctx context.Context, name string, buffer bool) error {
		return command.Remove(ctx, p, name, buffer)
	})
	p.Handle("list", func(ctx context.Context) ([]string, error) {
		return command.List(ctx, p)
	})
	// batch defines name and lists the commands in one round trip.
	p.Handle("batch", func(ctx context.Context, name string) ([]string, error) {
		var names []string
		err := p.Batch(ctx, func(b *vigor.Batch) error {
			command.Define(ctx, b, name, command.Options{Nargs: "*"}, record)
			_, err := command.List(ctx, b.Into(&names))
			return err
		})
		return names, err
	})
	return nil
}
