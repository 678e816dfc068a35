// Command fn generates the std packages of builtin functions (std/fn,
// std/vimfn, std/nvimfn) from the pinned editors: Vim's
// doc/builtin.txt and Neovim's lua/vim/_meta/vimfn.lua, each checked
// against exists('*name') in the running editor. std/fn/gen.go runs it
// with go generate; TestGeneratedIsCurrent fails when the committed output
// is stale.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/vigorvim/vigor/internal/gen/internal/gen"
)

func main() {
	out := flag.String("out", "..", "the std directory, where fn/, vimfn/ and nvimfn/ are written")
	flag.Parse()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	files, _, err := generate(ctx, *out)
	if err == nil {
		err = gen.Write(files)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen/fn:", err)
		os.Exit(1)
	}
}

// inputs are the facts the packages are generated from.
type inputs struct {
	builtinTxt string          // Vim's doc/builtin.txt
	vimfnLua   string          // Neovim's lua/vim/_meta/vimfn.lua
	vimHas     map[string]bool // exists('*name') in Vim, for every name below
	nvimHas    map[string]bool
	vimAll     []string // the builtin functions Vim completes
	nvimAll    []string
	// vimArgs holds, for each function of Vim's table, the numbers of
	// arguments that Vim's compiler accepts (arityProbe); nil when not
	// checked.
	vimArgs map[string][]int
	// strict fails the generation on a fix (fixes.go) of a function or
	// parameter that the sources lack: set for the pinned editors, whose
	// sources have all.
	strict bool
}

// generate reads the pinned editors and returns the files to write under
// std (path to content), and the packages they hold.
func generate(ctx context.Context, std string) (map[string][]byte, []*pkg, error) {
	in, err := readEditors(ctx)
	if err != nil {
		return nil, nil, err
	}
	pkgs, err := build(in)
	if err != nil {
		return nil, nil, err
	}
	files := map[string][]byte{}
	for _, p := range pkgs {
		src, err := p.emit()
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", p.name, err)
		}
		files[filepath.Join(std, p.name, p.name+"_gen.go")] = src
	}
	return files, pkgs, nil
}

// probe is the script that reports an editor's version, runtime, the
// builtin functions it completes (their names start with a lower-case
// letter; the runtime's own plugins define some upper-case ones), and exists() for the names in
// $VIGOR_GEN_NAMES (one a line).
const probe = `let s:names = readfile($VIGOR_GEN_NAMES)
let s:all = map(filter(getcompletion('', 'function'), 'v:val =~# "^[a-z][a-zA-Z0-9_]*("'), 'matchstr(v:val, "^[^(]*")')
let s:has = {}
for s:n in s:names + s:all
  let s:has[s:n] = exists('*' . s:n) ? v:true : v:false
endfor
call writefile([json_encode({'version': ` + gen.VersionScript + `, 'runtime': $VIMRUNTIME, 'all': s:all, 'has': s:has})], $VIGOR_GEN_OUT)
qa!
`

type probeResult struct {
	Version string          `json:"version"`
	Runtime string          `json:"runtime"`
	All     []string        `json:"all"`
	Has     map[string]bool `json:"has"`
}

// readEditors runs both pinned editors for their sources and exists().
func readEditors(ctx context.Context) (inputs, error) {
	in := inputs{strict: true}
	vim, err := gen.Find("vim")
	if err != nil {
		return in, err
	}
	nvim, err := gen.Find("nvim")
	if err != nil {
		return in, err
	}
	// First the runtimes (names unknown yet), then exists() for the
	// documented names.
	names := filepath.Join(os.TempDir(), fmt.Sprintf("vigor-gen-names-%d", os.Getpid()))
	defer os.Remove(names)
	if err := os.WriteFile(names, nil, 0o600); err != nil {
		return in, err
	}
	env := []string{"VIGOR_GEN_NAMES=" + names}
	var vr, nr probeResult
	for _, e := range []struct {
		ed  gen.Editor
		res *probeResult
	}{{vim, &vr}, {nvim, &nr}} {
		if err := e.ed.Run(ctx, probe, env, e.res); err != nil {
			return in, err
		}
		if err := gen.CheckPinned(e.ed, e.res.Version); err != nil {
			return in, err
		}
	}
	txt, err := os.ReadFile(filepath.Join(vr.Runtime, "doc", "builtin.txt"))
	if err != nil {
		return in, err
	}
	lua, err := os.ReadFile(filepath.Join(nr.Runtime, "lua", "vim", "_meta", "vimfn.lua"))
	if err != nil {
		return in, err
	}
	in.builtinTxt, in.vimfnLua = string(txt), string(lua)
	vrows, err := parseVimTable(in.builtinTxt)
	if err != nil {
		return in, err
	}
	nrows, err := parseVimfnLua(in.vimfnLua)
	if err != nil {
		return in, err
	}
	var all []string
	for _, r := range append(vrows, nrows...) {
		all = append(all, r.name)
	}
	if err := os.WriteFile(names, []byte(strings.Join(all, "\n")+"\n"), 0o600); err != nil {
		return in, err
	}
	if err := vim.Run(ctx, probe, env, &vr); err != nil {
		return in, err
	}
	if err := nvim.Run(ctx, probe, env, &nr); err != nil {
		return in, err
	}
	in.vimHas, in.nvimHas, in.vimAll, in.nvimAll = vr.Has, nr.Has, vr.All, nr.All
	var tries []string
	for name, rows := range byName(vrows) {
		if vr.Has[name] {
			tries = append(tries, fmt.Sprintf("%s %d", name, probeMax(sideOf(rows))))
		}
	}
	if err := os.WriteFile(names, []byte(strings.Join(tries, "\n")+"\n"), 0o600); err != nil {
		return in, err
	}
	if err := vim.Run(ctx, arityProbe, env, &in.vimArgs); err != nil {
		return in, err
	}
	return in, nil
}

// arityProbe is the script that finds, for each "name max" line of
// $VIGOR_GEN_NAMES, the numbers of arguments from 0 to max that Vim
// accepts for the builtin function name. It compiles a :def function that
// calls it with that many arguments and never runs it: Vim's compiler
// checks the count of a builtin's arguments (E118 too many, E119 not
// enough), so nothing is called. Any other error (a type) still means the
// count is right. Neovim has no such check that does not call the function.
const arityProbe = `let s:out = {}
for s:line in readfile($VIGOR_GEN_NAMES)
  let [s:name, s:max] = split(s:line)
  let s:ok = []
  for s:n in range(str2nr(s:max) + 1)
    let s:fn = 'VigorGenProbe_' . s:name . '_' . s:n
    try
      execute join(['def g:' . s:fn . '(a: any)', '  ' . s:name . '(' . join(repeat(['a'], s:n), ', ') . ')', 'enddef'], "\n")
      execute 'defcompile g:' . s:fn
      call add(s:ok, s:n)
    catch /E11[89]:/
    catch
      call add(s:ok, s:n)
    endtry
  endfor
  let s:out[s:name] = s:ok
endfor
call writefile([json_encode(s:out)], $VIGOR_GEN_OUT)
qa!
`
