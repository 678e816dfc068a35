package host

import (
	"time"

	"github.com/vigorvim/vigor/internal/wire"
)

// Raw is what v holds, encoded, for tests that check the bytes.
func Raw(v Value) wire.Raw { return v.raw }

// Raws are what vs hold, encoded.
func Raws(vs Values) []wire.Raw { return vs.raws }

// AdapterOf is the adapter under c, for tests of the adapters' answers
// over a whole Conn.
func AdapterOf(c *Conn) Adapter { return c.ad }

// AttachCodec gives c the writer of its own writes (Neovim's "later").
func AttachCodec(c Codec, w RawWriter) { c.attach(w) }

// SetCallBound sets how long a Neovim codec's $call may wait for its
// answer (callBound), before it reads any.
func SetCallBound(c Codec, d time.Duration) { c.(*nvimCodec).calls.bound = d }
