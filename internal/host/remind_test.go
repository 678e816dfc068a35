package host

import (
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/vigorvim/vigor/internal/rpc"
	"github.com/vigorvim/vigor/internal/wire"
)

// rawLog is a RawWriter that keeps what is written.
type rawLog struct {
	mu     sync.Mutex
	writes []string
	err    error
}

func (l *rawLog) WriteRaw(appendFn func([]byte) []byte) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.writes = append(l.writes, string(appendFn(nil)))
	return nil
}

func (l *rawLog) Err() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.err
}

// take returns the writes since the last take.
func (l *rawLog) take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	w := l.writes
	l.writes = nil
	return w
}

func newTestReminder(t *testing.T) (*Reminder, *rawLog) {
	t.Helper()
	c, err := NewCodec("vim", "", "p", "1", strings.NewReader(""))
	if err != nil {
		t.Fatal(err)
	}
	r := NewReminder(c)
	if r == nil {
		t.Fatal("no Reminder for Vim's codec with a reply function")
	}
	var o rpc.Options
	r.Hook(&o)
	if o.Received == nil || o.Answered == nil || o.Wrote == nil {
		t.Fatal("Hook left a hook unset")
	}
	r.timer.Stop() // the test calls remind itself
	log := &rawLog{}
	r.Attach(log)
	return r, log
}

// The reminders: while the session keeps writing calls of its own, a
// reminder writes the wake-ups of the answers written since a request was
// last read; without calls of its own, or after an answer, it writes none
// and stops; a new request clears the list.
func TestReminders(t *testing.T) {
	r, log := newTestReminder(t)
	expect := func(what string, want ...string) {
		t.Helper()
		if got := log.take(); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: wrote %q, want %q", what, got, want)
		}
	}

	r.received(1)
	r.answered(1)
	r.remind()
	expect("without calls of ours")
	if r.on {
		t.Error("the timer stays armed after a reminder without calls of ours")
	}

	r.received(2)
	r.answered(2)
	r.wrote(wire.Notification)
	r.remind()
	expect("after a notification", "[2,0]\n")
	r.wrote(wire.Request)
	r.remind()
	expect("after a call", "[2,0]\n")
	r.remind()
	expect("after nothing")

	r.answered(2)
	r.received(3) // the editor read everything before its request 3
	r.answered(3)
	r.answered(4)
	r.wrote(wire.Request)
	r.remind()
	expect("after request 3", "[3,0]\n[4,0]\n")

	r.answered(5)
	r.wrote(wire.Notification)
	r.wrote(wire.Response) // an answer ends the editor's wait anyway
	r.remind()
	expect("after an answer")

	if err := r.Wake(6, 7); err != nil {
		t.Fatal(err)
	}
	expect("Wake", "[6,0]\n[7,0]\n")

	r.answered(8)
	r.wrote(wire.Request)
	log.err = errors.New("ended")
	r.remind()
	expect("after the session ended")
	if r.on {
		t.Error("the timer stays armed after the session ended")
	}
}

// Neovim needs no reminders: there is no Reminder, and a nil one does
// nothing.
func TestNoRemindersForNeovim(t *testing.T) {
	c, err := NewCodec("nvim", "", "p", "1", strings.NewReader(""))
	if err != nil {
		t.Fatal(err)
	}
	r := NewReminder(c)
	if r != nil {
		t.Fatal("a Reminder for Neovim")
	}
	var o rpc.Options
	r.Hook(&o)
	r.Attach(&rawLog{})
	if o.Received != nil || o.Answered != nil || o.Wrote != nil {
		t.Error("a nil Reminder set hooks")
	}
	if err := r.Wake(1); err != nil {
		t.Error(err)
	}
}
