package bench

// The startup measurement (vigor-bench --startup): the editor as a user
// starts it, in a terminal of a fixed size (a tmux session of its own), with
// a normal vimrc, warm caches and no viminfo or shada, timed by the editor's
// own --startuptime. Configurations run in turns, round after round, so that
// each sees the same drift of a shared machine.

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
	"sort"
	"strconv"
	"strings"
	"time"
)

// StartupOptions configure a startup measurement.
type StartupOptions struct {
	Editors []string // "vim", "nvim"
	Vim     string   // the vim binary
	Nvim    string   // the nvim binary
	Root    string   // the Vigor checkout
	// Work is the directory for the plugins, the vimrc files and the
	// cache; it is kept between runs, so that caches stay warm.
	Work string
	N    int // rounds
	// Timeout bounds each start; 0 means 20 s.
	Timeout  time.Duration
	Progress func(string)
}

// The configurations, in the order of each round.
const (
	StartEditor  = "editor alone"
	StartVigor   = "Vigor, no plugins"
	StartOne     = "Vigor + 1 plugin"
	StartTen     = "Vigor + 10 eager plugins"
	StartLazy    = "Vigor + 10 lazy plugins"
	AnswerOne    = "first answer, 1 plugin"
	AnswerTen    = "first answer, 10 eager plugins"
	startPlugins = 10
)

// StartupConfigs lists the configurations whose STARTED time is measured.
var StartupConfigs = []string{StartEditor, StartVigor, StartOne, StartTen, StartLazy}

// AnswerConfigs lists those whose first answer is measured.
var AnswerConfigs = []string{AnswerOne, AnswerTen}

// StartupFigure is the median of one configuration's samples (ms).
type StartupFigure struct {
	Config  string    `json:"config"`
	Median  float64   `json:"median_ms"`
	Added   float64   `json:"added_ms"` // the median less the editor alone's; 0 for the editor alone and for answers
	Samples []float64 `json:"samples_ms"`
}

// StartupReport is one editor's results: ms to STARTED in --startuptime for
// each configuration of StartupConfigs, and ms from STARTED to the first
// answer for each of AnswerConfigs.
type StartupReport struct {
	Editor  string          `json:"editor"`
	Version string          `json:"version"`
	Started []StartupFigure `json:"started"`
	Answer  []StartupFigure `json:"first_answer"`
}

// startSetup is what one editor's runs share.
type startSetup struct {
	kind, bin, work, cache string
	repos                  map[string]string // "one", "ten", "lazy" -> repository
	o                      StartupOptions
}

// RunStartup measures startup for each editor of opts.
func RunStartup(ctx context.Context, opts StartupOptions) ([]StartupReport, error) {
	if opts.Timeout == 0 {
		opts.Timeout = 20 * time.Second
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		return nil, errors.New("the startup measurement runs the editors in tmux, which was not found")
	}
	if err := os.MkdirAll(opts.Work, 0o700); err != nil {
		return nil, err
	}
	repos, err := startupRepos(opts.Root, opts.Work)
	if err != nil {
		return nil, err
	}
	var out []StartupReport
	for _, kind := range opts.Editors {
		bin := opts.Vim
		if kind == "nvim" {
			bin = opts.Nvim
		}
		s := &startSetup{kind: kind, bin: bin, work: filepath.Join(opts.Work, kind), cache: filepath.Join(opts.Work, "cache"), repos: repos, o: opts}
		rep, err := s.run(ctx)
		if err != nil {
			return out, fmt.Errorf("%s: %w", kind, err)
		}
		rep.Version = version(kind, bin)
		out = append(out, rep)
	}
	return out, nil
}

// startupRepos writes three plugin repositories into work, each plugin a
// copy of the hello example under a name of its own (a build prunes the
// other builds of its name): "one" holds s0, "ten" e0...e9, "lazy"
// l0...l9, each with a lazy.json that declares one command.
func startupRepos(root, work string) (map[string]string, error) {
	src, err := os.ReadFile(filepath.Join(root, "examples", "hello", "vigor", "hello", "main.go"))
	if err != nil {
		return nil, err
	}
	mod, err := os.ReadFile(filepath.Join(root, "examples", "hello", "go.mod"))
	if err != nil {
		return nil, err
	}
	repos := map[string]string{}
	for _, r := range []struct {
		key, prefix string
		n           int
		lazy        bool
	}{{"one", "s", 1, false}, {"ten", "e", startPlugins, false}, {"lazy", "l", startPlugins, true}} {
		repo := filepath.Join(work, "repo-"+r.key)
		if err := writeIfChanged(filepath.Join(repo, "go.mod"), []byte(strings.Replace(string(mod), "example.com/hello", "example.com/startup"+r.key, 1))); err != nil {
			return nil, err
		}
		for i := 0; i < r.n; i++ {
			name := fmt.Sprintf("%s%d", r.prefix, i)
			dir := filepath.Join(repo, "vigor", name)
			if err := writeIfChanged(filepath.Join(dir, "main.go"), src); err != nil {
				return nil, err
			}
			if r.lazy {
				decl := fmt.Sprintf(`{"commands": [{"name": "Greet%s"}]}`, strings.ToUpper(name[:1])+name[1:])
				if err := writeIfChanged(filepath.Join(dir, "lazy.json"), []byte(decl)); err != nil {
					return nil, err
				}
			}
		}
		repos[r.key] = repo
	}
	return repos, nil
}

