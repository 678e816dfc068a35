package host

import "github.com/vigorvim/vigor/internal/wire"

// Raw is what v holds, encoded, for tests that check the bytes.
func Raw(v Value) wire.Raw { return v.raw }

// Raws are what vs hold, encoded.
func Raws(vs Values) []wire.Raw { return vs.raws }

// AdapterOf is the adapter under c, for tests of the adapters' answers
// over a whole Conn.
func AdapterOf(c *Conn) Adapter { return c.ad }
