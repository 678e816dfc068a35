package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// editorTimeout bounds each run of an editor.
const editorTimeout = 60 * time.Second

// vimLive is what the running Vim says about one documented option.
type vimLive struct {
	Exists  bool   `json:"exists"`  // exists('+name'): this build has it
	String  bool   `json:"string"`  // its value is a String
	NoLocal string `json:"nolocal"` // string(&l:name) in a fresh Vim
}

// facts is everything the generator reads from the two editors.
type facts struct {
	VimVersion, NvimVersion string
	VimDoc                  []vimDoc
	VimLive                 map[string]vimLive
	Nvim                    []nvimOpt
	NvimNoLocal             map[string]string // string(&l:name) in a fresh Neovim
	// NvimHidden are the options that Neovim lists but does not have
	// (exists('+name') is false): names it keeps from Vim, which do nothing.
	NvimHidden map[string]bool
}

// The Vim scripts the editors run; each writes a JSON object to
// $VIGOR_GEN_OUT. Vim's version is its last patch of an unbroken run from
// patch 1 (a distribution's Vim may carry a few later patches, which
// v:versionlong would report). In Vim, $VIGOR_GEN_NAMES names a file of
// option names to check.
const (
	vimScript = `let s:patch = 0
while has(printf('patch-%d.%d.%d', v:version / 100, v:version % 100, s:patch + 1))
  let s:patch += 1
endwhile
let s:out = {'version': printf('%d.%d.%d', v:version / 100, v:version % 100, s:patch), 'runtime': $VIMRUNTIME, 'options': {}}
if $VIGOR_GEN_NAMES !=# ''
  for s:name in readfile($VIGOR_GEN_NAMES)
    let s:o = {'exists': exists('+' . s:name) ? v:true : v:false, 'string': v:false, 'nolocal': ''}
    if s:o.exists
      let s:o.string = type(eval('&' . s:name)) == v:t_string ? v:true : v:false
      let s:o.nolocal = string(eval('&l:' . s:name))
    endif
    let s:out.options[s:name] = s:o
  endfor
endif
call writefile([json_encode(s:out)], $VIGOR_GEN_OUT)
qall!
`
	nvimScript = `let s:v = api_info().version
let s:info = nvim_get_all_options_info()
let s:nolocal = {}
let s:hidden = []
for s:name in keys(s:info)
  if !exists('+' . s:name)
    call add(s:hidden, s:name)
  elseif s:info[s:name].global_local
    let s:nolocal[s:name] = string(eval('&l:' . s:name))
  endif
endfor
call writefile([json_encode({'version': printf('%d.%d.%d', s:v.major, s:v.minor, s:v.patch), 'info': s:info, 'nolocal': s:nolocal, 'hidden': sort(s:hidden)})], $VIGOR_GEN_OUT)
qall!
`
)

// collect runs vim and nvim (paths or names on $PATH) and reads the facts.
func collect(ctx context.Context, vim, nvim string) (*facts, error) {
	dir, err := os.MkdirTemp("", "vigor-gen-opt-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	f := &facts{}

	// Vim, once for $VIMRUNTIME, then with the documented names.
	var first struct{ Runtime string }
	if err := runEditor(ctx, dir, []string{vim, "-u", "NONE", "-i", "NONE", "-N", "-X", "-es", "-S"}, vimScript, nil, &first); err != nil {
		return nil, err
	}
	doc, err := os.ReadFile(filepath.Join(first.Runtime, "doc", "options.txt"))
	if err != nil {
		return nil, fmt.Errorf("vim: %w", err)
	}
	if f.VimDoc, err = parseVimDoc(string(doc)); err != nil {
		return nil, err
	}
	names := make([]string, len(f.VimDoc))
	for i, d := range f.VimDoc {
		names[i] = d.Name
	}
	namesFile := filepath.Join(dir, "names")
	if err := os.WriteFile(namesFile, []byte(strings.Join(names, "\n")+"\n"), 0o600); err != nil {
		return nil, err
	}
	var second struct {
		Version string
		Options map[string]vimLive
	}
	if err := runEditor(ctx, dir, []string{vim, "-u", "NONE", "-i", "NONE", "-N", "-X", "-es", "-S"}, vimScript, []string{"VIGOR_GEN_NAMES=" + namesFile}, &second); err != nil {
		return nil, err
	}
	f.VimVersion, f.VimLive = second.Version, second.Options

	var nv struct {
		Version string
		Info    json.RawMessage
		Nolocal map[string]string
		Hidden  []string
	}
	if err := runEditor(ctx, dir, []string{nvim, "--clean", "--headless", "-i", "NONE", "-S"}, nvimScript, xdg(dir), &nv); err != nil {
		return nil, err
	}
	if f.Nvim, err = parseNvimInfo(nv.Info); err != nil {
		return nil, err
	}
	f.NvimVersion, f.NvimNoLocal = nv.Version, nv.Nolocal
	f.NvimHidden = map[string]bool{}
	for _, name := range nv.Hidden {
		f.NvimHidden[name] = true
	}
	return f, nil
}

// runEditor runs argv with the script appended as its last argument and
// decodes the JSON that the script writes into out.
func runEditor(ctx context.Context, dir string, argv []string, script string, env []string, out any) error {
	ctx, cancel := context.WithTimeout(ctx, editorTimeout)
	defer cancel()
	scriptFile := filepath.Join(dir, "script.vim")
	outFile := filepath.Join(dir, "out.json")
	if err := os.WriteFile(scriptFile, []byte(script), 0o600); err != nil {
		return err
	}
	os.Remove(outFile)
	cmd := exec.CommandContext(ctx, argv[0], append(argv[1:], scriptFile)...)
	cmd.Env = append(append(os.Environ(), "VIGOR_GEN_OUT="+outFile), env...)
	cmd.Dir = dir
	if msg, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%s: %w\n%s", argv[0], err, msg)
	}
	data, err := os.ReadFile(outFile)
	if err != nil {
		return fmt.Errorf("%s wrote nothing: %w", argv[0], err)
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("%s: %w", argv[0], err)
	}
	return nil
}

// xdg points Neovim's XDG directories into dir, so that a run leaves
// nothing behind.
func xdg(dir string) []string {
	var env []string
	for _, v := range []string{"XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"} {
		env = append(env, v+"="+dir)
	}
	return env
}
