package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vigorvim/vigor/internal/editortest"
)

// BenchmarkStartup measures, per editor, the wall time from starting the
// editor process to VigorPluginPost:hello with a warm cache ("hello"), and
// the same editor started with the same flags and quit at VimEnter
// ("bare"). The difference is what Vigor adds to startup.
//
// go test -run '^$' -bench Startup -benchtime 20x ./e2e/
func BenchmarkStartup(b *testing.B) {
	cache := editortest.SharedCache(b)
	// Warm the cache.
	for _, kind := range editortest.Kinds {
		ed := editortest.Start(b, kind, editortest.Options{RTP: []string{hello()}})
		ed.MustEval(b, `vigor#request('hello', 'greet', ['warm'])`)
		ed.Close()
	}
	root := editortest.Root()
	for _, kind := range editortest.Kinds {
		bin, err := editortest.Binary(kind)
		if err != nil {
			b.Fatal(err)
		}
		for _, variant := range []string{"bare", "hello"} {
			b.Run(kind+"/"+variant, func(b *testing.B) {
				dir := b.TempDir()
				marker := filepath.Join(dir, "done")
				script := filepath.Join(dir, "s.vim")
				event := "VimEnter *"
				if variant == "hello" {
					event = "User VigorPluginPost:hello"
				}
				src := fmt.Sprintf("let g:vigor#cache_dir = '%s'\nautocmd %s call writefile([], '%s') | qa!\n", cache, event, marker)
				if err := os.WriteFile(script, []byte(src), 0o644); err != nil {
					b.Fatal(err)
				}
				timeStarts(b, kind, bin, root+","+hello(), script, variant == "hello", marker)
				b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/1000, "ms/start")
			})
		}
	}
}

// BenchmarkStartup10 is BenchmarkStartup with ten plugins (copies of the
// hello example), to VigorPluginPost of the last of them.
//
// go test -run '^$' -bench Startup10 -benchtime 20x ./e2e/
// tenPlugins writes a repository with ten plugins p0...p9 (copies of the
// hello example), each declared lazy (a lazy.json with one command) when
// lazy is set, and returns it.
func tenPlugins(b *testing.B, lazy bool) string {
	repo := b.TempDir()
	src, err := os.ReadFile(filepath.Join(hello(), "vigor", "hello", "main.go"))
	if err != nil {
		b.Fatal(err)
	}
	mod, err := os.ReadFile(filepath.Join(hello(), "go.mod"))
	if err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, "go.mod"), []byte(strings.Replace(string(mod), "example.com/hello", "example.com/ten", 1)), 0o644); err != nil {
		b.Fatal(err)
	}
	for i := 0; i < 10; i++ {
		dir := filepath.Join(repo, "vigor", fmt.Sprintf("p%d", i))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "main.go"), src, 0o644); err != nil {
			b.Fatal(err)
		}
		if lazy {
			decl := fmt.Sprintf(`{"commands": [{"name": "Greet%d"}]}`, i)
			if err := os.WriteFile(filepath.Join(dir, "lazy.json"), []byte(decl), 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	return repo
}

// warmTen builds and starts the ten plugins of repo once in the editor
// kind, so that later starts build nothing, and returns the editor.
func warmTen(b *testing.B, kind, repo string) string {
	ed := editortest.Start(b, kind, editortest.Options{RTP: []string{repo}})
	for i := 0; i < 10; i++ {
		ed.MustEval(b, fmt.Sprintf(`vigor#request('p%d', 'greet', ['warm'])`, i))
	}
	ed.Close()
	bin, err := editortest.Binary(kind)
	if err != nil {
		b.Fatal(err)
	}
	return bin
}

func BenchmarkStartup10(b *testing.B) {
	repo := tenPlugins(b, false)
	cache := editortest.SharedCache(b)
	root := editortest.Root()
	for _, kind := range editortest.Kinds {
		bin := warmTen(b, kind, repo)
		for _, variant := range []string{"bare", "ten"} {
			b.Run(kind+"/"+variant, func(b *testing.B) {
				dir := b.TempDir()
				marker := filepath.Join(dir, "done")
				script := filepath.Join(dir, "s.vim")
				src := fmt.Sprintf("let g:vigor#cache_dir = '%s'\nlet g:posts = 0\n", cache)
				if variant == "bare" {
					src += fmt.Sprintf("autocmd VimEnter * call writefile([], '%s') | qa!\n", marker)
				} else {
					src += fmt.Sprintf("autocmd User VigorPluginPost:* let g:posts += 1 | if g:posts == 10 | call writefile([], '%s') | qa! | endif\n", marker)
				}
				if err := os.WriteFile(script, []byte(src), 0o644); err != nil {
					b.Fatal(err)
				}
				timeStarts(b, kind, bin, root+","+repo, script, variant == "ten", marker)
				b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/1000, "ms/start")
			})
		}
	}
}

