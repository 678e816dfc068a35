package variables

import (
	"context"
	"fmt"

	"github.com/vigorvim/vigor"
)

// checkDict says what is wrong with the Dict variable name in s, for the
// function fn, if anything: a Dict variable is a g:, b:, w: or t: one.
func (s Scope) checkDict(fn, name string) error {
	switch s.prefix {
	case "v:", "$", "@":
		return fmt.Errorf("%s: a Dict variable is a g:, b:, w: or t: variable, not %s", fn, s.prefix)
	}
	return s.check(fn, name)
}

// DictGet returns the value of key in the Dict variable name of scope s
// (G, B, W or T) decoded into a T, or def when the variable is not set or
// the Dict has no such key. A variable that is set to something other
// than a Dict is the editor's error. In a batch it returns the zero T:
// pass b.Into(&v) as c to receive the value.
func DictGet[T any](ctx context.Context, c vigor.Caller, s Scope, name, key string, def T) (T, error) {
	var zero T
	if err := s.checkDict("variables.DictGet", name); err != nil {
		return zero, err
	}
	expr := "get(get(" + s.prefix + ", l:n, {}), l:k, l:d)"
	v, err := vigor.EvalAs[T](ctx, c, expr, map[string]any{"n": name, "k": key, "d": def})
	if err != nil {
		return zero, fmt.Errorf("variables.DictGet: %s%s[%q]: %w", s.prefix, name, key, err)
	}
	return v, nil
}

// DictSet sets key of the Dict variable name of scope s (G, B, W or T)
// to v; when the variable is not set, DictSet sets it to a Dict that
// holds key. A variable that is set to something other than a Dict is
// the editor's error.
func DictSet(ctx context.Context, c vigor.Caller, s Scope, name, key string, v any) error {
	if err := s.checkDict("variables.DictSet", name); err != nil {
		return err
	}
	// name has passed check: it is letters, digits, '_' and '#'.
	vr := s.prefix + name
	cmd := "if !has_key(" + s.prefix + ", l:n) | let " + vr + " = {} | endif | let " + vr + "[l:k] = l:v"
	if err := c.Cmd(ctx, cmd, map[string]any{"n": name, "k": key, "v": v}); err != nil {
		return fmt.Errorf("variables.DictSet: %w", err)
	}
	return nil
}

// DictRemove removes key from the Dict variable name of scope s (G, B, W
// or T); a variable that is not set, or a key that it does not hold, is
// no error. A variable that is set to something other than a Dict is the
// editor's error.
func DictRemove(ctx context.Context, c vigor.Caller, s Scope, name, key string) error {
	if err := s.checkDict("variables.DictRemove", name); err != nil {
		return err
	}
	// name has passed check: it is letters, digits, '_' and '#'.
	vr := s.prefix + name
	cmd := "if has_key(get(" + s.prefix + ", l:n, {}), l:k) | call remove(" + vr + ", l:k) | endif"
	if err := c.Cmd(ctx, cmd, map[string]any{"n": name, "k": key}); err != nil {
		return fmt.Errorf("variables.DictRemove: %w", err)
	}
	return nil
}