// writeIfChanged writes data to path unless it holds it already: a file
// rewritten would change the plugin's freshness key and make it build.
func writeIfChanged(path string, data []byte) error {
	if old, err := os.ReadFile(path); err == nil && string(old) == string(data) {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}

func (s *startSetup) run(ctx context.Context) (StartupReport, error) {
	rep := StartupReport{Editor: s.kind}
	if err := os.MkdirAll(s.work, 0o700); err != nil {
		return rep, err
	}
	configs := append(append([]string{}, StartupConfigs...), AnswerConfigs...)
	rcs := map[string]string{}
	for _, c := range configs {
		rc, err := s.vimrc(c)
		if err != nil {
			return rep, err
		}
		rcs[c] = rc
	}
	// Warm: one start of each configuration first builds the vigor
	// command and the plugins, and fills the editors' own caches.
	s.o.progressf("%s: warming the caches", s.kind)
	for _, c := range configs {
		if _, _, err := s.once(ctx, c, rcs[c], -1); err != nil {
			return rep, fmt.Errorf("warming %s: %w", c, err)
		}
	}
	started := map[string][]float64{}
	answer := map[string][]float64{}
	for r := 0; r < s.o.N; r++ {
		s.o.progressf("%s: round %d of %d", s.kind, r+1, s.o.N)
		// Each round in another order, so that no configuration always
		// follows the same one.
		order := append([]string{}, configs...)
		rot := r % len(order)
		order = append(order[rot:], order[:rot]...)
		for _, c := range order {
			st, ans, err := s.once(ctx, c, rcs[c], r)
			if err != nil {
				return rep, fmt.Errorf("%s, round %d: %w", c, r+1, err)
			}
			if isAnswer(c) {
				answer[c] = append(answer[c], ans)
			} else {
				started[c] = append(started[c], st)
			}
		}
	}
	base := median(started[StartEditor])
	for _, c := range StartupConfigs {
		f := StartupFigure{Config: c, Median: median(started[c]), Samples: started[c]}
		if c != StartEditor {
			f.Added = f.Median - base
		}
		rep.Started = append(rep.Started, f)
	}
	for _, c := range AnswerConfigs {
		rep.Answer = append(rep.Answer, StartupFigure{Config: c, Median: median(answer[c]), Samples: answer[c]})
	}
	return rep, nil
}

func isAnswer(c string) bool { return c == AnswerOne || c == AnswerTen }

// vimrc writes the vimrc of configuration c and returns its path: the
// normal one (Vim: defaults.vim and filetype plugins; Neovim: its defaults
// and filetype plugins), the cache, and Vigor and the plugins on
// 'runtimepath', where the editor loads them as any plugin. An answer's
// vimrc asks the first plugin from a timer that VimEnter starts, and writes
// the ms from the vimrc's first line to the answer into a file.
func (s *startSetup) vimrc(c string) (string, error) {
	var b strings.Builder
	b.WriteString("let g:vigor_bench_t0 = reltime()\n")
	if s.kind == "vim" {
		b.WriteString("source $VIMRUNTIME/defaults.vim\n")
	}
	b.WriteString("filetype plugin on\n")
	fmt.Fprintf(&b, "let g:vigor#cache_dir = %s\n", vimString(s.cache))
	var rtp []string
	if c != StartEditor {
		rtp = append(rtp, s.o.Root)
	}
	ask, warm := "", []string{}
	switch c {
	case StartOne:
		rtp = append(rtp, s.repos["one"])
	case AnswerOne:
		rtp = append(rtp, s.repos["one"])
		ask = "s0"
	case StartTen:
		rtp = append(rtp, s.repos["ten"])
	case AnswerTen:
		rtp = append(rtp, s.repos["ten"])
		ask = "e0"
	case StartLazy:
		rtp = append(rtp, s.repos["lazy"])
	}
	switch c {
	case StartOne, AnswerOne:
		warm = append(warm, "s0")
	case StartTen, AnswerTen, StartLazy:
		for i := 0; i < startPlugins; i++ {
			prefix := "e"
			if c == StartLazy {
				prefix = "l"
			}
			warm = append(warm, fmt.Sprintf("%s%d", prefix, i))
		}
	}
	for _, d := range rtp {
		fmt.Fprintf(&b, "set runtimepath^=%s\n", escapeRTP(d))
	}
	if c != StartEditor {
		// The warming start waits for the vigor command and asks every
		// plugin once, which builds it; then it says so in a file.
		var names []string
		for _, w := range warm {
			names = append(names, vimString(w))
		}
		fmt.Fprintf(&b, `function! VigorBenchWarm(_timer) abort
  try
    if !get(g:, 'vigor_bench_ready', 0)
      call timer_start(20, 'VigorBenchWarm')
      return
    endif
    for l:name in [%s]
      call vigor#request(l:name, 'greet', ['warm'])
    endfor
    call writefile(['ok'], $VIGOR_BENCH_WARM)
  catch
    call writefile(['error', v:exception], $VIGOR_BENCH_WARM)
  endtry
endfunction
if !empty($VIGOR_BENCH_WARM)
  autocmd User VigorReady let g:vigor_bench_ready = 1
  autocmd VimEnter * call timer_start(0, 'VigorBenchWarm')
endif
`, strings.Join(names, ", "))
	}
	if ask != "" {
		fmt.Fprintf(&b, `function! VigorBenchAsk(_timer) abort
  try
    let l:r = vigor#request(%s, 'greet', ['bench'])
    call writefile([string(reltimefloat(reltime(g:vigor_bench_t0)) * 1000.0), l:r], $VIGOR_BENCH_ANSWER)
  catch
    call writefile(['error', v:exception], $VIGOR_BENCH_ANSWER)
  endtry
endfunction
autocmd VimEnter * call timer_start(0, 'VigorBenchAsk')
`, vimString(ask))
	}
	name := strings.NewReplacer(" ", "-", ",", "", "+", "").Replace(c)
	path := filepath.Join(s.work, name+".vim")
	return path, os.WriteFile(path, []byte(b.String()), 0o644)
}

// once starts the editor with configuration c in a 100x30 terminal, waits
// for STARTED (and for an answer's file), quits it, and returns the ms to
// STARTED and, for an answer, from STARTED to the answer.
func (s *startSetup) once(ctx context.Context, c, rc string, round int) (started, answer float64, err error) {
	dir, err := os.MkdirTemp(s.work, "run-")
	if err != nil {
		return 0, 0, err
	}
	defer os.RemoveAll(dir)
	log := filepath.Join(dir, "startuptime.log")
	ansFile := filepath.Join(dir, "answer")
	warmFile := ""
	if round < 0 && c != StartEditor {
		warmFile = filepath.Join(dir, "warm")
	}
	home := filepath.Join(dir, "home")
	sock := filepath.Join(dir, "tmux.sock")
	cmd := fmt.Sprintf("env HOME=%[1]s XDG_CONFIG_HOME=%[1]s/config XDG_DATA_HOME=%[1]s/data XDG_STATE_HOME=%[1]s/state XDG_CACHE_HOME=%[1]s/cache VIGOR_BENCH_ANSWER=%[2]s VIGOR_BENCH_WARM=%[6]s %[3]s -u %[4]s -i NONE --startuptime %[5]s",
		shellQuote(home), shellQuote(ansFile), shellQuote(s.bin), shellQuote(rc), shellQuote(log), shellQuote(warmFile))
	tmux := func(args ...string) error {
		out, err := exec.CommandContext(ctx, "tmux", append([]string{"-S", sock}, args...)...).CombinedOutput()
		if err != nil {
			return fmt.Errorf("tmux %s: %w: %s", args[0], err, strings.TrimSpace(string(out)))
		}
		return nil
	}
	if err := tmux("new-session", "-d", "-x", "100", "-y", "30", cmd); err != nil {
		return 0, 0, err
	}
	defer func() { _ = exec.Command("tmux", "-S", sock, "kill-server").Run() }()
	deadline := time.Now().Add(s.o.Timeout)
	var vimrcStart float64
	for warmFile == "" {
		started, vimrcStart, err = readStartupTime(log, s.kind, rc)
		if err == nil {
			break
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			screen, _ := exec.Command("tmux", "-S", sock, "capture-pane", "-p", "-t", "0").Output()
			return 0, 0, fmt.Errorf("no STARTED in --startuptime within %s (%w); the screen:\n%s", s.o.Timeout, err, strings.TrimRight(string(screen), "\n "))
		}
		time.Sleep(20 * time.Millisecond)
	}
	if warmFile != "" {
		// The first start builds: no STARTED is awaited, only the file.
		deadline = time.Now().Add(5 * time.Minute)
		if err := waitFile(ctx, warmFile, deadline, sock); err != nil {
			return 0, 0, err
		}
	}
	if isAnswer(c) && warmFile == "" {
		for {
			data, rerr := os.ReadFile(ansFile)
			if lines := strings.Split(string(data), "\n"); rerr == nil && len(lines) >= 2 {
				if lines[0] == "error" {
					return 0, 0, fmt.Errorf("the request failed: %s", lines[1])
				}
				ms, perr := strconv.ParseFloat(lines[0], 64)
				if perr == nil {
					answer = ms + vimrcStart - started
					break
				}
			}
			if time.Now().After(deadline) || ctx.Err() != nil {
				screen, _ := exec.Command("tmux", "-S", sock, "capture-pane", "-p", "-t", "0").Output()
				return 0, 0, fmt.Errorf("no answer within %s; the screen:\n%s", s.o.Timeout, strings.TrimRight(string(screen), "\n "))
			}
			time.Sleep(20 * time.Millisecond)
		}
	} else if c != StartEditor {
		// Let the deferred work and the plugins' start end before the
		// next start, as they would before a user's next keys.
		time.Sleep(300 * time.Millisecond)
	}
	_ = tmux("send-keys", "-t", "0", "Escape", ":qa!", "Enter")
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if exec.Command("tmux", "-S", sock, "has-session").Run() != nil {
			break
		}
	}
	return started, answer, nil
}