// timeStarts starts the editor b.N times with rtp and script (and Vigor,
// if vigor), each time waiting until it quits; script must write marker
// before it quits.
func timeStarts(b *testing.B, kind, bin, rtp, script string, vigor bool, marker string) {
	args := []string{"-N", "-u", "NONE", "-i", "NONE", "-n", "-es"}
	if kind == "nvim" {
		args = []string{"--headless", "-u", "NONE", "-i", "NONE", "-n"}
	}
	args = append(args, "--cmd", "set rtp^="+rtp, "--cmd", "source "+script)
	if vigor {
		args = append(args, "--cmd", "runtime plugin/vigor.vim")
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		os.Remove(marker)
		cmd := exec.Command(bin, args...)
		stdin, _ := cmd.StdinPipe() // Vim's Ex mode waits on it
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		if err := cmd.Wait(); err != nil {
			b.Fatalf("%s: %v", kind, err)
		}
		stdin.Close()
		if _, err := os.Stat(marker); err != nil {
			b.Fatalf("%s: the editor quit before the script wrote its marker", kind)
		}
	}
}

// BenchmarkRequest times vigor#request() round trips from Vim script:
// "plain" to the hello example, which answers at once; "callback" to a
// handler that first calls the editor itself (Call of abs()), so that the
// next request comes right after the plugin's own direct read. On Neovim
// it also reports the editor's CPU time per request (Lua's os.clock(), all
// of Neovim's threads), steadier than the wall time on a shared machine.
//
// go test -run '^$' -bench Request -benchtime 20x ./e2e/
func BenchmarkRequest(b *testing.B) {
	for _, kind := range editortest.Kinds {
		ed := editortest.Start(b, kind, editortest.Options{RTP: append(rtp("main"), hello())})
		ed.MustEval(b, `vigor#request('hello', 'greet', ['warm'])`)
		waitLoaded(b, ed, "vtest")
		ed.MustExec(b, `function! VigorBenchRequests(n, plugin, method, args) abort
let l:cpu = has('nvim') ? luaeval('os.clock()') : 0.0
let l:start = reltime()
for l:i in range(a:n)
call vigor#request(a:plugin, a:method, a:args)
endfor
let g:vigor_bench_cpu = has('nvim') ? luaeval('os.clock()') - l:cpu : 0.0
return reltimefloat(reltime(l:start))
endfunction`)
		for _, c := range []struct{ name, call string }{
			{"plain", `VigorBenchRequests(1000, 'hello', 'greet', ['CI'])`},
			{"callback", `VigorBenchRequests(1000, 'vtest', 'call', ['abs', [-3]])`},
		} {
			b.Run(kind+"/"+c.name, func(b *testing.B) {
				var total, cpu float64
				for i := 0; i < b.N; i++ {
					var secs float64
					if err := ed.EvalInto(c.call, &secs); err != nil {
						b.Fatal(err)
					}
					total += secs
					var c float64
					if err := ed.EvalInto("g:vigor_bench_cpu", &c); err != nil {
						b.Fatal(err)
					}
					cpu += c
				}
				b.ReportMetric(total/float64(b.N)/1000*1e6, "µs/request")
				if kind == "nvim" {
					b.ReportMetric(cpu/float64(b.N)/1000*1e6, "editor-cpu-µs/request")
				}
			})
		}
		ed.Close()
	}
}

