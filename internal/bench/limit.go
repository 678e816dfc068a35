package bench

import (
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/vigorvim/vigor/internal/benchstat"
)

// The limit clients are small C programs (limit/*.c) that make the
// benchmark's round trips with nothing on top: vigor-bench builds them with
// the system C compiler into its cache, and again when their source or the
// compiler command changes.
//
//go:embed limit/*.c limit/*.h
var limitSources embed.FS

// A Limit is one limit line of an editor: a C client of one protocol.
type Limit struct {
	Name  string // as in the report: "callback", "command", "jobstart", "embed"
	About string // what it is, for the text report
	// Same marks the limit that speaks Vigor's own protocol in Vigor's
	// topology, the one Vigor's ratio is held against.
	Same bool
	run  func(ctx context.Context, bin, client string, o Options) (Pair, error)
}

// Limits returns the limit lines of editor, the one of Vigor's protocol
// first.
func Limits(editor string) []Limit {
	if editor == "vim" {
		return []Limit{
			{Name: "callback", Same: true, About: "C job, Vigor's callback protocol to the runtime's channel callback",
				run: func(ctx context.Context, bin, c string, o Options) (Pair, error) {
					return runVimLimit(ctx, bin, c, "callback", o)
				}},
			{Name: "command", About: "C job, Vim's channel command call, batch in a def loop",
				run: func(ctx context.Context, bin, c string, o Options) (Pair, error) {
					return runVimLimit(ctx, bin, c, "command", o)
				}},
		}
	}
	return []Limit{
		{Name: "jobstart", Same: true, About: "C jobstart() rpc child, msgpack-RPC as Vigor's",
			run: runNvimJobLimit},
		{Name: "embed", About: "C client of nvim --embed, msgpack-RPC as Vigor's",
			run: runNvimEmbedLimit},
	}
}

// LimitClients are the built clients: the binary of each editor.
type LimitClients map[string]string

// BuildLimitClients builds the limit clients into dir (a cache), unless
// the same sources were built there by the same compiler command. The
// compiler is $CC, or cc.
func BuildLimitClients(ctx context.Context, dir string) (LimitClients, error) {
	ccCmd := strings.Fields(os.Getenv("CC"))
	if len(ccCmd) == 0 {
		ccCmd = []string{"cc"}
	}
	cc, err := exec.LookPath(ccCmd[0])
	if err != nil {
		return nil, fmt.Errorf("no C compiler for the limit clients (%s, or $CC): install one (apt-get install gcc) or pass --limit=false", ccCmd[0])
	}
	flags := []string{"-O2", "-std=c11", "-Wall"}
	h := sha256.New()
	fmt.Fprintln(h, cc, strings.Join(ccCmd[1:], " "), strings.Join(flags, " "))
	files, err := fs.Glob(limitSources, "limit/*")
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		data, err := limitSources.ReadFile(f)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(h, "%s %d\n", f, len(data))
		h.Write(data)
	}
	out := filepath.Join(dir, "limit-"+hex.EncodeToString(h.Sum(nil))[:16])
	clients := LimitClients{"vim": filepath.Join(out, "vim-limit"), "nvim": filepath.Join(out, "nvim-limit")}
	if _, err := os.Stat(clients["nvim"]); err == nil {
		return clients, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp(dir, "build-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	for _, f := range files {
		data, _ := limitSources.ReadFile(f)
		if err := os.WriteFile(filepath.Join(tmp, filepath.Base(f)), data, 0o644); err != nil {
			return nil, err
		}
	}
	for _, ed := range []string{"vim", "nvim"} {
		args := append(append(append([]string{}, ccCmd[1:]...), flags...), "-o", ed+"-limit", ed+".c")
		cmd := exec.CommandContext(ctx, cc, args...)
		cmd.Dir = tmp
		if msg, err := cmd.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("building the %s limit client: %s %s: %w: %s", ed, cc, strings.Join(args, " "), err, strings.TrimSpace(string(msg)))
		}
	}
	// The binaries appear at once, whole, under their final name: another
	// vigor-bench that builds at the same time finds either none or both.
	if err := os.Rename(tmp, out); err != nil {
		if _, serr := os.Stat(clients["nvim"]); serr == nil {
			return clients, nil
		}
		return nil, err
	}
	return clients, nil
}

// clientArgs are the arguments of a limit client (limit/limit.h).
func clientArgs(client, protocol string, o Options, out string) []string {
	return []string{client, protocol, fmt.Sprint(o.Size), fmt.Sprint(o.Count), fmt.Sprint(o.N), fmt.Sprint(benchstat.WarmUp), out}
}

// readSamples reads what a limit client wrote to out; on failure its
// stderr, in errFile, says why.
func readSamples(o Options, out, errFile string) (Pair, error) {
	data, err := os.ReadFile(out)
	if err == nil {
		var s struct{ Call, Batch []float64 }
		if err = json.Unmarshal(data, &s); err == nil {
			return Pair{Call: benchstat.NewResult(o.Size, o.Count, s.Call), Batch: benchstat.NewResult(o.Size, o.Count, s.Batch)}, nil
		}
	}
	msg, _ := os.ReadFile(errFile)
	return Pair{}, fmt.Errorf("no results: %w: %s", err, strings.TrimSpace(string(msg)))
}

