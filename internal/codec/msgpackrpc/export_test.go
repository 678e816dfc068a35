package msgpackrpc

import "github.com/vigorvim/vigor/internal/wire"

// AppendAtomicCalls appends the argument of nvim_call_atomic for calls,
// with CallAppender, as host.Batch does:
// [["nvim_call_function", [fn, args]], ...]. It writes straight into b,
// without building the nested lists. An argument that Neovim cannot take
// is a *wire.ValueError whose Path is the index of the call and of the
// argument.
func AppendAtomicCalls[C any](b []byte, calls []C, split func(C) (string, []any)) ([]byte, error) {
	var a CallAppender
	b = appendArrayLen(b, len(calls))
	for i, c := range calls {
		fn, args := split(c)
		var err error
		if b, err = a.AppendCall(b, fn, args, true); err != nil {
			if ve, ok := err.(*wire.ValueError); ok {
				return b, ve.In(i, 0, MaxMessageDepth-AtomicArgLevel+3)
			}
			return b, err
		}
	}
	return b, nil
}
