// Package bench is the benchmark of cmd/vigor-bench: it measures Vigor's call(), batch()
// and parallel() (the calls of call() made from several goroutines at once)
// in real headless editors, loading the vigor-benchmark plugin through the
// normal runtime (discovery, build, start), and, with Limit, the same
// round trips made by minimal C clients (limit.go, limit/*.c), the limit
// lines, in the same run:
//
//   - Vim: a job on Vigor's own callback protocol to the runtime's channel
//     callback (the limit of Vigor's protocol), and a job on Vim's channel
//     command "call" (the limit of Vim's channel, with the batch as a Vim9
//     def loop);
//   - Neovim: a jobstart() rpc child, in Vigor's topology, and a client of
//     `nvim --embed`, for reference; both speak msgpack-RPC as Vigor does
//     (nvim_call_function, nvim_call_atomic for the batch).
//
// Vigor over the limit of its own protocol is the figure to watch. Keep
// the clients honest and simple.
//
// With limits, the n iterations are split into rounds in which Vigor and
// each limit client run in turns (the first of the turn moving by one
// each round), each in fresh editors, and the samples of all rounds are
// pooled. On a shared VM the speed of a run depends on where the scheduler
// happens to place the editor and the client (the same or another CPU),
// and that placement tends to last for a whole process; one run of each
// side would compare two draws of it. Rounds give every side the same mix
// of draws and the same drift over time.
//
// With CPUs, every editor and so every job it starts (the plugin, the
// limit clients, the builds) runs under `taskset -c` on the last CPUs
// that vigor-bench may use.
package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/vigorvim/vigor/internal/benchstat"
)

// Options configure a run.
type Options struct {
	Editors []string // "vim", "nvim"
	Vim     string   // the vim binary
	Nvim    string   // the nvim binary
	Root    string   // the Vigor checkout
	Cache   string   // g:vigor#cache_dir; "" means the editor's default
	Size    int
	Count   int
	N       int
	// Limit runs the limit clients too, built into LimitCache.
	Limit      bool
	LimitCache string
	// Rounds splits N into this many rounds of turns (with Limit); 0
	// means DefaultRounds, or fewer when N is small.
	Rounds int
	// CPUs, if positive, runs the editors (and all their jobs) on that
	// many CPUs, the last ones vigor-bench may use, with taskset.
	CPUs    int
	Timeout time.Duration // per editor run (one round); 0 means 5 minutes
	// Progress, if set, gets a line of progress now and then.
	Progress func(string)

	cpuList string // taskset's list, for CPUs
}

// Pair is call() and batch() figures.
type Pair struct {
	Call  benchstat.Result `json:"call"`
	Batch benchstat.Result `json:"batch"`
}

// EditorReport is one editor's results.
type EditorReport struct {
	Editor  string `json:"editor"`
	Version string `json:"version"`
	// CPUs is the list of CPUs the editors ran on (taskset -c), or "".
	CPUs  string `json:"cpus,omitempty"`
	Vigor Pair   `json:"vigor"`
	// Parallel is Vigor's parallel workload: the count calls of call()
	// made by the plugin's benchstat.Workers goroutines at once. The limit clients,
	// one thread each, have none.
	Parallel benchstat.Result `json:"parallel"`
	Limits   []LimitResult    `json:"limits,omitempty"`
}

// LimitResult is the figures of one limit line.
type LimitResult struct {
	Name  string `json:"name"`
	About string `json:"about"`
	Same  bool   `json:"same_protocol"`
	Pair
}

// DefaultRounds is how many rounds of turns a run with limits has.
const DefaultRounds = 10

