// Command stdcommand is the end-to-end tests' plugin for std/command:
// handlers define, remove and list commands whose Go function records the
// Args it got in g:stdcommand_args, and their parsed form in
// g:stdcommand_parsed.
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
		parsed, err := a.Parse()
		if err != nil {
			return err
		}
		return p.Cmd(ctx, "let g:stdcommand_args = l:a | let g:stdcommand_parsed = l:p",
			map[string]any{"a": a, "p": map[string]any{"opts": parsed.Opts, "flags": parsed.Flags, "rest": parsed.Rest}})
	}
	words := func(ctx context.Context, lead, line string, pos int) ([]string, error) {
		if lead == "x" {
			return nil, errors.New("no completion for x")
		}
		var out []string
		for _, w := range []string{"alpha", "beta", "gamma"} {
			if strings.HasPrefix(w, lead) {
				out = append(out, w)
			}
		}
		return out, nil
	}
	p.Handle("define", func(ctx context.Context, name string, o command.Options, gocomplete bool) error {
		if gocomplete {
			o.CompleteFunc = words
		}
		return command.Define(ctx, p, name, o, record)
	})
	p.Handle("remove", func(ctx context.Context, name string, buffer bool) error {
		return command.Remove(ctx, p, name, buffer)
	})
	p.Handle("list", func(ctx context.Context) ([]string, error) {
		return command.List(ctx, p)
	})
	// batch defines name (completed in Go), removes old and lists the
	// commands in one round trip.
	p.Handle("batch", func(ctx context.Context, name, old string) ([]string, error) {
		var names []string
		err := p.Batch(ctx, func(b *vigor.Batch) error {
			if err := command.Define(ctx, b, name, command.Options{Nargs: "*", CompleteFunc: words}, record); err != nil {
				return err
			}
			if err := command.Remove(ctx, b, old, false); err != nil {
				return err
			}
			_, err := command.List(ctx, b.Into(&names))
			return err
		})
		return names, err
	})
	return nil
}
