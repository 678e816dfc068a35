// Command stdparse is the end-to-end tests' plugin for std/argument and
// std/bufname: a user command whose <q-args> it parses, and buffers named
// stdparse://... that it formats, loads (BufReadCmd) and parses back.
package main

import (
	"context"
	"reflect"

	"github.com/vigorvim/vigor"
	"github.com/vigorvim/vigor/std/argument"
	"github.com/vigorvim/vigor/std/bufname"
	"github.com/vigorvim/vigor/std/fn"
)

func main() {
	vigor.Main(setup)
}

func setup(ctx context.Context, p *vigor.Plugin) error {
	// parse is the StdParse command: the arguments as Go parses the
	// <q-args>, and whether argument.FArgs splits them as Vim's <f-args>.
	p.Handle("parse", func(line string, fargs []string) map[string]any {
		split := argument.FArgs(line)
		out := map[string]any{"qargs": line, "fargs": split,
			"fargs_equal": len(split) == 0 && len(fargs) == 0 || reflect.DeepEqual(split, fargs)}
		a, err := argument.Parse(line)
		if err != nil {
			out["error"] = err.Error()
			return out
		}
		if err := argument.ValidateFlags(a.Flags, "f", "name", "n"); err != nil {
			out["error"] = err.Error()
		}
		out["opts"], out["flags"], out["rest"], out["literal"] = a.Opts, a.Flags, a.Rest, a.Literal
		out["format"], _ = argument.Format(a)
		return out
	})
	// format is the name of a buffer of this plugin.
	p.Handle("format", func(expr string, params map[string][]string, fragment string) (string, error) {
		return bufname.Format(bufname.Bufname{Scheme: "stdparse", Expr: expr, Params: params, Fragment: fragment})
	})
	// read loads the buffer name (BufReadCmd) with its parts, one a line.
	p.Handle("read", func(ctx context.Context, name string) error {
		b, err := bufname.Parse(name)
		if err != nil {
			return err
		}
		lines := []string{b.Scheme, b.Expr, b.Params.Encode(), b.Fragment}
		_, err = fn.Setline(ctx, p, 1, lines)
		return err
	})
	// current parses the current buffer's name, as bufname() gives it.
	p.Handle("current", func(ctx context.Context) (map[string]any, error) {
		name, err := fn.Bufname(ctx, p)
		if err != nil {
			return nil, err
		}
		b, err := bufname.Parse(name)
		if err != nil {
			return nil, err
		}
		params := map[string]any{}
		for k, vs := range b.Params {
			params[k] = vs
		}
		return map[string]any{"name": name, "scheme": b.Scheme, "expr": b.Expr, "params": params, "fragment": b.Fragment}, nil
	})
	return p.Exec(ctx,
		`command! -nargs=* StdParse let g:stdparse = vigor#request('stdparse', 'parse', [<q-args>, [<f-args>]])`,
		`augroup stdparse`,
		`  autocmd!`,
		`  autocmd BufReadCmd stdparse://* call vigor#request('stdparse', 'read', [expand('<amatch>')])`,
		`augroup END`)
}