// runVimLimit has Vim start the client as a JSON job with the options
// that the runtime gives a plugin's job (_internal/job.vim), with the
// runtime's channel callback for the callback protocol.
func runVimLimit(ctx context.Context, bin, client, protocol string, o Options) (Pair, error) {
	dir, out, errFile, err := runDir()
	if err != nil {
		return Pair{}, err
	}
	defer os.RemoveAll(dir)
	var script strings.Builder
	fmt.Fprintf(&script, "set runtimepath^=%s,%s\n", escapeRTP(o.Root), escapeRTP(filepath.Join(o.Root, "benchmark")))
	script.WriteString(`def g:VigorBenchBatch(calls: list<any>): list<any>
  var results: list<any> = []
  for c in calls
    results->add(call(c[0], c[1]))
  endfor
  return results
enddef
`)
	fmt.Fprintf(&script, "let s:opts = {'mode': 'json', 'noblock': 1, 'stoponexit': 'term', 'err_io': 'file', 'err_name': %s, 'exit_cb': {j, s -> execute('qa!')}}\n", vimString(errFile))
	if protocol == "callback" {
		script.WriteString("let s:opts.callback = function('vigor#_internal#api#vim#on_call')\n")
	}
	fmt.Fprintf(&script, "let g:vigor_bench_job = job_start(%s, s:opts)\n", vimList(clientArgs(client, protocol, o, out)))
	if err := runEditor(ctx, "vim", bin, dir, script.String(), o, nil); err != nil {
		return Pair{}, err
	}
	return readSamples(o, out, errFile)
}

// runDir makes the directory of one limit client's run (the caller
// removes it): the client writes its results to out and its errors to
// errFile.
func runDir() (dir, out, errFile string, err error) {
	dir, err = os.MkdirTemp("", "vigor-bench-")
	if err != nil {
		return "", "", "", err
	}
	return dir, filepath.Join(dir, "result.json"), filepath.Join(dir, "client.err"), nil
}

// runNvimJobLimit has Neovim start the client with jobstart() as an rpc
// child, with the callbacks that the runtime gives a plugin's job.
func runNvimJobLimit(ctx context.Context, bin, client string, o Options) (Pair, error) {
	dir, out, errFile, err := runDir()
	if err != nil {
		return Pair{}, err
	}
	defer os.RemoveAll(dir)
	var script strings.Builder
	fmt.Fprintf(&script, "set runtimepath^=%s\n", escapeRTP(filepath.Join(o.Root, "benchmark")))
	fmt.Fprintf(&script, "let g:vigor_bench_err = %s\n", vimString(errFile))
	fmt.Fprintf(&script, "let g:vigor_bench_job = jobstart(%s, {'rpc': v:true, 'on_stderr': {j, d, e -> writefile(d, g:vigor_bench_err, 'a')}, 'on_exit': {j, c, e -> execute('qa!')}})\n",
		vimList(clientArgs(client, "jobstart", o, out)))
	if err := runEditor(ctx, "nvim", bin, dir, script.String(), o, nil); err != nil {
		return Pair{}, err
	}
	return readSamples(o, out, errFile)
}

// runNvimEmbedLimit starts `nvim --embed` and the client, each on one end
// of the other's pipes.
func runNvimEmbedLimit(ctx context.Context, bin, client string, o Options) (Pair, error) {
	dir, out, errFile, err := runDir()
	if err != nil {
		return Pair{}, err
	}
	defer os.RemoveAll(dir)
	ctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	toNvim, fromClient, err := os.Pipe()
	if err != nil {
		return Pair{}, err
	}
	fromNvim, toClient, err := os.Pipe()
	if err != nil {
		toNvim.Close()
		fromClient.Close()
		return Pair{}, err
	}
	nvim := o.command(ctx, bin, "--embed", "--headless", "-u", "NONE", "-i", "NONE", "-n",
		"--cmd", "set runtimepath^="+escapeRTP(filepath.Join(o.Root, "benchmark")))
	nvim.Stdin, nvim.Stdout = toNvim, toClient
	args := clientArgs(client, "embed", o, out)
	cli := o.command(ctx, args[0], args[1:]...)
	cli.Stdin, cli.Stdout = fromNvim, fromClient
	ef, err := os.Create(errFile)
	if err != nil {
		return Pair{}, err
	}
	defer ef.Close()
	cli.Stderr = ef
	startErr := nvim.Start()
	if startErr == nil {
		if startErr = cli.Start(); startErr != nil {
			nvim.Process.Kill()
			nvim.Wait()
		}
	}
	for _, f := range []*os.File{toNvim, fromClient, fromNvim, toClient} {
		f.Close()
	}
	if startErr != nil {
		return Pair{}, startErr
	}
	if err := cli.Wait(); err != nil {
		nvim.Wait()
		msg, _ := os.ReadFile(errFile)
		return Pair{}, fmt.Errorf("the client: %w: %s", err, strings.TrimSpace(string(msg)))
	}
	// Neovim may see its channel close before it runs the client's last
	// "qa!", and then exits with 1: the client's results tell whether
	// the run worked.
	_ = nvim.Wait()
	return readSamples(o, out, errFile)
}

func vimList(args []string) string {
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = vimString(a)
	}
	return "[" + strings.Join(quoted, ", ") + "]"
}
