package helper

import (
	"context"
	"strings"
	"testing"

	"github.com/vigorvim/vigor"
)

// noEditor fails the test on any call: bad input must fail before one.
type noEditor struct{ t *testing.T }

func (e noEditor) CallInto(context.Context, any, string, ...any) error {
	e.t.Error("a call to the editor")
	return nil
}

func (e noEditor) EvalInto(context.Context, any, string, map[string]any) error {
	e.t.Error("an evaluation")
	return nil
}

func (e noEditor) Cmd(context.Context, string, map[string]any) error {
	e.t.Error("a command")
	return nil
}

func (noEditor) Meta() vigor.Meta                        { return vigor.Meta{} }
func (noEditor) Batching() (*vigor.Plugin, *vigor.Batch) { return nil, nil }

func TestBadInputNoCall(t *testing.T) {
	ctx := context.Background()
	c := noEditor{t}
	dir := t.TempDir()
	_, _, inputErr := Input(ctx, c, InputOptions{Completion: "file", Complete: "x"})
	complete := func(context.Context, string, string, int) ([]string, error) { return nil, nil }
	_, _, twoErr := Input(ctx, c, InputOptions{Complete: "x", CompleteFunc: complete})
	_, _, noPluginErr := Input(ctx, c, InputOptions{CompleteFunc: complete})
	for _, tc := range []struct {
		err  error
		want string
	}{
		{inputErr, "helper.Input: give one of Completion, Complete and CompleteFunc, not more"},
		{twoErr, "helper.Input: give one of Completion, Complete and CompleteFunc, not more"},
		{noPluginErr, "helper.Input: CompleteFunc needs a plugin to call, and this Caller has none"},
		{Load(ctx, c, "rel.vim"), "helper.Load: rel.vim: a relative path needs a plugin's directory"},
		{Load(ctx, c, dir+"/nosuch.vim"), "helper.Load: " + dir + "/nosuch.vim: no such file"},
		{Load(ctx, c, dir), "helper.Load: " + dir + " is a directory"},
	} {
		if tc.err == nil || !strings.HasPrefix(tc.err.Error(), tc.want) {
			t.Errorf("%v, want %s", tc.err, tc.want)
		}
	}
}
