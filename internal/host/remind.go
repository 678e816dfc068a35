package host

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/vigorvim/vigor/internal/rpc"
	"github.com/vigorvim/vigor/internal/wire"
)

// Reminder reminds Vim of the answers it may have lost. Vim drops input
// that it cannot read, an answer with it, and learns of the loss by
// asking whether a request is still being answered ($pending) once its
// wait for the answer gets the time to ask. That wait is a read of the
// channel for the answer's wake-up, which starts again whenever anything
// arrives on the channel: while the plugin keeps calling, the wait never
// ends. So the Reminder remembers the editor's requests answered since a
// request was last read (unconfirmed), and a second after the first of
// them, if calls or notifications of the plugin's went out since the last
// answer or reminder (sent), writes their wake-ups again, and looks again
// a second later. Vim drops the wake-ups of answers it got; a wait for one
// of them ends and gets the time to ask. A new request from the editor, or
// a second without calls of ours, clears the list. That costs a busy
// plugin at most one small write a second, and an idle one nothing. It is
// best effort: an answer written while the timer's function runs may go
// without reminders.
//
// A nil *Reminder (Neovim, which closes a channel that sends what it
// cannot read) does nothing.
type Reminder struct {
	wake  func(b []byte, id int64) []byte
	after time.Duration
	sent  atomic.Bool // a call or notification of ours went out since the last answer or reminder

	mu sync.Mutex
	// w is the session (Attach). unconfirmed holds at most maxUnconfirmed
	// ids; on is true while timer is armed: Answered arms it, and remind
	// disarms it.
	w           RawWriter
	unconfirmed []int64
	on          bool
	timer       *time.Timer
}

// RawWriter is the part of rpc.Session that a Reminder writes with.
type RawWriter interface {
	WriteRaw(appendFn func(b []byte) []byte) error
	Err() error
}

var _ RawWriter = (*rpc.Session)(nil)

// remindAfter is how long after an answer the Reminder first reminds the
// editor of it, and then the time between reminders.
const remindAfter = time.Second

// maxUnconfirmed bounds the answers that a reminder names.
const maxUnconfirmed = 64

// NewReminder returns the Reminder for a session with codec c, or nil
// when its editor needs none.
func NewReminder(c Codec) *Reminder {
	wake := c.Wake()
	if wake == nil {
		return nil
	}
	r := &Reminder{wake: wake, after: remindAfter}
	r.timer = time.AfterFunc(time.Hour, r.remind)
	r.timer.Stop()
	return r
}

// Hook sets the hooks of o through which r follows the session.
func (r *Reminder) Hook(o *rpc.Options) {
	if r == nil {
		return
	}
	o.Received, o.Answered, o.Wrote = r.received, r.answered, r.wrote
}

// Attach gives r the session that it writes to, before the session runs.
func (r *Reminder) Attach(w RawWriter) {
	if r == nil {
		return
	}
	r.mu.Lock()
	r.w = w
	r.mu.Unlock()
}

// Wake writes the wake-ups of the editor's waits for the answers to its
// requests ids, in order with the session's writes.
func (r *Reminder) Wake(ids ...int64) error {
	if r == nil || len(ids) == 0 {
		return nil
	}
	r.mu.Lock()
	w := r.w
	r.mu.Unlock()
	return r.write(w, ids)
}

func (r *Reminder) write(w RawWriter, ids []int64) error {
	return w.WriteRaw(func(b []byte) []byte {
		for _, id := range ids {
			b = r.wake(b, id)
		}
		return b
	})
}

// received: a request from the editor was read, so it has read all that
// was written before its request (rpc.Options.Received).
func (r *Reminder) received(int64) {
	r.mu.Lock()
	r.unconfirmed = r.unconfirmed[:0]
	r.mu.Unlock()
}

// answered: the answer to the editor's request id was written
// (rpc.Options.Answered).
func (r *Reminder) answered(id int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.unconfirmed) < maxUnconfirmed {
		r.unconfirmed = append(r.unconfirmed, id)
		if !r.on {
			r.on = true
			r.timer.Reset(r.after)
		}
	}
}

// wrote: a message of kind was written (rpc.Options.Wrote).
func (r *Reminder) wrote(kind wire.Kind) { r.sent.Store(kind != wire.Response) }

// remind runs on the timer's goroutine: it writes the wake-ups of the
// unconfirmed answers if calls of ours went out since the last time, and
// arms the timer again; otherwise, or once the session has ended, it
// clears them and stops.
func (r *Reminder) remind() {
	sent := r.sent.Swap(false)
	r.mu.Lock()
	w := r.w
	if !sent || len(r.unconfirmed) == 0 || w == nil || w.Err() != nil {
		r.unconfirmed = r.unconfirmed[:0]
		r.on = false
		r.mu.Unlock()
		return
	}
	ids := append([]int64(nil), r.unconfirmed...)
	r.timer.Reset(r.after)
	r.mu.Unlock()
	_ = r.write(w, ids)
}
