// Command nvimapi generates std/nvimapi, a typed wrapper of every nvim_*
// function of Neovim 0.11.4's API, from `nvim --api-info`, checked against
// exists('*name') in the running Neovim (the wrappers call the API through
// Vim script, as every call of the SDK does). std/nvimapi/gen.go runs it
// with go generate; TestGeneratedIsCurrent fails when the committed output
// is stale.
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/vmihailenco/msgpack/v5"

	"github.com/vigorvim/vigor/internal/gen/internal/gen"
)

func main() {
	out := flag.String("out", ".", "the directory of package nvimapi")
	flag.Parse()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	src, _, err := generate(ctx)
	if err == nil {
		err = gen.Write(map[string][]byte{filepath.Join(*out, "nvimapi_gen.go"): src})
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen/nvimapi:", err)
		os.Exit(1)
	}
}

// apiInfo is what `nvim --api-info` reports that the generator uses.
type apiInfo struct {
	Version struct {
		Major    int `msgpack:"major"`
		Minor    int `msgpack:"minor"`
		Patch    int `msgpack:"patch"`
		APILevel int `msgpack:"api_level"`
	} `msgpack:"version"`
	Functions []apiFunc `msgpack:"functions"`
}

type apiFunc struct {
	Name            string     `msgpack:"name"`
	Parameters      [][]string `msgpack:"parameters"` // [type, name]
	ReturnType      string     `msgpack:"return_type"`
	Since           int        `msgpack:"since"`
	DeprecatedSince int        `msgpack:"deprecated_since"`
}

// generate reads the pinned Neovim and returns the package's source and
// content.
func generate(ctx context.Context) ([]byte, api, error) {
	var a api
	nvim, err := gen.Find("nvim")
	if err != nil {
		return nil, a, err
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, nvim.Path, "--api-info")
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, a, fmt.Errorf("%s --api-info: %w: %s", nvim.Path, err, strings.TrimSpace(stderr.String()))
	}
	info, err := parseAPIInfo(stdout.Bytes())
	if err != nil {
		return nil, a, err
	}
	v := info.Version
	if err := gen.CheckPinned(nvim, fmt.Sprintf("%d.%d.%d", v.Major, v.Minor, v.Patch)); err != nil {
		return nil, a, err
	}
	var has map[string]bool
	if err := nvim.Run(ctx, probe, nil, &has); err != nil {
		return nil, a, err
	}
	a = build(info, has)
	src, err := emit(a)
	return src, a, err
}

// probe reports exists() for every nvim_* function: whether Vim script
// (and so the SDK's calls) can reach it.
const probe = `let s:has = {}
for s:f in api_info().functions
  let s:has[s:f.name] = exists('*' . s:f.name) ? v:true : v:false
endfor
call writefile([json_encode(s:has)], $VIGOR_GEN_OUT)
qa!
`

func parseAPIInfo(data []byte) (apiInfo, error) {
	var info apiInfo
	if err := msgpack.Unmarshal(data, &info); err != nil {
		return info, fmt.Errorf("nvim --api-info: %w", err)
	}
	if len(info.Functions) == 0 {
		return info, fmt.Errorf("nvim --api-info: no functions")
	}
	return info, nil
}