// Run runs the benchmark for each editor in opts.
func Run(ctx context.Context, opts Options) ([]EditorReport, error) {
	if opts.Timeout == 0 {
		// A round takes seconds; a hung editor or client fails the run
		// instead of holding it (and CI) for long.
		opts.Timeout = 5 * time.Minute
	}
	if opts.CPUs > 0 {
		list, err := lastCPUs(opts.CPUs)
		if err != nil {
			return nil, err
		}
		if _, err := exec.LookPath("taskset"); err != nil {
			return nil, fmt.Errorf("--cpus needs taskset (util-linux): %w", err)
		}
		opts.cpuList = list
	}
	var clients LimitClients
	rounds := 1
	if opts.Limit {
		var err error
		if clients, err = BuildLimitClients(ctx, opts.LimitCache); err != nil {
			return nil, err
		}
		rounds = opts.Rounds
		if rounds == 0 {
			rounds = min(DefaultRounds, max(1, opts.N/10))
		}
		rounds = min(rounds, opts.N)
	}
	var out []EditorReport
	for _, ed := range opts.Editors {
		bin := opts.Vim
		if ed == "nvim" {
			bin = opts.Nvim
		}
		rep := EditorReport{Editor: ed, Version: version(ed, bin), CPUs: opts.cpuList}
		var limits []Limit
		if opts.Limit {
			limits = Limits(ed)
		}
		// samples[0] is Vigor's, samples[1+i] limits[i]'s, one Pair a round;
		// parallel is Vigor's parallel workload, one Result a round.
		samples := make([][]Pair, 1+len(limits))
		var parallel []float64
		for r := 0; r < rounds; r++ {
			o := opts
			o.N = opts.N/rounds + btoi(r < opts.N%rounds)
			steps := []func() error{func() error {
				opts.progress("%s: vigor-benchmark through the Vigor runtime (size %d, count %d, n %d%s)",
					ed, o.Size, o.Count, o.N, roundNote(r, rounds))
				v, par, err := runVigor(ctx, ed, bin, o)
				if err != nil {
					return fmt.Errorf("%s: %w", ed, err)
				}
				samples[0] = append(samples[0], v)
				parallel = append(parallel, par.Samples...)
				return nil
			}}
			for i, l := range limits {
				steps = append(steps, func() error {
					opts.progress("%s: limit client %s (n %d%s)", ed, l.Name, o.N, roundNote(r, rounds))
					p, err := l.run(ctx, bin, clients[ed], o)
					if err != nil {
						return fmt.Errorf("%s limit client %s: %w", ed, l.Name, err)
					}
					samples[1+i] = append(samples[1+i], p)
					return nil
				})
			}
			for k := range steps {
				if err := steps[(k+r)%len(steps)](); err != nil {
					return out, err
				}
			}
		}
		rep.Vigor = pool(samples[0], opts)
		rep.Parallel = benchstat.NewResult(opts.Size, opts.Count, parallel)
		for i, l := range limits {
			rep.Limits = append(rep.Limits, LimitResult{Name: l.Name, About: l.About, Same: l.Same, Pair: pool(samples[1+i], opts)})
		}
		out = append(out, rep)
	}
	return out, nil
}

// pool joins the samples of rounds into one Pair.
func pool(rounds []Pair, o Options) Pair {
	var call, batch []float64
	for _, p := range rounds {
		call = append(call, p.Call.Samples...)
		batch = append(batch, p.Batch.Samples...)
	}
	return Pair{Call: benchstat.NewResult(o.Size, o.Count, call), Batch: benchstat.NewResult(o.Size, o.Count, batch)}
}

func roundNote(r, rounds int) string {
	if rounds == 1 {
		return ""
	}
	return fmt.Sprintf(", round %d of %d", r+1, rounds)
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (o Options) progress(format string, args ...any) {
	if o.Progress != nil {
		o.Progress(fmt.Sprintf(format, args...))
	}
}

func version(editor, bin string) string {
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		return "unknown"
	}
	line, _, _ := strings.Cut(string(out), "\n")
	if editor == "vim" {
		// Name the patch level too: "VIM - Vi IMproved 9.0 (...)" says little.
		for _, l := range strings.Split(string(out), "\n") {
			if strings.HasPrefix(l, "Included patches:") {
				return line[:strings.Index(line+" (", " (")] + ", " + strings.TrimSpace(l)
			}
		}
	}
	return line
}

// runVigor starts the editor with Vigor and the benchmark plugin on
// 'runtimepath', waits for the plugin to load, runs the benchmark and
// reads the results it writes: call and batch, and parallel.
func runVigor(ctx context.Context, editor, bin string, o Options) (Pair, benchstat.Result, error) {
	dir, err := os.MkdirTemp("", "vigor-bench-")
	if err != nil {
		return Pair{}, benchstat.Result{}, err
	}
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "result.json")
	var script strings.Builder
	fmt.Fprintf(&script, "set runtimepath^=%s,%s\n", escapeRTP(o.Root), escapeRTP(filepath.Join(o.Root, "benchmark")))
	if o.Cache != "" {
		fmt.Fprintf(&script, "let g:vigor#cache_dir = %s\n", vimString(o.Cache))
	}
	fmt.Fprintf(&script, "let g:vigor_bench_out = %s\n", vimString(out))
	fmt.Fprintf(&script, "autocmd User VigorPluginPost:vigor-benchmark call vigor_benchmark#start({'size': %d, 'count': %d, 'n': %d, 'progress': v:false})\n",
		o.Size, o.Count, o.N)
	script.WriteString("autocmd User VigorBenchmarkDone call writefile([json_encode(g:vigor_benchmark_result)], g:vigor_bench_out) | qa!\n")
	script.WriteString("autocmd User VigorPluginFail:vigor-benchmark call writefile([json_encode({'error': vigor#_internal#plugin#get('vigor-benchmark').error})], g:vigor_bench_out) | qa!\n")
	script.WriteString("runtime plugin/vigor.vim\nruntime plugin/vigor_benchmark.vim\n")
	if err := runEditor(ctx, editor, bin, dir, script.String(), o, nil); err != nil {
		return Pair{}, benchstat.Result{}, err
	}
	return readResults(out)
}