// waitFile waits until the warming start has written path, and fails
// with what it wrote if that is an error.
func waitFile(ctx context.Context, path string, deadline time.Time, sock string) error {
	for {
		data, err := os.ReadFile(path)
		if lines := strings.Split(string(data), "\n"); err == nil && len(lines) >= 2 {
			if lines[0] == "ok" {
				return nil
			}
			return fmt.Errorf("the warming start failed: %s", strings.Join(lines[1:], " "))
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			screen, _ := exec.Command("tmux", "-S", sock, "capture-pane", "-p", "-t", "0").Output()
			return fmt.Errorf("the warming start did not end; the screen:\n%s", strings.TrimRight(string(screen), "\n "))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// readStartupTime reads a --startuptime file: the ms to STARTED and the ms
// at which the vimrc rc began to be sourced. Neovim with a terminal runs
// two processes that both write to it; the one that loads plugins is the
// "Embedded" one.
func readStartupTime(path, kind, rc string) (started, vimrcStart float64, err error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	section := ""
	started, vimrcStart = -1, -1
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "--- Startup times for process:") {
			section = line
			continue
		}
		if kind == "nvim" && !strings.Contains(section, "Embedded") {
			continue
		}
		fields := strings.Fields(line)
		if len(fields) < 2 {
			continue
		}
		if strings.Contains(line, "STARTED ---") {
			started, err = strconv.ParseFloat(fields[0], 64)
			if err != nil {
				return 0, 0, err
			}
		} else if strings.HasSuffix(line, ": sourcing "+rc) && len(fields) >= 4 {
			end, err1 := strconv.ParseFloat(fields[0], 64)
			took, err2 := strconv.ParseFloat(fields[1], 64)
			if err1 == nil && err2 == nil {
				vimrcStart = end - took
			}
		}
	}
	if started < 0 || vimrcStart < 0 {
		return 0, 0, errors.New("not there yet")
	}
	return started, vimrcStart, nil
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64{}, xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func (o StartupOptions) progressf(format string, args ...any) {
	if o.Progress != nil {
		o.Progress(fmt.Sprintf(format, args...))
	}
}

// WriteStartupText prints one table per editor.
func WriteStartupText(w io.Writer, reps []StartupReport) {
	for i, r := range reps {
		if i > 0 {
			fmt.Fprintln(w)
		}
		n := 0
		if len(r.Started) > 0 {
			n = len(r.Started[0].Samples)
		}
		fmt.Fprintf(w, "== %s: %s\nms to STARTED in --startuptime, median of %d:\n", r.Editor, r.Version, n)
		for _, f := range r.Started {
			if f.Config == StartEditor {
				fmt.Fprintf(w, "  %-32s %7.1f\n", f.Config, f.Median)
			} else {
				fmt.Fprintf(w, "  %-32s %7.1f  (%+.1f)\n", f.Config, f.Median, f.Added)
			}
		}
		fmt.Fprintln(w, "ms from STARTED to a warm plugin's first answer, median:")
		for _, f := range r.Answer {
			fmt.Fprintf(w, "  %-32s %7.1f\n", f.Config, f.Median)
		}
	}
}

// WriteStartupJSON prints the reports as one JSON object.
func WriteStartupJSON(w io.Writer, reps []StartupReport) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(map[string]any{"startup": reps})
}