// BenchmarkIdleRSS reports the resident memory of an idle plugin process
// (the hello example), read from /proc after it has answered one call and
// rested.
//
// go test -run '^$' -bench IdleRSS -benchtime 1x ./e2e/
func BenchmarkIdleRSS(b *testing.B) {
	for _, kind := range editortest.Kinds {
		ed := editortest.Start(b, kind, editortest.Options{RTP: rtp("main")})
		pid := ed.MustEval(b, `vigor#request('vtest', 'pid', [])`).(int64)
		b.Run(kind, func(b *testing.B) {
			var kb int64
			var wakes, cpu int64
			for i := 0; i < b.N; i++ {
				w0, c0 := threadStats(b, pid)
				time.Sleep(500 * time.Millisecond)
				w1, c1 := threadStats(b, pid)
				wakes += w1 - w0
				cpu += c1 - c0
				kb = rssKB(b, pid)
			}
			b.ReportMetric(float64(kb)/1024, "MiB-RSS")
			// While idle: how often the plugin's threads run, and for how
			// long (the Go runtime's housekeeping).
			secs := float64(b.N) * 0.5
			b.ReportMetric(float64(wakes)/secs, "idle-wakeups/s")
			b.ReportMetric(float64(cpu)/1e3/secs, "idle-CPU-µs/s")
		})
		ed.Close()
	}
}

// threadStats sums, over the threads of process pid, the context switches
// (each is a wake-up) and the time run, in ns.
func threadStats(b *testing.B, pid int64) (switches, runNS int64) {
	tasks, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	if err != nil {
		b.Fatal(err)
	}
	for _, task := range tasks {
		dir := fmt.Sprintf("/proc/%d/task/%s/", pid, task.Name())
		if data, err := os.ReadFile(dir + "schedstat"); err == nil {
			if f := strings.Fields(string(data)); len(f) > 0 {
				n, _ := strconv.ParseInt(f[0], 10, 64)
				runNS += n
			}
		}
		data, err := os.ReadFile(dir + "status")
		if err != nil {
			continue // the thread has ended
		}
		for _, line := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(line, "voluntary_ctxt_switches:") || strings.HasPrefix(line, "nonvoluntary_ctxt_switches:") {
				n, _ := strconv.ParseInt(strings.Fields(line)[1], 10, 64)
				switches += n
			}
		}
	}
	return switches, runNS
}

func rssKB(b testing.TB, pid int64) int64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "VmRSS:") {
			n, _ := strconv.ParseInt(strings.Fields(line)[1], 10, 64)
			return n
		}
	}
	b.Fatal("no VmRSS")
	return 0
}

// BenchmarkStartupLazy10 is the time to the first prompt (the main loop's
// first timer after VimEnter) with ten plugins declared lazy, against ten
// eager ones (whose builds and processes start then) and the editor
// without Vigor.
//
// go test -run '^$' -bench StartupLazy10 -benchtime 20x ./e2e/
func BenchmarkStartupLazy10(b *testing.B) {
	eager, lazy := tenPlugins(b, false), tenPlugins(b, true)
	cache := editortest.SharedCache(b)
	root := editortest.Root()
	for _, kind := range editortest.Kinds {
		bin := warmTen(b, kind, eager)
		for _, variant := range []string{"bare", "eager", "lazy"} {
			b.Run(kind+"/"+variant, func(b *testing.B) {
				dir := b.TempDir()
				marker := filepath.Join(dir, "done")
				script := filepath.Join(dir, "s.vim")
				src := fmt.Sprintf("let g:vigor#cache_dir = '%s'\nautocmd VimEnter * call timer_start(0, {-> writefile([], '%s') + execute('qa!')})\n", cache, marker)
				if err := os.WriteFile(script, []byte(src), 0o644); err != nil {
					b.Fatal(err)
				}
				repo := map[string]string{"bare": eager, "eager": eager, "lazy": lazy}[variant]
				timeStarts(b, kind, bin, root+","+repo, script, variant != "bare", marker)
				b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/1000, "ms/start")
			})
		}
	}
}
