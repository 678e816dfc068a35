package host

import (
	"context"
	"io"
	"os"

	"github.com/vigorvim/vigor/internal/rpc"
)

// Conn is a plugin's channel to its editor, built by Open: the editor's
// codec with Vigor's protocol on top, the writer, the session and the
// editor's adapter, made together so that they agree (the way calls
// reach Vim, the keys of chunks, the wake-ups, the request ids). The SDK
// calls the editor through its Adapter and serves the editor through the
// Handler of Config.Options.
type Conn struct {
	Adapter
	codec  Codec
	sess   *rpc.Session
	remind *Reminder // Vim's reminders of answers; nil for Neovim
}

// Config is what Open needs.
type Config struct {
	Editor   string // "vim" or "nvim" ($VIGOR_HOST)
	VimCalls string // how calls reach Vim ($VIGOR_VIM_CALLS; NewCodec)
	Plugin   string // the plugin's name and instance, for the keys of
	Instance string // Vim's chunks (NewCodec)
	// In is the channel from the editor: an *os.File is read directly
	// (rpc.Options.Input). Out is the channel to it.
	In  io.Reader
	Out io.Writer
	// Options are the session's hooks (Handler, Preempt, ...); Open sets
	// Input, and the hooks of the editor's Reminder (Received, Answered,
	// Wrote).
	Options rpc.Options
}

// Open builds the Conn of cfg. Its session starts with Run.
func Open(cfg Config) (*Conn, error) {
	codec, err := NewCodec(cfg.Editor, cfg.VimCalls, cfg.Plugin, cfg.Instance, cfg.In)
	if err != nil {
		return nil, err
	}
	opts := cfg.Options
	opts.Input, _ = cfg.In.(*os.File)
	remind := NewReminder(codec)
	remind.Hook(&opts)
	sess := rpc.New(codec, NewWriter(cfg.Editor, cfg.Out), opts)
	remind.Attach(sess)
	return &Conn{Adapter: codec.adapter(sess), codec: codec, sess: sess, remind: remind}, nil
}

// Codec returns the codec of c, for decoding what the editor sends.
func (c *Conn) Codec() Codec { return c.codec }

// Run serves the channel until it ends or ctx is done (rpc.Session.Run).
func (c *Conn) Run(ctx context.Context) error { return c.sess.Run(ctx) }

// Done is closed when the channel has ended; Err says why.
func (c *Conn) Done() <-chan struct{} { return c.sess.Done() }

// Err is why the channel ended.
func (c *Conn) Err() error { return c.sess.Err() }

// Answering reports whether the request with token of vigor#request() is
// being answered (rpc.Session.Answering): called after a later message
// was read, false means its answer has been written.
func (c *Conn) Answering(token int64) bool { return c.sess.Answering(c.codec.RequestID(token)) }

// Wake writes the wake-up of the runtime's wait for the answer to the
// request with token, on an editor that needs one (Reminder.Wake).
func (c *Conn) Wake(token int64) error { return c.remind.Wake(c.codec.RequestID(token)) }
