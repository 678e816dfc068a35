// Command stdopt is the end-to-end tests' plugin for the typed options of
// std/opt, std/vimopt and std/nvimopt: it calls an option's method by name,
// so that the test bodies drive each scope and type from Vim script.
package main

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync/atomic"

	"github.com/vigorvim/vigor"
	"github.com/vigorvim/vigor/std/nvimopt"
	"github.com/vigorvim/vigor/std/opt"
	"github.com/vigorvim/vigor/std/vimopt"
)

func main() {
	vigor.Main(setup)
}

// options are the options the tests use, by Go name.
func options() map[string]any {
	return map[string]any{
		// Global: Number, Boolean, String.
		"opt.Scrolljump": opt.Scrolljump,
		"opt.Ignorecase": opt.Ignorecase,
		"opt.Selection":  opt.Selection,
		// Local to buffer.
		"opt.Tabstop":       opt.Tabstop,
		"opt.Expandtab":     opt.Expandtab,
		"opt.Commentstring": opt.Commentstring,
		// Local to window; 'foldcolumn' is a Number in Vim, a String in Neovim.
		"opt.Numberwidth": opt.Numberwidth,
		"opt.Wrap":        opt.Wrap,
		"opt.Colorcolumn": opt.Colorcolumn,
		"opt.Foldcolumn":  opt.Foldcolumn,
		// Global-local.
		"opt.Autoread":   opt.Autoread,
		"opt.Undolevels": opt.Undolevels,
		"opt.Tags":       opt.Tags,
		"opt.Scrolloff":  opt.Scrolloff,
		"opt.Statusline": opt.Statusline,
		// One editor only.
		"vimopt.Compatible": vimopt.Compatible,
		"nvimopt.Winbar":    nvimopt.Winbar,
	}
}

// counter is a vigor.Caller that counts the calls that reach the editor.
type counter struct {
	vigor.Caller
	calls *atomic.Int64
}

func (c counter) CallInto(ctx context.Context, result any, fn string, args ...any) error {
	c.calls.Add(1)
	return c.Caller.CallInto(ctx, result, fn, args...)
}

func (c counter) EvalInto(ctx context.Context, result any, expr string, vars map[string]any) error {
	c.calls.Add(1)
	return c.Caller.EvalInto(ctx, result, expr, vars)
}

func (c counter) Cmd(ctx context.Context, cmd string, vars map[string]any) error {
	c.calls.Add(1)
	return c.Caller.Cmd(ctx, cmd, vars)
}

func setup(ctx context.Context, p *vigor.Plugin) error {
	opts := options()
	// opt calls method of the option name with args and returns its result
	// (nil for a method without one).
	p.Handle("opt", func(ctx context.Context, name, method string, args ...any) (any, error) {
		return call(ctx, p, opts, name, method, args)
	})
	// calls is as opt, but returns the error's text and how many calls
	// reached the editor.
	p.Handle("calls", func(ctx context.Context, name, method string, args ...any) map[string]any {
		var n atomic.Int64
		_, err := call(ctx, counter{p, &n}, opts, name, method, args)
		msg := ""
		if err != nil {
			msg = err.Error()
		}
		return map[string]any{"error": msg, "calls": n.Load()}
	})
	// batch runs steps, each [name, method, args...], in one batch: a
	// method that returns a value gets b.Into a pointer of its type. It
	// returns the values the methods returned inside the batch (the zero
	// values), the results once the batch has run, and the error's text,
	// failing index and partial results.
	p.Handle("batch", func(ctx context.Context, steps [][]any) (map[string]any, error) {
		inside := make([]any, len(steps))
		ptrs := make([]reflect.Value, len(steps))
		err := p.Batch(ctx, func(b *vigor.Batch) error {
			for i, s := range steps {
				name, _ := s[0].(string)
				method, _ := s[1].(string)
				var c vigor.Caller = b
				if t, ok := returnType(opts, name, method); ok {
					ptrs[i] = reflect.New(t)
					c = b.Into(ptrs[i].Interface())
				}
				v, err := call(ctx, c, opts, name, method, s[2:])
				if err != nil {
					return err
				}
				inside[i] = v
			}
			return nil
		})
		results := make([]any, len(steps))
		for i, p := range ptrs {
			if p.IsValid() {
				results[i] = p.Elem().Interface()
			}
		}
		out := map[string]any{"inside": inside, "results": results, "error": "", "index": -1, "partial": []any{}}
		var be *vigor.BatchError
		if errors.As(err, &be) {
			out["index"], out["partial"] = be.Index, be.Results
		}
		if err != nil {
			out["error"] = err.Error()
		}
		return out, nil
	})
	return nil
}

// returnType is the type of the value that method of opts[name] returns,
// if it returns one.
func returnType(opts map[string]any, name, method string) (reflect.Type, bool) {
	o, ok := opts[name]
	if !ok {
		return nil, false
	}
	m := reflect.ValueOf(o).MethodByName(method)
	if !m.IsValid() || m.Type().NumOut() != 2 {
		return nil, false
	}
	return m.Type().Out(0), true
}

// call calls the method of opts[name] through c, with args converted to
// its parameters after ctx and c.
func call(ctx context.Context, c vigor.Caller, opts map[string]any, name, method string, args []any) (any, error) {
	o, ok := opts[name]
	if !ok {
		return nil, fmt.Errorf("no option %s", name)
	}
	m := reflect.ValueOf(o).MethodByName(method)
	if !m.IsValid() {
		return nil, fmt.Errorf("%s has no method %s", name, method)
	}
	t := m.Type()
	if t.NumIn() != 2+len(args) {
		return nil, fmt.Errorf("%s.%s takes %d arguments", name, method, t.NumIn()-2)
	}
	in := []reflect.Value{reflect.ValueOf(ctx), reflect.ValueOf(c)}
	for i, a := range args {
		v := reflect.ValueOf(a)
		want := t.In(2 + i)
		if !v.IsValid() || !v.CanConvert(want) || v.Kind() == reflect.String && want.Kind() != reflect.String {
			return nil, fmt.Errorf("%s.%s: argument %d: %T is not a %s", name, method, i+1, a, want)
		}
		in = append(in, v.Convert(want))
	}
	out := m.Call(in)
	if err, _ := out[len(out)-1].Interface().(error); err != nil {
		return nil, err
	}
	if len(out) == 1 {
		return nil, nil
	}
	return out[0].Interface(), nil
}
