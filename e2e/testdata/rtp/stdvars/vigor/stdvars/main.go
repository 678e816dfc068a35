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
	setupLocal(p)
	setupDict(p)
	return nil
}

// locals are BufGet, WinGet and TabGet and their Set and Remove, by the
// names the tests give their kinds.
type localFuncs struct {
	get    func(ctx context.Context, c vigor.Caller, i int, name string, def any) (any, error)
	set    func(ctx context.Context, c vigor.Caller, i int, name string, v any) error
	remove func(ctx context.Context, c vigor.Caller, i int, name string) error
}

var locals = map[string]localFuncs{
	"buf": {variables.BufGet[any], variables.BufSet, variables.BufRemove},
	"win": {variables.WinGet[any], variables.WinSet, variables.WinRemove},
	"tab": {variables.TabGet[any], variables.TabSet, variables.TabRemove},
}

func local(kind string) (localFuncs, error) {
	f, ok := locals[kind]
	if !ok {
		return localFuncs{}, fmt.Errorf("no kind %q", kind)
	}
	return f, nil
}

// setupLocal has the handlers of the variables of a given buffer, window
// or tab page: lget, lgetint, lset, lremove and lbatch.
func setupLocal(p *vigor.Plugin) {
	p.Handle("lget", func(ctx context.Context, kind string, i int, name string, def any) (any, error) {
		f, err := local(kind)
		if err != nil {
			return nil, err
		}
		return f.get(ctx, p, i, name, def)
	})
	p.Handle("lgetint", func(ctx context.Context, i int, name string, def int) (int, error) {
		return variables.BufGet(ctx, p, i, name, def)
	})
	p.Handle("lset", func(ctx context.Context, kind string, i int, name string, v any) error {
		f, err := local(kind)
		if err != nil {
			return err
		}
		return f.set(ctx, p, i, name, v)
	})
	p.Handle("lremove", func(ctx context.Context, kind string, i int, name string) error {
		f, err := local(kind)
		if err != nil {
			return err
		}
		return f.remove(ctx, p, i, name)
	})
	// lbatch sets, reads and removes the variable in one batch, and
	// returns what Get gave before and after the removal.
	p.Handle("lbatch", func(ctx context.Context, kind string, i int, name string, v any) (map[string]any, error) {
		f, err := local(kind)
		if err != nil {
			return nil, err
		}
		var before, after any
		err = p.Batch(ctx, func(b *vigor.Batch) error {
			if err := f.set(ctx, b, i, name, v); err != nil {
				return err
			}
			if _, err := f.get(ctx, b.Into(&before), i, name, "unset"); err != nil {
				return err
			}
			if err := f.remove(ctx, b, i, name); err != nil {
				return err
			}
			_, err := f.get(ctx, b.Into(&after), i, name, "unset")
			return err
		})
		return map[string]any{"before": before, "after": after}, err
	})
}

// setupDict has the handlers of a key of a Dict variable: dget, dgetint,
// dset, dremove and dbatch.
func setupDict(p *vigor.Plugin) {
	p.Handle("dget", func(ctx context.Context, sc, name, key string, def any) (any, error) {
		s, err := scope(sc)
		if err != nil {
			return nil, err
		}
		return variables.DictGet(ctx, p, s, name, key, def)
	})
	p.Handle("dgetint", func(ctx context.Context, sc, name, key string, def int) (int, error) {
		s, err := scope(sc)
		if err != nil {
			return 0, err
		}
		return variables.DictGet(ctx, p, s, name, key, def)
	})
	p.Handle("dset", func(ctx context.Context, sc, name, key string, v any) error {
		s, err := scope(sc)
		if err != nil {
			return err
		}
		return variables.DictSet(ctx, p, s, name, key, v)
	})
	p.Handle("dremove", func(ctx context.Context, sc, name, key string) error {
		s, err := scope(sc)
		if err != nil {
			return err
		}
		return variables.DictRemove(ctx, p, s, name, key)
	})
	p.Handle("dbatch", func(ctx context.Context, sc, name, key string, v any) (map[string]any, error) {
		s, err := scope(sc)
		if err != nil {
			return nil, err
		}
		var before, after any
		err = p.Batch(ctx, func(b *vigor.Batch) error {
			if err := variables.DictSet(ctx, b, s, name, key, v); err != nil {
				return err
			}
			if _, err := variables.DictGet(ctx, b.Into(&before), s, name, key, any("unset")); err != nil {
				return err
			}
			if err := variables.DictRemove(ctx, b, s, name, key); err != nil {
				return err
			}
			_, err := variables.DictGet(ctx, b.Into(&after), s, name, key, any("unset"))
			return err
		})
		return map[string]any{"before": before, "after": after}, err
	})
}
