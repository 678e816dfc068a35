package host

import (
	"context"
	"fmt"

	"github.com/vigorvim/vigor/internal/wire"
)

// Adapter is what every editor adapter provides.
type Adapter interface {
	Call(ctx context.Context, fn string, args []any) (wire.Raw, error)
	Notify(ctx context.Context, fn string, args []any) error
	// NewBatch returns an empty Batch for this editor, and SendBatch runs
	// its calls in one round trip and returns their results; if a call
	// fails, the error is a *BatchError and the results are those of the
	// calls before it.
	NewBatch() *Batch
	SendBatch(ctx context.Context, b *Batch) ([]wire.Raw, error)
	// EditorNotification reports whether m is a notification that the
	// editor sends of its own accord, rather than one of the runtime's
	// (a plugin's method, or a reserved one), and returns the error it
	// reports, if any, for the log. Neovim reports the failure of a
	// notification that the plugin sent with nvim_error_event.
	EditorNotification(m *wire.Message) (bool, error)
}

// RunBatch runs calls in one round trip through a Batch of a.
func RunBatch(ctx context.Context, a Adapter, calls []Call) ([]wire.Raw, error) {
	b := a.NewBatch()
	for _, c := range calls {
		if err := b.Add(c.Fn, c.Args); err != nil {
			return nil, err
		}
	}
	return a.SendBatch(ctx, b)
}

// decodeBatch reads [results, v:null | [index, message]].
func decodeBatch(codec wire.Codec, calls *Batch, raw wire.Raw) ([]wire.Raw, error) {
	pair, err := codec.SplitList(raw)
	if err != nil || len(pair) != 2 {
		return nil, fmt.Errorf("unexpected batch reply from the editor: %.100s", raw)
	}
	results, err := codec.SplitList(pair[0])
	if err != nil {
		return nil, fmt.Errorf("unexpected batch results from the editor: %w", err)
	}
	if codec.IsNull(pair[1]) {
		return results, nil
	}
	var fail []any
	if err := codec.Unmarshal(pair[1], &fail); err != nil || len(fail) < 2 {
		return results, fmt.Errorf("unexpected batch error from the editor: %.100s", pair[1])
	}
	idx, _ := fail[0].(int64)
	full := fmt.Sprint(fail[len(fail)-1])
	be := &BatchError{Index: int(idx), Msg: editorMessage(full), Full: full}
	if be.Index >= 0 && be.Index < calls.Len() {
		be.Fn = calls.Fn(be.Index)
	}
	if len(results) > be.Index {
		results = results[:be.Index]
	}
	return results, be
}
