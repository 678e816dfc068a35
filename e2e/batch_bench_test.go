package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/vigorvim/vigor/internal/editortest"
	"github.com/vigorvim/vigor/internal/host"
	"github.com/vigorvim/vigor/internal/protocol"
)

// BenchmarkBatch compares the ways to run a batch of 1000 calls (the
// benchmark's workload: a do-nothing function with a 64-character string)
// in each editor, through the test's own channel:
//
//	vim/vim9       vigor#_internal#api#vim#batch: a def loop in a legacy try (what Vigor uses)
//	vim/legacy     vigor#_internal#api#batch: a legacy script loop
//	nvim/atomic    nvim_call_atomic of nvim_call_function (deprecated)
//	nvim/lua       nvim_exec_lua with a Lua loop over vim.call
//	nvim/vimscript vigor#_internal#api#batch through nvim_call_function
//
// go test -run '^$' -bench Batch -benchtime 100x ./e2e/
func BenchmarkBatch(b *testing.B) {
	modes := map[string][]string{"vim": {"vim9", "legacy"}, "nvim": {"atomic", "lua", "vimscript"}}
	data := strings.Repeat("x", 64)
	calls := make([]host.Call, 1000)
	for i := range calls {
		calls[i] = host.Call{Fn: "Discard", Args: []any{data}}
	}
	for _, kind := range editortest.Kinds {
		ed := editortest.Start(b, kind, editortest.Options{})
		ed.MustExec(b, "function! Discard(x) abort\nendfunction")
		sess, codec := ed.Session()
		for _, mode := range modes[kind] {
			var ad host.Adapter
			switch mode {
			case "vim9":
				ad = host.NewAdapter("vim", sess, codec)
			case "legacy":
				v := host.NewAdapter("vim", sess, codec).(*host.Vim)
				v.BatchFunc = protocol.FuncBatch
				ad = v
			default:
				n := host.NewAdapter("nvim", sess, codec).(*host.Nvim)
				n.BatchMode = mode
				ad = n
			}
			b.Run(kind+"/"+mode, func(b *testing.B) {
				ctx := context.Background()
				for i := 0; i < b.N; i++ {
					res, err := host.RunBatch(ctx, ad, calls)
					if err != nil || len(res) != len(calls) {
						b.Fatalf("%d results, %v", len(res), err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1000, "ns/call")
			})
		}
	}
}
