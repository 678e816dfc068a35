package vigor

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
)

// maxLog is the size at which a plugin's log is moved to <log>.1 (replacing
// the older one) when the plugin starts.
const maxLog = 1 << 20

// openLog returns the plugin's logger, the writer it writes to, and the
// name of the log for messages: the file path (openLogFile), or fallback
// when there is no path or the file cannot be opened.
func openLog(path string, fallback io.Writer, name string) (*slog.Logger, io.Writer, string) {
	var w io.Writer = &lockedWriter{w: fallback}
	shown := "the plugin's stderr"
	if path != "" {
		if f, err := openLogFile(path); err == nil {
			w, shown = f, path
		}
	}
	l := slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelDebug}))
	return l.With(logAttrs(name)...), w, shown
}

// logAttrs are the attributes of every record of the plugin's log.
func logAttrs(name string) []any {
	return []any{"plugin", name, "pid", strconv.Itoa(os.Getpid())}
}

// openLogFile opens the log at path for appending, first moving a log over
// maxLog to path.1. The file is the user's alone (0600), also when an
// older one was not: it holds what the plugin prints.
func openLogFile(path string) (*os.File, error) {
	if st, err := os.Stat(path); err == nil && st.Size() > maxLog {
		_ = os.Rename(path, path+".1")
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open the log: %w", err)
	}
	// Only the file's owner can change its mode; the log is no less usable
	// when that fails.
	_ = f.Chmod(0o600)
	return f, nil
}

// logPanic writes a record of the recovered panic r to the log: one line
// that says where it happened, then stack (debug.Stack, taken in the
// deferred call that recovered it) as lines indented by a tab, in one
// write, so that no other record comes between them. Call it from that
// deferred call, while the panicking frames are still on the stack.
func (p *Plugin) logPanic(msg string, r any, stack []byte, attrs ...any) {
	var b bytes.Buffer
	l := slog.New(slog.NewTextHandler(&b, nil)).With(logAttrs(p.name)...)
	l.Error(msg, append(attrs, "panic", fmt.Sprint(r), "at", panicSite())...)
	for _, line := range strings.SplitAfter(strings.TrimRight(string(stack), "\n"), "\n") {
		b.WriteByte('\t')
		b.WriteString(line)
	}
	b.WriteByte('\n')
	_, _ = p.logOut.Write(b.Bytes())
}

// panicSite returns file:line of the function that panicked: the first
// frame outside the runtime below runtime.gopanic, on the stack of a
// deferred call that runs because of the panic ("" if there is none).
func panicSite() string {
	pc := make([]uintptr, 64)
	frames := runtime.CallersFrames(pc[:runtime.Callers(1, pc)])
	panicking := false
	for {
		f, more := frames.Next()
		if panicking && !strings.HasPrefix(f.Function, "runtime.") {
			return fmt.Sprintf("%s:%d", f.File, f.Line)
		}
		panicking = panicking || f.Function == "runtime.gopanic"
		if !more {
			return ""
		}
	}
}

// lockedWriter serializes the writes to a writer that may not be safe for
// concurrent use (the fallback of the log, when it has no file): the
// logger and logPanic both write to it.
type lockedWriter struct {
	mu sync.Mutex // held for each Write to w
	w  io.Writer
}

func (l *lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}
