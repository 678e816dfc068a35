package vigor

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

// A log that others could read is made the user's alone when the plugin
// opens it.
func TestOpenLogFileMakesItPrivate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "demo.log")
	if err := os.WriteFile(path, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := openLogFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Fatalf("the log is %v, want -rw-------", st.Mode().Perm())
	}
}

// A recovered panic is one record that names the place of the panic,
// then its stack as lines indented by a tab.
func TestLogPanicWritesStackAsLines(t *testing.T) {
	var out bytes.Buffer
	p := &Plugin{name: "demo", logOut: &out}
	func() {
		defer func() {
			p.logPanic("panic in handler", recover(), debug.Stack(), "method", "boom")
		}()
		panic("kaboom")
	}()
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) < 3 {
		t.Fatalf("want a record and stack lines, got %q", out.String())
	}
	rec := lines[0]
	for _, want := range []string{`msg="panic in handler"`, "plugin=demo", "method=boom", "panic=kaboom", "at=", "log_test.go:"} {
		if !strings.Contains(rec, want) {
			t.Errorf("the record %q lacks %q", rec, want)
		}
	}
	if strings.Contains(rec, `\n`) {
		t.Errorf("the record holds an escaped newline: %q", rec)
	}
	for _, l := range lines[1:] {
		if !strings.HasPrefix(l, "\t") {
			t.Fatalf("a stack line is not indented: %q", l)
		}
	}
	if !strings.HasPrefix(lines[1], "\tgoroutine ") {
		t.Errorf("the stack begins with %q, want its goroutine line", lines[1])
	}
}
