package e2e

import (
	"context"
	"errors"
	"testing"

	"github.com/vigorvim/vigor/internal/editortest"
	"github.com/vigorvim/vigor/internal/host"
	"github.com/vigorvim/vigor/internal/protocol"
)

// A failing call in a batch reads the same in every way a batch can run
// (Vim: the def helper and the legacy one; Neovim: nvim_call_atomic, Lua
// and the legacy helper, which the benchmarks compare) and on both
// editors: a builtin's error is "Vim:E...", without the Ex command of the
// helper's loop or wrapper ("Vim(call):", "Vim(return):").
func TestBatchErrorsSameInEveryMode(t *testing.T) {
	each(t, editortest.Options{}, func(t *testing.T, ed *editortest.Editor) {
		ed.MustExec(t, "function! BatchBad() abort\nlet x = nosuch\nendfunction")
		ed.MustExec(t, "function! BatchThrow() abort\nthrow 'custom'\nendfunction")
		sess, codec := ed.Session()
		adapters := map[string]host.Adapter{}
		if ed.Kind == "vim" {
			adapters["vim9"] = host.NewAdapter("vim", sess, codec)
			legacy := host.NewAdapter("vim", sess, codec).(*host.Vim)
			legacy.BatchFunc = protocol.FuncBatch
			adapters["legacy"] = legacy
		} else {
			for _, mode := range []string{"atomic", "lua", "vimscript"} {
				n := host.NewAdapter("nvim", sess, codec).(*host.Nvim)
				n.BatchMode = mode
				adapters[mode] = n
			}
		}
		for _, c := range []struct {
			call host.Call
			want string
		}{
			{host.Call{Fn: "setqflist", Args: []any{[]any{}, "xx"}}, "Vim:E927: Invalid action: 'xx'"},
			{host.Call{Fn: "BatchNoSuch", Args: []any{}}, "Vim:E117: Unknown function: BatchNoSuch"},
			{host.Call{Fn: "BatchBad", Args: []any{}}, "Vim(let):E121: Undefined variable: nosuch"},
			{host.Call{Fn: "BatchThrow", Args: []any{}}, "custom"},
		} {
			for mode, ad := range adapters {
				_, err := host.RunBatch(context.Background(), ad, []host.Call{{Fn: "abs", Args: []any{-1}}, c.call})
				var be *host.BatchError
				if !errors.As(err, &be) || be.Index != 1 || be.Msg != c.want {
					t.Errorf("%s/%s: %s: %#v, want the message %q", ed.Kind, mode, c.call.Fn, err, c.want)
				}
			}
		}
	})
}
