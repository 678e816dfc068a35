package main

import (
	"fmt"
	"sort"
	"strings"
)

// A pkg is one generated package.
type pkg struct {
	name     string // fn, vimfn or nvimfn
	only     string // "" (both editors), "vim" or "nvim"
	funcs    map[string]*function
	skipped  []skip
	counts   counts
	wrappers []wrapper
	renames  []string // the names the collision fallback gave
}

// counts are the coverage figures every package's doc gives.
type counts struct {
	common, vim, nvim int
	commonSkipped     int
	vimSkipped        int
	nvimSkipped       int
}

// build sorts the functions into the three packages: a function is
// common when exists() is true in both editors, Vim-only or Neovim-only
// when only one has it. A function gets a wrapper when some source gives
// its signature; the others, and documented functions that the editor
// lacks, are skipped with the reason. nvim_* functions are the API's
// (std/nvimapi).
func build(in inputs) ([]*pkg, error) {
	vrows, err := parseVimTable(in.builtinTxt)
	if err != nil {
		return nil, err
	}
	nrows, err := parseVimfnLua(in.vimfnLua)
	if err != nil {
		return nil, err
	}
	vimRows, nvimRows := byName(vrows), byName(nrows)
	fn := &pkg{name: "fn", funcs: map[string]*function{}}
	vimfn := &pkg{name: "vimfn", only: "vim", funcs: map[string]*function{}}
	nvimfn := &pkg{name: "nvimfn", only: "nvim", funcs: map[string]*function{}}

	names := map[string]bool{}
	for _, m := range []map[string][]row{vimRows, nvimRows} {
		for n := range m {
			names[n] = true
		}
	}
	for _, l := range [][]string{in.vimAll, in.nvimAll} {
		for _, n := range l {
			names[n] = true
		}
	}
	for _, name := range sortedKeys(names) {
		if strings.HasPrefix(name, "nvim_") {
			continue
		}
		v, n := in.vimHas[name], in.nvimHas[name]
		vr, nr := vimRows[name], nvimRows[name]
		var vs side
		var note string
		if vr != nil {
			vs, note = checked(sideOf(vr), in.vimArgs[name], probeMax(sideOf(vr)))
		}
		if vr != nil && !v {
			vimfn.skipped = append(vimfn.skipped, skip{name, "builtin.txt lists it, but this Vim does not have it (exists() is 0)"})
		}
		if nr != nil && !n {
			nvimfn.skipped = append(nvimfn.skipped, skip{name, "vimfn.lua defines it, but this Neovim does not have it (exists() is 0)"})
		}
		switch {
		case v && n && (vr != nil || nr != nil):
			switch {
			case vr == nil:
				fn.funcs[name] = nvimOnly(sideOf(nr))
				fn.funcs[name].notes = append(fn.funcs[name].notes, "builtin.txt does not list it; the signature is Neovim's.")
			case nr == nil:
				fn.funcs[name] = vimOnly(vs)
				fn.funcs[name].notes = append(fn.funcs[name].notes, "vimfn.lua does not define it; the signature is Vim's.")
			default:
				f, err := common(vs, sideOf(nr))
				if err != nil {
					fn.skipped = append(fn.skipped, skip{name, err.Error()})
					continue
				}
				fn.funcs[name] = f
			}
			if f := fn.funcs[name]; f != nil && note != "" {
				f.notes = append([]string{note}, f.notes...)
			}
		case v && vr != nil:
			vimfn.funcs[name] = vimOnly(vs)
			if note != "" {
				vimfn.funcs[name].notes = append(vimfn.funcs[name].notes, note)
			}
		case n && nr != nil:
			nvimfn.funcs[name] = nvimOnly(sideOf(nr))
		case v:
			vimfn.skipped = append(vimfn.skipped, skip{name, "this Vim has it, but builtin.txt does not list it (no signature)"})
		case n:
			nvimfn.skipped = append(nvimfn.skipped, skip{name, "this Neovim has it, but vimfn.lua does not define it (no signature)"})
		}
	}
	pkgs := []*pkg{fn, vimfn, nvimfn}
	if err := fixesIn(pkgs); err != nil && in.strict {
		return nil, err
	}
	c := counts{common: len(fn.funcs), vim: len(vimfn.funcs), nvim: len(nvimfn.funcs),
		commonSkipped: len(fn.skipped), vimSkipped: len(vimfn.skipped), nvimSkipped: len(nvimfn.skipped)}
	for _, p := range pkgs {
		p.counts = c
		p.wrappers, p.renames = wrappers(p.funcs)
		sort.Slice(p.skipped, func(i, j int) bool { return p.skipped[i].name < p.skipped[j].name })
	}
	if c.common == 0 || c.vim == 0 || c.nvim == 0 {
		return nil, fmt.Errorf("a package would be empty: %+v", c)
	}
	return pkgs, nil
}

// probeMax is the largest number of arguments the arity probe tries for
// a function whose table side is s: three more than the table gives. A
// function that accepts that many is taken to accept any number.
func probeMax(s side) int { return s.max + 3 }

func byName(rows []row) map[string][]row {
	m := map[string][]row{}
	for _, r := range rows {
		m[r.name] = append(m[r.name], r)
	}
	return m
}