// readResults reads what the plugin wrote: its call and batch, and its
// parallel workload.
func readResults(path string) (Pair, benchstat.Result, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Pair{}, benchstat.Result{}, fmt.Errorf("no results: %w", err)
	}
	var res struct {
		Pair
		Parallel benchstat.Result `json:"parallel"`
		Error    string           `json:"error"`
	}
	if err := json.Unmarshal(data, &res); err != nil {
		return Pair{}, benchstat.Result{}, fmt.Errorf("cannot read the results: %w", err)
	}
	if res.Error != "" {
		return Pair{}, benchstat.Result{}, fmt.Errorf("%s", res.Error)
	}
	if len(res.Parallel.Samples) == 0 {
		return Pair{}, benchstat.Result{}, fmt.Errorf("the results lack the parallel workload (is -root an older checkout?)")
	}
	return res.Pair, res.Parallel, nil
}

// runEditor runs a headless editor that sources script, and waits until it
// quits. Vim in Ex mode reads commands from stdin, so stdin stays open.
func runEditor(ctx context.Context, editor, bin, dir, script string, o Options, env []string) error {
	path := filepath.Join(dir, "script.vim")
	if err := os.WriteFile(path, []byte(script), 0o644); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	var cmd *exec.Cmd
	if editor == "vim" {
		cmd = o.command(ctx, bin, "-N", "-u", "NONE", "-i", "NONE", "-n", "-es", "--cmd", "source "+path)
	} else {
		cmd = o.command(ctx, bin, "--headless", "-u", "NONE", "-i", "NONE", "-n", "--cmd", "source "+path)
	}
	cmd.Env = append(os.Environ(), env...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	cmd.Stdout = io.Discard
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s: %w: %s", filepath.Base(bin), err, strings.TrimSpace(stderr.String()))
	}
	stdin.Close()
	return nil
}

func vimString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

func escapeRTP(d string) string {
	d = strings.ReplaceAll(d, `\`, `\\`)
	d = strings.ReplaceAll(d, ",", `\,`)
	return strings.ReplaceAll(d, " ", `\ `)
}

// command is exec.CommandContext, under taskset with CPUs.
func (o Options) command(ctx context.Context, bin string, args ...string) *exec.Cmd {
	if o.cpuList == "" {
		return exec.CommandContext(ctx, bin, args...)
	}
	return exec.CommandContext(ctx, "taskset", append([]string{"-c", o.cpuList, bin}, args...)...)
}

// lastCPUs returns the last n of the CPUs this process may run on
// (Cpus_allowed_list in /proc/self/status), as a list for taskset -c.
func lastCPUs(n int) (string, error) {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "", fmt.Errorf("--cpus: %w", err)
	}
	var allowed []int
	for _, line := range strings.Split(string(data), "\n") {
		list, ok := strings.CutPrefix(line, "Cpus_allowed_list:")
		if !ok {
			continue
		}
		if allowed, err = parseCPUList(strings.TrimSpace(list)); err != nil {
			return "", fmt.Errorf("--cpus: %w", err)
		}
	}
	if n > len(allowed) {
		return "", fmt.Errorf("--cpus %d: only %d CPUs to run on", n, len(allowed))
	}
	parts := make([]string, n)
	for i, c := range allowed[len(allowed)-n:] {
		parts[i] = strconv.Itoa(c)
	}
	return strings.Join(parts, ","), nil
}

// parseCPUList reads a list such as "0-3,6,8-9".
func parseCPUList(s string) ([]int, error) {
	var cpus []int
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.Atoi(lo)
		b := a
		if err == nil && isRange {
			b, err = strconv.Atoi(hi)
		}
		if err != nil || b < a {
			return nil, fmt.Errorf("cannot read the CPU list %q", s)
		}
		for c := a; c <= b; c++ {
			cpus = append(cpus, c)
		}
	}
	return cpus, nil
}
