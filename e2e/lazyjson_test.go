package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/vigorvim/vigor/internal/editortest"
)

// A malformed lazy.json fails its own plugin alone, with one [vigor] line
// that names the file, the field and what it must be; requests to that
// plugin fail at once with the same reason; nothing in it runs as a
// command; the other plugins (eager, lazy, and those discovered after it)
// work as before. A fixed file is read again by a reload.
func TestLazyJSONInvalid(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "marker")
	// inject is a command that must never run.
	inject := fmt.Sprintf(`call writefile(['x'], '%s')`, marker)
	q := func(s string) string { // a JSON string
		b := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(s)
		return `"` + b + `"`
	}
	cases := []struct {
		json string
		want []string // parts of the message, after "[vigor] NAME: FILE: "
	}{
		{``, []string{"is not valid JSON"}},
		{`{"commands": [`, []string{"is not valid JSON"}},
		{`["Lower"]`, []string{"must hold a Dict (a JSON object), not a List"}},
		{`null`, []string{"must hold a Dict (a JSON object), not v:null"}},
		{`{"commands": [], "commands": []}`, []string{`holds the field "commands" twice`}},
		{`{"commands": [{"name": "Foo", "bang": true, "bang": false}]}`, []string{`holds the field "bang" twice`}},
		{`{"command": []}`, []string{`unknown field "command"`, "commands, mappings, events, functions"}},
		{`{"commands": {"name": "Foo"}}`, []string{`"commands" must be a List, not a Dict`}},
		{`{"commands": ["Lower"]}`, []string{`commands[0] must be a Dict (a JSON object), not a String`}},
		{`{"commands": [{}]}`, []string{`commands[0] has no "name"`}},
		{`{"commands": [{"name": ""}]}`, []string{`commands[0].name must be a command name (an uppercase letter, then letters and digits), not ''`}},
		{`{"commands": [{"name": 3}]}`, []string{`commands[0].name must be a String, not a Number`}},
		{`{"commands": [{"name": "lower"}]}`, []string{`commands[0].name must be a command name`, `not 'lower'`}},
		{`{"commands": [{"name": ` + q("Foo|"+inject) + `}]}`, []string{`commands[0].name must be a command name`}},
		{`{"commands": [{"name": ` + q("Foo\n"+inject) + `}]}`, []string{`commands[0].name must be a command name`}},
		{`{"commands": [{"name": ` + q(`Foo'`) + `}]}`, []string{`commands[0].name must be a command name`}},
		{`{"commands": [{"name": ` + q(`Foo"`) + `}]}`, []string{`commands[0].name must be a command name`}},
		{`{"commands": [{"name": "Foo", "nargs": "2"}]}`, []string{`commands[0].nargs must be one of "0", "1", "*", "?", "+" (or the Number 0 or 1), not '2'`}},
		{`{"commands": [{"name": "Foo", "nargs": ` + q("* | "+inject) + `}]}`, []string{`commands[0].nargs must be one of`}},
		{`{"commands": [{"name": "Foo", "bang": "yes"}]}`, []string{`commands[0].bang must be true or false, not a String`}},
		{`{"commands": [{"name": "Foo", "range": 1}]}`, []string{`commands[0].range must be true or false, not a Number`}},
		{`{"commands": [{"name": "Foo", "range": true, "count": true}]}`, []string{`commands[0] cannot have both "range" and "count"`}},
		{`{"commands": [{"name": "Foo", "complete": ` + q("file | "+inject) + `}]}`, []string{`commands[0].complete must be a completion type`}},
		{`{"commands": [{"name": "Foo", "complete": "nosuchtype"}]}`, []string{`commands[0].complete must be a completion type (:help :command-complete), not 'nosuchtype'`}},
		{`{"commands": [{"name": "Foo", "nargs": "0", "complete": "file"}]}`, []string{`commands[0] cannot have "complete" with "nargs" 0`}},
		{`{"commands": [{"name": "Foo", "nargs": 0, "complete": "file"}]}`, []string{`commands[0] cannot have "complete" with "nargs" 0`}},
		{`{"commands": [{"name": "Next"}]}`, []string{`commands[0].name: :Next is already a command`}},
		{`{"commands": [{"name": "Foo", "nagrs": "1"}]}`, []string{`unknown field "nagrs" in commands[0]`, "name, nargs, range, count, bang, complete"}},
		{`{"commands": [{"name": "Foo"}, {"name": "Foo"}]}`, []string{`commands[1].name: :Foo is declared twice`}},
		{`{"commands": [{"name": "LazyHello"}]}`, []string{`commands[0].name: :LazyHello is already declared by the lazy plugin lazyp`}},
		{`{"commands": [{"name": "Vigor"}]}`, []string{`commands[0].name: :Vigor is already a command`}},
		{`{"mappings": "x"}`, []string{`"mappings" must be a List, not a String`}},
		{`{"mappings": ["x"]}`, []string{`mappings[0] must be a Dict (a JSON object), not a String`}},
		{`{"mappings": [{"mode": "q", "lhs": "x"}]}`, []string{`mappings[0].mode must be mode letters from "nvxsoilct", not 'q'`}},
		{`{"mappings": [{"mode": "", "lhs": "x"}]}`, []string{`mappings[0].mode must be mode letters`, `not ''`}},
		{`{"mappings": [{"mode": "n"}]}`, []string{`mappings[0] has no "lhs"`}},
		{`{"mappings": [{"lhs": ""}]}`, []string{`mappings[0].lhs must be keys in <> notation`, `not ''`}},
		{`{"mappings": [{"lhs": ` + q("a|"+inject) + `}]}`, []string{`mappings[0].lhs must be keys in <> notation`, `<Bar>`}},
		{`{"mappings": [{"lhs": ` + q("a\n"+inject) + `}]}`, []string{`mappings[0].lhs must be keys in <> notation`}},
		{`{"mappings": [{"lhs": "a b"}]}`, []string{`mappings[0].lhs must be keys in <> notation`, `<Space>`}},
		{`{"mappings": [{"lhs": "<expr>x"}]}`, []string{`mappings[0].lhs must be keys in <> notation`}},
		{`{"mappings": [{"mode": "xn", "lhs": "<Plug>(lazy-hello)"}]}`, []string{`mappings[0].lhs: '<Plug>(lazy-hello)' in mode n is already declared by the lazy plugin lazyp`}},
		{`{"events": [{"event": "NoSuchEvent"}]}`, []string{`events[0].event must be the name of an event (:help autocmd-events), not 'NoSuchEvent'`}},
		{`{"events": [{"event": ` + q("BufRead * "+inject) + `}]}`, []string{`events[0].event must be the name of an event`}},
		{`{"events": [{"pattern": "x"}]}`, []string{`events[0] has no "event"`}},
		{`{"events": [{"event": "FileType", "pattern": ` + q("x "+inject) + `}]}`, []string{`events[0].pattern must be an autocommand pattern without white space, | or "`}},
		{`{"events": [{"event": "FileType", "pattern": ` + q("x|"+inject) + `}]}`, []string{`events[0].pattern must be an autocommand pattern`}},
		{`{"events": [{"event": "FileType", "pattern": ""}]}`, []string{`events[0].pattern must be an autocommand pattern`}},
		{`{"functions": "Hello"}`, []string{`"functions" must be a List, not a String`}},
		{`{"functions": [1]}`, []string{`functions[0] must be a String, not a Number`}},
		{`{"functions": ["hello"]}`, []string{`functions[0] must be a global function name (an uppercase letter, then letters, digits and _), not 'hello'`}},
		{`{"functions": [` + q("Foo|"+inject) + `]}`, []string{`functions[0] must be a global function name`}},
		{`{"functions": [` + q("Foo * "+inject) + `]}`, []string{`functions[0] must be a global function name`}},
	}

	repo := filepath.Join(dir, "repo")
	src, err := os.ReadFile(filepath.Join(hello(), "vigor", "hello", "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	mod, err := os.ReadFile(filepath.Join(hello(), "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	write := func(t *testing.T, name, file, body string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Join(repo, "vigor", name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(repo, "vigor", name, file), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(repo, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, "go.mod"), []byte(strings.Replace(string(mod), "example.com/hello", "example.com/lazybad", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	name := func(i int) string { return fmt.Sprintf("bad%02d", i) }
	for i, c := range cases {
		write(t, name(i), "main.go", string(src))
		write(t, name(i), "lazy.json", c.json)
	}
	// Discovered after every bad one: odd but valid declarations, an
	// empty one (only a request starts it), and an eager plugin.
	write(t, "zodd", "main.go", string(src))
	write(t, "zodd", "lazy.json", `{"commands": [{"name": "ZOdd2", "nargs": 1, "count": true, "complete": "file"}],
		"mappings": [{"mode": "nx", "lhs": "<Bar>z"}, {"lhs": "<Leader>\"'z"}],
		"events": [{"event": "user", "pattern": "*.x,Zodd"}],
		"functions": ["Zodd_fn2"]}`)
	write(t, "zempty", "main.go", string(src))
	write(t, "zempty", "lazy.json", `{}`)
	write(t, "zeager", "main.go", string(src))
	// Fixed and reloaded, one per editor.
	for _, k := range editortest.Kinds {
		write(t, "zfix"+k, "main.go", string(src))
		write(t, "zfix"+k, "lazy.json", `{"commands": "Fixed"}`)
	}

	each(t, editortest.Options{RTP: append([]string{hello()}, append(rtp("lazy"), repo)...)}, func(t *testing.T, ed *editortest.Editor) {
		ed.WaitFor(t, "vigor#plugin#discovered()", 30*time.Second)
		for _, n := range []string{"lazyp", "zodd", "zempty"} {
			if st := ed.MustEval(t, "vigor#plugin#status('"+n+"')"); st != "lazy" {
				t.Fatalf("%s: %s is %q, want lazy; messages:\n%s", ed.Kind, n, st, ed.Messages(t))
			}
		}
		for i := range cases {
			if st := ed.MustEval(t, "vigor#plugin#status('"+name(i)+"')"); st != "failed" {
				t.Fatalf("%s: %s (%s) is %v, want failed; messages:\n%s", ed.Kind, name(i), cases[i].json, st, ed.Messages(t))
			}
		}
		// The good plugins answer.
		mustEqual(t, ed, "hello's answer", ed.MustEval(t, "vigor#request('hello', 'greet', ['x'])"), "Hello, x!")
		mustEqual(t, ed, "zeager's answer", ed.MustEval(t, "vigor#request('zeager', 'greet', ['z'])"), "Hello, z!")
		ed.MustExec(t, "LazyHello! a")
		mustEqual(t, ed, "lazyp's log", fmt.Sprint(ed.MustEval(t, "vigor#request('lazyp', 'log', [])")), "[[cmd a 1 1 !]]")
		mustEqual(t, ed, "zodd's command", ed.MustEval(t, "exists(':ZOdd2')"), int64(2))
		for _, m := range []string{"n", "x"} {
			if rhs := fmt.Sprint(ed.MustEval(t, "maparg('<Bar>z', '"+m+"')")); !strings.Contains(rhs, "lazy#map(") {
				t.Fatalf("%s: the %s mapping <Bar>z of zodd is %q", ed.Kind, m, rhs)
			}
		}
		if rhs := fmt.Sprint(ed.MustEval(t, `maparg('<Leader>"''z', 'n')`)); !strings.Contains(rhs, "lazy#map(") {
			t.Fatalf("%s: the mapping <Leader>\"'z of zodd is %q", ed.Kind, rhs)
		}
		mustEqual(t, ed, "zempty's answer", ed.MustEval(t, "vigor#request('zempty', 'greet', ['e'])"), "Hello, e!")

		msgs := ed.Messages(t)
		if m := regexp.MustCompile(`E\d+:|Error detected|\.\.function |line +\d+:|#_internal#`).FindString(msgs); m != "" {
			t.Fatalf("%s: the messages hold %q:\n%s", ed.Kind, m, msgs)
		}
		lines := strings.Split(msgs, "\n")
		for i, c := range cases {
			file := filepath.Join(repo, "vigor", name(i), "lazy.json")
			prefix := "[vigor] " + name(i) + ": "
			var mine []string
			for _, l := range lines {
				if strings.HasPrefix(l, prefix) {
					mine = append(mine, l)
				}
			}
			if len(mine) != 1 {
				t.Fatalf("%s: %s (%s) has %d lines, want 1:\n%s", ed.Kind, name(i), c.json, len(mine), msgs)
			}
			for _, w := range append([]string{prefix + file + ": "}, c.want...) {
				if !strings.Contains(mine[0], w) {
					t.Fatalf("%s: %s (%s) says %q, want it to contain %q", ed.Kind, name(i), c.json, mine[0], w)
				}
			}
			// A request fails at once, with the same reason.
			reason := strings.TrimPrefix(mine[0], prefix)
			mustThrow(t, ed, "vigor#request('"+name(i)+"', 'greet', ['x'])",
				"[vigor] "+name(i)+".greet: the plugin failed to load: "+reason)
		}
		// The parser's own words are in the log (bad01: not valid JSON).
		if log := pluginLog(t, ed, name(1)); !strings.Contains(log, "lazy.json: Vim(") {
			t.Fatalf("%s: %s's log lacks the parser's error:\n%s", ed.Kind, name(1), log)
		}
		if _, err := os.Stat(marker); err == nil {
			t.Fatalf("%s: a name in lazy.json ran as a command", ed.Kind)
		}

		// Fixed, the file is read again by a reload.
		fix := "zfix" + ed.Kind
		mustEqual(t, ed, fix+"'s state", ed.MustEval(t, "vigor#plugin#status('"+fix+"')"), "failed")
		// Each editor's command has a name of its own: an editor that
		// starts after the other fixed its plugin finds that one lazy, with
		// its command.
		cmd := "Fixed" + strings.ToUpper(ed.Kind[:1]) + ed.Kind[1:]
		write(t, fix, "lazy.json", `{"commands": [{"name": "`+cmd+`"}]}`)
		ed.MustExec(t, "call vigor#plugin#reload('"+fix+"')")
		mustEqual(t, ed, "the fixed plugin's state", ed.MustEval(t, "vigor#plugin#status('"+fix+"')"), "lazy")
		mustEqual(t, ed, "the fixed plugin's command", ed.MustEval(t, "exists(':"+cmd+"')"), int64(2))
	})
}
