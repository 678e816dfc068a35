// Package bench is the benchmark of cmd/vigor-bench: it measures Vigor's call() and batch()
// in real headless editors, loading the vigor-benchmark plugin through the
// normal runtime (discovery, build, start), and, with Baseline, the same
// round trips made by a minimal client with no framework, in the same run:
//
//   - Vim: a job that speaks raw JSON channel commands on its stdio
//     (`vigor-bench client`), with the batch as a Vim9 def loop;
//   - Neovim: hand-written msgpack-RPC over `nvim --embed` stdio, from this
//     process, with nvim_call_atomic for the batch.
//
// The baseline is the physical limit line: Vigor/baseline is the figure to
// watch. Keep the baseline honest and simple.
//
// With a baseline, the n iterations are split into rounds that alternate
// Vigor and the baseline (Vigor first in odd rounds, the baseline first in
// even ones), each round in fresh editors, and the samples of all rounds
// are pooled. On a shared VM the speed of a run depends on where the
// scheduler happens to place the editor and the client (the same or
// another CPU), and that placement tends to last for a whole process; one
// run of each side would compare two draws of it. Rounds give both sides
// the same mix of draws and the same drift over time.
package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/vigorvim/vigor/internal/benchstat"
)

// ClientCommand is the argument with which Options.Self runs the Vim
// baseline client (VimClient) on its stdio.
const ClientCommand = "client"

// Options configure a run.
type Options struct {
	Editors  []string // "vim", "nvim"
	Vim      string   // the vim binary
	Nvim     string   // the nvim binary
	Root     string   // the Vigor checkout
	Cache    string   // g:vigor#cache_dir; "" means the editor's default
	Size     int
	Count    int
	N        int
	Baseline bool
	// Rounds splits N into this many alternating rounds (with Baseline);
	// 0 means DefaultRounds, or fewer when N is small.
	Rounds  int
	Self    string        // this program, run as Self ClientCommand for the Vim baseline job
	Timeout time.Duration // per editor run (one round); 0 means 5 minutes
	// Progress, if set, gets a line of progress now and then.
	Progress func(string)
}

// Pair is call() and batch() figures.
type Pair struct {
	Call  benchstat.Result `json:"call"`
	Batch benchstat.Result `json:"batch"`
}

// EditorReport is one editor's results.
type EditorReport struct {
	Editor   string `json:"editor"`
	Version  string `json:"version"`
	Vigor    Pair   `json:"vigor"`
	Baseline *Pair  `json:"baseline,omitempty"`
}

// DefaultRounds is how many alternating rounds a run with a baseline has.
const DefaultRounds = 10

// Run runs the benchmark for each editor in opts.
func Run(ctx context.Context, opts Options) ([]EditorReport, error) {
	if opts.Timeout == 0 {
		// A round takes seconds; a hung editor or client fails the run
		// instead of holding it (and CI) for long.
		opts.Timeout = 5 * time.Minute
	}
	rounds := 1
	if opts.Baseline {
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
		rep := EditorReport{Editor: ed, Version: version(ed, bin)}
		var vigor, base []Pair
		for r := 0; r < rounds; r++ {
			o := opts
			o.N = opts.N/rounds + btoi(r < opts.N%rounds)
			runV := func() error {
				opts.progress("%s: vigor-benchmark through the Vigor runtime (size %d, count %d, n %d%s)",
					ed, o.Size, o.Count, o.N, roundNote(r, rounds))
				v, err := runVigor(ctx, ed, bin, o)
				if err != nil {
					return fmt.Errorf("%s: %w", ed, err)
				}
				vigor = append(vigor, v)
				return nil
			}
			runB := func() error {
				opts.progress("%s: baseline client (n %d%s)", ed, o.N, roundNote(r, rounds))
				var b Pair
				var err error
				if ed == "vim" {
					b, err = runVimBaseline(ctx, bin, o)
				} else {
					b, err = runNvimBaseline(ctx, bin, o)
				}
				if err != nil {
					return fmt.Errorf("%s baseline: %w", ed, err)
				}
				base = append(base, b)
				return nil
			}
			steps := []func() error{runV}
			if opts.Baseline {
				steps = append(steps, runB)
				if r%2 == 1 {
					steps[0], steps[1] = steps[1], steps[0]
				}
			}
			for _, step := range steps {
				if err := step(); err != nil {
					return out, err
				}
			}
		}
		rep.Vigor = pool(vigor, opts)
		if opts.Baseline {
			b := pool(base, opts)
			rep.Baseline = &b
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
// reads the results it writes.
func runVigor(ctx context.Context, editor, bin string, o Options) (Pair, error) {
	dir, err := os.MkdirTemp("", "vigor-bench-")
	if err != nil {
		return Pair{}, err
	}
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "result.json")
	var script strings.Builder
	fmt.Fprintf(&script, "set runtimepath^=%s,%s\n", escapeRTP(o.Root), escapeRTP(filepath.Join(o.Root, "benchmark")))
	if o.Cache != "" {
		fmt.Fprintf(&script, "let g:vigor#cache_dir = %s\n", vimString(o.Cache))
	}
	fmt.Fprintf(&script, "let g:vigor_bench_out = %s\n", vimString(out))
	fmt.Fprintf(&script, "autocmd User VigorPluginPost:vigor-benchmark call vigor_benchmark#start({'size': %d, 'count': %d, 'n': %d})\n",
		o.Size, o.Count, o.N)
	script.WriteString("autocmd User VigorBenchmarkDone call writefile([json_encode(g:vigor_benchmark_result)], g:vigor_bench_out) | qa!\n")
	script.WriteString("autocmd User VigorPluginFail:vigor-benchmark call writefile([json_encode({'error': vigor#_internal#plugin#get('vigor-benchmark').error})], g:vigor_bench_out) | qa!\n")
	script.WriteString("runtime plugin/vigor.vim\nruntime plugin/vigor_benchmark.vim\n")
	if err := runEditor(ctx, editor, bin, dir, script.String(), o.Timeout, nil); err != nil {
		return Pair{}, err
	}
	return readPair(out)
}

func readPair(path string) (Pair, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Pair{}, fmt.Errorf("no results: %w", err)
	}
	var res struct {
		Pair
		Error string `json:"error"`
	}
	if err := json.Unmarshal(data, &res); err != nil {
		return Pair{}, fmt.Errorf("cannot read the results: %w", err)
	}
	if res.Error != "" {
		return Pair{}, fmt.Errorf("%s", res.Error)
	}
	return res.Pair, nil
}

// runEditor runs a headless editor that sources script, and waits until it
// quits. Vim in Ex mode reads commands from stdin, so stdin stays open.
func runEditor(ctx context.Context, editor, bin, dir, script string, timeout time.Duration, env []string) error {
	path := filepath.Join(dir, "script.vim")
	if err := os.WriteFile(path, []byte(script), 0o644); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var cmd *exec.Cmd
	if editor == "vim" {
		cmd = exec.CommandContext(ctx, bin, "-N", "-u", "NONE", "-i", "NONE", "-n", "-es", "--cmd", "source "+path)
	} else {
		cmd = exec.CommandContext(ctx, bin, "--headless", "-u", "NONE", "-i", "NONE", "-n", "--cmd", "source "+path)
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
