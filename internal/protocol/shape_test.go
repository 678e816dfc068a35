package protocol

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// The shapes of what a plugin's answer carries, the reply tuple and the
// error object, are defined here and built again by the runtime; these
// tests fail when the runtime's side drifts from the constants.

// function returns the body of the Vim-script function name in src, from
// its `function!` line to its `endfunction`.
func function(t *testing.T, src, name string) string {
	t.Helper()
	start := strings.Index(src, "function! "+name+"(")
	if start < 0 {
		t.Fatalf("the runtime (autoload/) has no function %s()", name)
	}
	body := src[start:]
	end := strings.Index(body, "\nendfunction")
	if end < 0 {
		t.Fatalf("%s() has no endfunction", name)
	}
	return body[:end]
}

// dictEntries parses the entries of a Vim-script Dict literal with String
// keys: 'key': value, value up to the next entry.
func dictEntries(lit string) map[string]string {
	out := make(map[string]string)
	for _, m := range regexp.MustCompile(`'(\w+)'\s*:\s*((?:[^,{}]|\{\w+\})+)`).FindAllStringSubmatch(lit, -1) {
		out[m[1]] = strings.TrimSpace(m[2])
	}
	return out
}

func keysOf(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// errorKeys returns the values of the ErrorKey* constants, so that a key
// added to the error object in Go is looked for in the runtime too.
func errorKeys(t *testing.T) []string {
	t.Helper()
	var keys []string
	for _, v := range constants(t, "ErrorKey") {
		keys = append(keys, v)
	}
	sort.Strings(keys)
	return keys
}

func TestErrorObjectKeys(t *testing.T) {
	obj := ErrorObject("hello", "greet", "it failed")
	got := make([]string, 0, len(obj))
	for k := range obj {
		got = append(got, k)
	}
	sort.Strings(got)
	if want := errorKeys(t); !reflect.DeepEqual(got, want) {
		t.Fatalf("ErrorObject has the keys %v, but the ErrorKey* constants are %v", got, want)
	}
	want := map[string]any{ErrorKeyName: ErrorName, ErrorKeyPlugin: "hello", ErrorKeyMethod: "greet", ErrorKeyMessage: "it failed"}
	if !reflect.DeepEqual(obj, want) {
		t.Fatalf("ErrorObject = %v, want %v", obj, want)
	}
}

// The runtime's error object (a request_async call that the plugin never
// answered) has the SDK's keys and values, and every failure that the
// runtime resolves itself carries it.
func TestErrorObjectMatchesRuntime(t *testing.T) {
	src := readAll(t)
	body := function(t, src, "s:error_object")
	sig := regexp.MustCompile(`^function! s:error_object\((\w+), (\w+), (\w+)\) abort`).FindStringSubmatch(body)
	if sig == nil {
		t.Fatalf("s:error_object() is not `function! s:error_object(name, method, msg) abort`:\n%s", body)
	}
	lit := regexp.MustCompile(`(?m)^\s*return (\{.*\})\s*$`).FindStringSubmatch(body)
	if lit == nil {
		t.Fatalf("s:error_object() does not return a Dict literal on one line:\n%s", body)
	}
	entries := dictEntries(lit[1])
	if got, want := keysOf(entries), errorKeys(t); !reflect.DeepEqual(got, want) {
		t.Fatalf("s:error_object() in the runtime (autoload/) has the keys %v, but the SDK's error object (protocol.ErrorKey*) has %v: change both together", got, want)
	}
	want := map[string]string{
		ErrorKeyName:    "'" + ErrorName + "'",
		ErrorKeyPlugin:  "a:" + sig[1],
		ErrorKeyMethod:  "a:" + sig[2],
		ErrorKeyMessage: "a:" + sig[3],
	}
	for _, k := range keysOf(want) {
		if entries[k] != want[k] {
			t.Errorf("s:error_object() sets %q to %s, want %s (protocol.ErrorObject)", k, entries[k], want[k])
		}
	}
	// Every failure the runtime resolves itself goes through it.
	calls := regexp.MustCompile(`callback#resolve\(([^\n]|\n\s*\\)*`).FindAllString(src, -1)
	failures := 0
	for _, c := range calls {
		if !strings.Contains(c, "v:false") {
			continue
		}
		failures++
		if !strings.Contains(c, "s:error_object(") {
			t.Errorf("the runtime (autoload/) resolves a failure without s:error_object(): %s", c)
		}
	}
	if failures == 0 {
		t.Error("found no failure resolved by the runtime (callback#resolve(..., v:false, ...)): the check reads the wrong thing")
	}
}

// The user's manual shows the error object with the same keys.
func TestErrorObjectMatchesManual(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "doc", "vigor.txt"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`\{'` + ErrorKeyName + `': '` + ErrorName + `'(?:[^{}]|\{\w+\})*\}`).Find(doc)
	if m == nil {
		t.Fatalf("doc/vigor.txt does not show the error object ({'%s': '%s', ...})", ErrorKeyName, ErrorName)
	}
	got := keysOf(dictEntries(string(m)))
	if want := errorKeys(t); !reflect.DeepEqual(got, want) {
		t.Fatalf("doc/vigor.txt shows the error object with the keys %v, but it has %v (protocol.ErrorKey*)", got, want)
	}
}

