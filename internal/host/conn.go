package host

import (
	"context"
	"io"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/vigorvim/vigor/internal/rpc"
	"github.com/vigorvim/vigor/internal/wire"
)

// Conn is a plugin's channel to its editor, built by Open: the editor's
// codec with Vigor's protocol on top, the writer, the session and the
// editor's adapter, made together so that they agree (the way calls
// reach Vim, the keys of chunks, the wake-ups, the request ids). The SDK
// calls the editor through its Editor, whose results come as Values, and
// serves the editor through Config.Handler (inbound.go); it holds neither
// the session nor the codec.
type Conn struct {
	Editor
	codec  Codec
	sess   *rpc.Session
	remind *Reminder // Vim's reminders of answers; nil for Neovim
	cfg    Config
	log    *slog.Logger

	// asyncs holds the success ids of the request_async calls that have
	// been read and not yet answered, for $pending. Invariant, under mu:
	// an id goes in on the reading goroutine (preempt) before the next
	// message is read, and out once its answer has been written
	// (Answered), or at once when the call cannot be read.
	mu     sync.Mutex
	asyncs map[string]struct{}
}

// Config is what Open needs.
type Config struct {
	Editor   string // "vim" or "nvim" ($VIGOR_HOST)
	VimCalls string // how calls reach Vim ($VIGOR_VIM_CALLS; NewCodec)
	Plugin   string // the plugin's name and instance, for the keys of
	Instance string // Vim's chunks (NewCodec)
	// In is the channel from the editor: an *os.File is read through an
	// rpc.Input, from which callers may read their replies directly
	// (rpc.Options.Input). Out is the channel to it.
	In  io.Reader
	Out io.Writer
	// Handler serves what the editor sends (required).
	Handler Handler
	// Preempt, if set, sees every notification that host does not serve
	// itself, on the reading goroutine before it is queued, and reports
	// whether it served it (rpc.Options.Preempt). It must not block.
	Preempt func(method string, params Values) bool
	// Ending, if set, reports on the reading goroutine whether the
	// plugin is ending: a request_async call read then does not wait for
	// its turn in the queue (it may be behind the unload itself) but goes
	// to Handler.Late at once. It must not block.
	Ending func() bool
	// Bind, if set, returns the context of the handler of a message just
	// read, on the reading goroutine, in the order the messages came
	// (rpc.Options.Bind).
	Bind func() context.Context
	// BadMessage, if set, is told of a message that could not be read but
	// did not break the channel; for a request, it returns the answer
	// (rpc.Options.BadMessage).
	BadMessage func(method string, err error) any
	// Trace, if set, sees every message (rpc.Options.Trace): for one read
	// (in), v is what it carries, decoded, and m has only its Kind, ID
	// and Method.
	Trace func(in bool, m *wire.Message, v any)
	// Large and Observe are rpc.Options'.
	Large   func()
	Observe func(time.Duration)
	// Log, if set, is where host logs the editor's protocol troubles (a
	// bad $pending or $async message, an answer that cannot be written,
	// an error that the editor reports).
	Log *slog.Logger
}

// Open builds the Conn of cfg. Its session starts with Run.
func Open(cfg Config) (*Conn, error) {
	in := cfg.In
	var input *rpc.Input
	if f, ok := cfg.In.(*os.File); ok {
		input = rpc.NewInput(f)
		in = input
	}
	codec, err := NewCodec(cfg.Editor, cfg.VimCalls, cfg.Plugin, cfg.Instance, in)
	if err != nil {
		return nil, err
	}
	c := &Conn{codec: codec, cfg: cfg, log: cfg.Log, asyncs: make(map[string]struct{})}
	if c.log == nil {
		c.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	opts := c.options()
	opts.Input = input
	c.remind = NewReminder(codec)
	c.remind.Hook(&opts)
	c.sess = rpc.New(codec, NewWriter(cfg.Editor, cfg.Out), opts)
	c.remind.Attach(c.sess)
	codec.attach(c.sess)
	c.Editor = Editor{ad: codec.adapter(c.sess), codec: codec}
	return c, nil
}

// Run serves the channel until it ends or ctx is done (rpc.Session.Run).
func (c *Conn) Run(ctx context.Context) error { return c.sess.Run(ctx) }

// Done is closed when the channel has ended; Err says why.
func (c *Conn) Done() <-chan struct{} { return c.sess.Done() }

// Err is why the channel ended.
func (c *Conn) Err() error { return c.sess.Err() }

// answering reports whether the request with token of vigor#request() is
// being answered (rpc.Session.Answering): called after a later message
// was read, false means its answer has been written.
func (c *Conn) answering(token int64) bool { return c.sess.Answering(c.codec.RequestID(token)) }

// wake writes the wake-up of the runtime's wait for the answer to the
// request with token, on an editor that needs one (Reminder.Wake).
func (c *Conn) wake(token int64) error { return c.remind.Wake(c.codec.RequestID(token)) }
