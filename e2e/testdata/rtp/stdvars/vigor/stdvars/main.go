// Command stdvars is the end-to-end tests' plugin for std/variables: each
// handler calls one function of the package, directly or in a batch, with
// the scope named by a short string.
package main

import (
	"context"
	"fmt"

	"github.com/vigorvim/vigor"
	"github.com/vigorvim/vigor/std/variables"
)

func main() {
	vigor.Main(setup)
}

// scopes are the scopes by the names the tests give them.
var scopes = map[string]variables.Scope{
	"g": variables.G, "b": variables.B, "w": variables.W, "t": variables.T,
	"v": variables.V, "env": variables.Env, "reg": variables.Register,
}

func scope(name string) (variables.Scope, error) {
	s, ok := scopes[name]
	if !ok {
		return variables.Scope{}, fmt.Errorf("no scope %q", name)
	}
	return s, nil
}

func setup(ctx context.Context, p *vigor.Plugin) error {
	// get is variables.Get with a default of any type.
	p.Handle("get", func(ctx context.Context, sc, name string, def any) (any, error) {
		s, err := scope(sc)
		if err != nil {
			return nil, err
		}
		return variables.Get(ctx, p, s, name, def)
	})
	// getint is variables.Get typed int.
	p.Handle("getint", func(ctx context.Context, sc, name string, def int) (int, error) {
		s, err := scope(sc)
		if err != nil {
			return 0, err
		}
		return variables.Get(ctx, p, s, name, def)
	})
	p.Handle("set", func(ctx context.Context, sc, name string, v any) error {
		s, err := scope(sc)
		if err != nil {
			return err
		}
		return variables.Set(ctx, p, s, name, v)
	})
	p.Handle("remove", func(ctx context.Context, sc, name string) error {
		s, err := scope(sc)
		if err != nil {
			return err
		}
		return variables.Remove(ctx, p, s, name)
	})
	// batch sets, reads and removes name in scope sc in one batch, and
	// returns what Get gave before and after the removal.
	p.Handle("batch", func(ctx context.Context, sc, name string, v any) (map[string]any, error) {
		s, err := scope(sc)
		if err != nil {
			return nil, err
		}
		var before, after any
		var n int
		err = p.Batch(ctx, func(b *vigor.Batch) error {
			if err := variables.Set(ctx, b, s, name, v); err != nil {
				return err
			}
			if _, err := variables.Get(ctx, b.Into(&before), s, name, any("unset")); err != nil {
				return err
			}
			if _, err := variables.Get(ctx, b.Into(&n), variables.V, "version", 0); err != nil {
				return err
			}
			if err := variables.Remove(ctx, b, s, name); err != nil {
				return err
			}
			_, err := variables.Get(ctx, b.Into(&after), s, name, any("unset"))
			return err
		})
		return map[string]any{"before": before, "after": after, "version": n > 0}, err
	})
	return nil
}