// The runtime unpacks the reply tuple as the SDK builds it: both fast
// paths of vigor#request() return its result when its error is null, and
// the error path throws the error after "[vigor] plugin.method: ".
func TestReplyTupleMatchesRuntime(t *testing.T) {
	// The legacy fast path (autoload/vigor.vim, Neovim) and the Vim9 one.
	ok := regexp.MustCompile(`len\((?:l:)?res\) == (\d+) && (?:l:res\[(\d+)\] is v:null|type\(res\[(\d+)\]\) == v:t_none)\s*\n\s*return (?:l:)?res\[(\d+)\]`)
	for _, rel := range []string{"vigor.vim", "vigor/_internal/vim9/autoload/vigor.vim"} {
		m := ok.FindStringSubmatch(readRuntime(t, rel))
		if m == nil {
			t.Errorf("autoload/%s does not return the result of a reply `len(res) == N && res[E] is null` (or `type(res[E]) == v:t_none`) as `return res[R]`", rel)
			continue
		}
		errIndex := m[2] + m[3]
		for what, pair := range map[string][2]string{
			"length": {m[1], strconv.Itoa(ReplyLen)},
			"error":  {errIndex, strconv.Itoa(ReplyError)},
			"result": {m[4], strconv.Itoa(ReplyResult)},
		} {
			if pair[0] != pair[1] {
				t.Errorf("autoload/%s takes the reply tuple's %s as %s, but the SDK's is %s (protocol.Reply*): change both together", rel, what, pair[0], pair[1])
			}
		}
	}

	src := readAll(t)
	fail := function(t, src, "vigor#_internal#request#fail")
	for _, want := range []string{
		"len(l:res) != " + strconv.Itoa(ReplyLen),
		"s:nested(a:p.name . '.' . a:method, l:res[" + strconv.Itoa(ReplyError) + "])",
	} {
		if !strings.Contains(fail, want) {
			t.Errorf("vigor#_internal#request#fail() lacks %s (protocol.Reply*, ErrorPrefix)", want)
		}
	}
	nested := function(t, src, "s:nested")
	if want := "return printf('" + ErrorPrefix + "%s: %s', a:call, a:msg)"; !strings.Contains(nested, want) {
		t.Errorf("s:nested() in the runtime (autoload/) lacks %s (protocol.ErrorPrefix)", want)
	}
	// Neovim sends result and error as two arguments of FuncReply, Vim the
	// tuple as one.
	reply := function(t, src, FuncReply)
	if want := "a:0 == 1 ? a:1 : a:000"; !strings.Contains(reply, want) {
		t.Errorf("%s() lacks %s: it must keep the tuple whether it comes as one argument or as %d", FuncReply, want, ReplyLen)
	}
}
