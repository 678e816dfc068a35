package bench

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/vmihailenco/msgpack/v5"

	"github.com/vigorvim/vigor/internal/benchstat"
)

const discard = "vigor_benchmark#discard"

// runVimBaseline has Vim start `vigor-bench client` as a JSON job; the
// client times the round trips itself and writes its results to a file.
func runVimBaseline(ctx context.Context, bin string, o Options) (Pair, error) {
	dir, err := os.MkdirTemp("", "vigor-bench-")
	if err != nil {
		return Pair{}, err
	}
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "result.json")
	errFile := filepath.Join(dir, "client.err")
	var script strings.Builder
	fmt.Fprintf(&script, "set runtimepath^=%s\n", escapeRTP(filepath.Join(o.Root, "benchmark")))
	script.WriteString(`def g:VigorBenchBatch(calls: list<any>): list<any>
  var results: list<any> = []
  for c in calls
    results->add(call(c[0], c[1]))
  endfor
  return results
enddef
`)
	args := []string{o.Self, ClientCommand, "-size", fmt.Sprint(o.Size), "-count", fmt.Sprint(o.Count), "-n", fmt.Sprint(o.N), "-out", out}
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = vimString(a)
	}
	fmt.Fprintf(&script, "let g:vigor_bench_job = job_start([%s], {'mode': 'json', 'err_io': 'file', 'err_name': %s})\n",
		strings.Join(quoted, ", "), vimString(errFile))
	if err := runEditor(ctx, "vim", bin, dir, script.String(), o.Timeout, nil); err != nil {
		return Pair{}, err
	}
	p, err := readPair(out)
	if err != nil {
		msg, _ := os.ReadFile(errFile)
		return Pair{}, fmt.Errorf("%w: %s", err, strings.TrimSpace(string(msg)))
	}
	return p, nil
}

// VimClient is the Vim baseline: one goroutine, encoding/json, blocking
// reads and writes on its stdio, Vim's channel commands and nothing else.
// It writes its Pair as JSON to out and quits Vim.
func VimClient(in io.Reader, w io.Writer, size, count, n int, out string) error {
	r := json.NewDecoder(bufio.NewReader(in))
	data := strings.Repeat(".", size)
	id := 0
	call := func(fn string, args ...any) error {
		id++
		msg, err := json.Marshal([]any{"call", fn, args, -id})
		if err != nil {
			return err
		}
		if _, err := w.Write(append(msg, '\n')); err != nil {
			return err
		}
		var reply []json.RawMessage
		if err := r.Decode(&reply); err != nil {
			return err
		}
		if len(reply) != 2 || string(reply[0]) != fmt.Sprint(-id) {
			return fmt.Errorf("unexpected reply %s", reply)
		}
		if string(reply[1]) == `"ERROR"` {
			return fmt.Errorf("%s failed in Vim", fn)
		}
		return nil
	}
	if err := call(discard, data); err != nil { // load the autoload file
		return err
	}
	var p Pair
	var err error
	p.Call, err = timeIt(size, count, n, func() error {
		for i := 0; i < count; i++ {
			if err := call(discard, data); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	calls := make([]any, count)
	for i := range calls {
		calls[i] = []any{discard, []any{data}}
	}
	p.Batch, err = timeIt(size, count, n, func() error { return call("VigorBenchBatch", calls) })
	if err != nil {
		return err
	}
	js, err := json.Marshal(p)
	if err != nil {
		return err
	}
	if err := os.WriteFile(out, js, 0o644); err != nil {
		return err
	}
	_, err = w.Write([]byte(`["ex","qa!"]` + "\n"))
	return err
}

// timeIt runs f n times, after benchstat.WarmUp untimed runs (as the
// vigor-benchmark plugin does).
func timeIt(size, count, n int, f func() error) (benchstat.Result, error) {
	for range benchstat.WarmUp {
		if err := f(); err != nil {
			return benchstat.Result{}, err
		}
	}
	samples := make([]float64, 0, n)
	for i := 0; i < n; i++ {
		start := time.Now()
		if err := f(); err != nil {
			return benchstat.Result{}, err
		}
		samples = append(samples, float64(time.Since(start).Nanoseconds())/1e6)
	}
	return benchstat.NewResult(size, count, samples), nil
}

// runNvimBaseline is the Neovim baseline: this process starts
// `nvim --embed` and speaks msgpack-RPC to it by hand, synchronously.
func runNvimBaseline(ctx context.Context, bin string, o Options) (Pair, error) {
	ctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--embed", "--headless", "-u", "NONE", "-i", "NONE", "-n",
		"--cmd", "set runtimepath^="+escapeRTP(filepath.Join(o.Root, "benchmark")))
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return Pair{}, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return Pair{}, err
	}
	if err := cmd.Start(); err != nil {
		return Pair{}, err
	}
	defer func() {
		stdin.Close()
		_ = cmd.Wait()
	}()
	bw := bufio.NewWriter(stdin)
	enc := msgpack.NewEncoder(bw)
	dec := msgpack.NewDecoder(bufio.NewReader(stdout))
	data := strings.Repeat(".", o.Size)
	id := 0
	request := func(method string, encodeParams func() error) error {
		id++
		if err := errors.Join(enc.EncodeArrayLen(4), enc.EncodeInt(0), enc.EncodeInt(int64(id)),
			enc.EncodeString(method), encodeParams(), bw.Flush()); err != nil {
			return err
		}
		n, err := dec.DecodeArrayLen()
		if err != nil || n != 4 {
			return fmt.Errorf("bad reply (%d items): %v", n, err)
		}
		typ, _ := dec.DecodeInt()
		rid, _ := dec.DecodeInt()
		e, err := dec.DecodeInterface()
		if err != nil || typ != 1 || rid != id {
			return fmt.Errorf("bad reply %d/%d: %v", typ, rid, err)
		}
		if e != nil {
			return fmt.Errorf("%s: %v", method, e)
		}
		return dec.Skip()
	}
	callParams := func() error {
		return errors.Join(enc.EncodeArrayLen(2), enc.EncodeString(discard), enc.EncodeArrayLen(1), enc.EncodeString(data))
	}
	call := func() error { return request("nvim_call_function", callParams) }
	if err := call(); err != nil {
		return Pair{}, err
	}
	var p Pair
	p.Call, err = timeIt(o.Size, o.Count, o.N, func() error {
		for i := 0; i < o.Count; i++ {
			if err := call(); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return Pair{}, err
	}
	p.Batch, err = timeIt(o.Size, o.Count, o.N, func() error {
		return request("nvim_call_atomic", func() error {
			errs := []error{enc.EncodeArrayLen(1), enc.EncodeArrayLen(o.Count)}
			for i := 0; i < o.Count; i++ {
				errs = append(errs, enc.EncodeArrayLen(2), enc.EncodeString("nvim_call_function"), callParams())
			}
			return errors.Join(errs...)
		})
	})
	if err != nil {
		return Pair{}, err
	}
	_ = errors.Join(enc.EncodeArrayLen(3), enc.EncodeInt(2), enc.EncodeString("nvim_command"),
		enc.EncodeArrayLen(1), enc.EncodeString("qa!"), bw.Flush())
	return p, nil
}
