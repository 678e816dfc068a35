package avail_test

import (
	"context"
	"testing"

	"github.com/vigorvim/vigor"
	"github.com/vigorvim/vigor/std/internal/avail"
)

// noCalls is a Caller of the given editor that fails the test on any call.
type noCalls struct {
	t    *testing.T
	host string
}

func (c noCalls) CallInto(ctx context.Context, result any, fn string, args ...any) error {
	c.t.Fatalf("called %s", fn)
	return nil
}

func (c noCalls) EvalInto(ctx context.Context, result any, expr string, vars map[string]any) error {
	c.t.Fatalf("evaluated %s", expr)
	return nil
}

func (c noCalls) Cmd(ctx context.Context, cmd string, vars map[string]any) error {
	c.t.Fatalf("ran %s", cmd)
	return nil
}

func (c noCalls) Meta() vigor.Meta { return vigor.Meta{Host: c.host} }

func (c noCalls) Batching() (*vigor.Plugin, *vigor.Batch) { return nil, nil }

func TestAvailability(t *testing.T) {
	vim, nvim := noCalls{t, "vim"}, noCalls{t, "nvim"}
	for _, tc := range []struct {
		err  error
		want string
	}{
		{avail.Vim(nvim, "vimfn.PopupCreate", "popup_create"), "vimfn.PopupCreate: popup_create() is a Vim function; Neovim does not have it"},
		{avail.Nvim(vim, "nvimfn.Stdpath", "stdpath"), "nvimfn.Stdpath: stdpath() is a Neovim function; Vim does not have it"},
		{avail.NvimAPI(vim, "nvimapi.BufGetLines", "nvim_buf_get_lines"), "nvimapi.BufGetLines: nvim_buf_get_lines() is a Neovim API function; Vim does not have it"},
		{avail.Vim(vim, "vimfn.PopupCreate", "popup_create"), ""},
		{avail.Nvim(nvim, "nvimfn.Stdpath", "stdpath"), ""},
		{avail.NvimAPI(nvim, "nvimapi.BufGetLines", "nvim_buf_get_lines"), ""},
	} {
		got := ""
		if tc.err != nil {
			got = tc.err.Error()
		}
		if got != tc.want {
			t.Errorf("error %q, want %q", got, tc.want)
		}
	}
}

func TestTruth(t *testing.T) {
	for v, want := range map[any]bool{int64(1): true, int64(0): false, int64(-1): true, true: true, false: false, "1": false, nil: false, 0.5: true} {
		if got := avail.Truth(v); got != want {
			t.Errorf("Truth(%#v) = %v, want %v", v, got, want)
		}
	}
}
