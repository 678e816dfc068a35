package fakeeditor

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/vigorvim/vigor/internal/protocol"
)

// readVim reads the plugin's frames, each a JSON value on a line of its
// own (the SDK ends every frame with the one newline it writes), and runs
// them as Vim and the runtime's channel callback do.
func (e *Editor) readVim(br *bufio.Reader) error {
	for {
		line, err := br.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) == 0 {
			if err != nil {
				return err
			}
			continue
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				return fmt.Errorf("the plugin's output ended inside a message: %.100q", line)
			}
			return err
		}
		v, err := decodeJSON(line)
		if err != nil {
			// Vim drops it without a word; a test wants to know.
			return fmt.Errorf("Vim cannot read %.100q: %w", line, err)
		}
		if err := e.vimFrame(v); err != nil {
			return err
		}
	}
}

// vimFrame runs one frame of the plugin.
func (e *Editor) vimFrame(v any) error {
	items, _ := v.([]any)
	if len(items) == 2 {
		if id, ok := items[0].(int64); ok && id != 0 {
			// [token, 0]: the wake-up that follows the answer to our
			// request token (or to its $pending), which came as a command
			// of FuncReply; it ends the runtime's ch_read() for token.
			if id > 0 && items[1] == int64(0) {
				return nil
			}
			return fmt.Errorf("the plugin answered request %d with %.100v, not with a call of %s", id, items[1], protocol.FuncReply)
		}
		if items[0] == int64(0) {
			// [0, [-id, fn, args]]: a call for the runtime's channel
			// callback, vigor#_internal#api#vim#on_call().
			call, _ := items[1].([]any)
			if len(call) != 3 {
				return fmt.Errorf("the channel callback cannot run %.100v: want [-id, function, arguments]", items[1])
			}
			id, _ := call[0].(int64)
			fn, okFn := call[1].(string)
			args, okArgs := call[2].([]any)
			if id >= 0 || !okFn || !okArgs {
				return fmt.Errorf("the channel callback cannot run %.100v: want [-id, function, arguments]", items[1])
			}
			e.vimRun(fn, args, func(res any, err error) {
				var body *Body
				switch {
				case errors.As(err, &body):
					_ = e.sendVim([]any{id, body.Value})
				case err != nil:
					_ = e.sendVim([]any{id, []any{nil, err.Error()}})
				default:
					_ = e.sendVim([]any{id, []any{res, nil}})
				}
			})
			return nil
		}
	}
	if (len(items) == 3 || len(items) == 4) && items[0] == "call" {
		// ["call", fn, args] and ["call", fn, args, -id]: Vim's channel
		// command "call".
		fn, okFn := items[1].(string)
		args, okArgs := items[2].([]any)
		if !okFn || !okArgs {
			return fmt.Errorf("Vim cannot run the command %.100v", items)
		}
		if len(items) == 3 {
			e.vimRun(fn, args, nil)
			return nil
		}
		id, ok := items[3].(int64)
		if !ok || id >= 0 {
			return fmt.Errorf("the command %.100v has no id -N", items)
		}
		if strings.TrimPrefix(fn, "g:") == vimCall && len(args) == 2 {
			// The legacy wrapper (the 'command' way): it answers
			// [result, v:null] or [v:null, error].
			name, _ := args[0].(string)
			list, okList := args[1].([]any)
			if okList {
				e.vimRun(name, list, func(res any, err error) {
					if err != nil {
						_ = e.sendVim([]any{id, []any{nil, err.Error()}})
					} else {
						_ = e.sendVim([]any{id, []any{res, nil}})
					}
				})
				return nil
			}
		}
		// Another function: Vim answers its result, or "ERROR".
		e.vimRun(fn, args, func(res any, err error) {
			if err != nil {
				res = "ERROR"
			}
			_ = e.sendVim([]any{id, res})
		})
		return nil
	}
	return fmt.Errorf("Vim cannot run %.100v", v)
}

// vimRun runs fn with args, and gives its result to answer (nil for a
// command without id, whose error Vim silences).
func (e *Editor) vimRun(fn string, args []any, answer func(any, error)) {
	fn = strings.TrimPrefix(fn, "g:")
	if fn == vimChunked {
		// The call whose [function, arguments] came in chunks.
		name, list, err := e.takeChunks(args)
		if err != nil {
			if answer != nil {
				answer(nil, err)
			}
			return
		}
		fn, args = strings.TrimPrefix(name, "g:"), list
	}
	switch {
	case fn == protocol.FuncReply && answer == nil:
		// [token, [result, error]]: the answer to our request token.
		if len(args) == 2 {
			token, _ := args[0].(int64)
			if pair, ok := args[1].([]any); ok && len(pair) == 2 {
				e.deliver(token, pair[0], pair[1])
			}
		}
		return
	case fn == vimChunk:
		if len(args) == 2 {
			key, _ := args[0].(string)
			text, _ := args[1].(string)
			e.mu.Lock()
			e.chunks[key] = append(e.chunks[key], text)
			e.mu.Unlock()
		}
		if answer != nil {
			answer(nil, nil)
		}
		return
	}
	e.dispatch(func() {
		res, err := e.runFn(fn, args, answer != nil)
		if answer != nil {
			answer(res, err)
		}
	})
}

func (e *Editor) sendVim(v any) error {
	b, err := appendJSON(nil, v)
	if err != nil {
		return fmt.Errorf("fakeeditor: %w", err)
	}
	b = append(b, '\n')
	e.wmu.Lock()
	defer e.wmu.Unlock()
	_, err = e.toPlugin.Write(b)
	return err
}

// nonFinite marks Vim's bare NaN and infinities as Strings that
// encoding/json reads, for vimValue to turn back into Floats.
const nonFinite = "\x00vigor-float:"

// decodeJSON decodes one JSON value as Vim's json_decode() does: a
// Number is an int64, a Float a float64 (NaN and the infinities as Vim
// writes them, bare words), a List an []any, a Dict a map[string]any,
// v:null nil.
func decodeJSON(b []byte) (any, error) {
	if bytes.Contains(b, []byte("NaN")) || bytes.Contains(b, []byte("Infinity")) {
		b = markNonFinite(b)
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, errors.New("more than one value")
	}
	return vimValue(v)
}

// markNonFinite rewrites the words NaN, Infinity and -Infinity outside
// Strings as Strings that start with nonFinite.
func markNonFinite(b []byte) []byte {
	var out []byte
	inString, escaped := false, false
	for i := 0; i < len(b); i++ {
		c := b[i]
		if inString {
			out = append(out, c)
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		word := ""
		for _, w := range []string{"NaN", "Infinity", "-Infinity"} {
			if bytes.HasPrefix(b[i:], []byte(w)) {
				word = w
			}
		}
		if word != "" {
			out = append(out, `"\u0000vigor-float:`+word+`"`...) // nonFinite, in JSON
			i += len(word) - 1
			continue
		}
		inString = c == '"'
		out = append(out, c)
	}
	return out
}

func vimValue(v any) (any, error) {
	switch v := v.(type) {
	case json.Number:
		if !strings.ContainsAny(string(v), ".eE") {
			if n, err := strconv.ParseInt(string(v), 10, 64); err == nil {
				return n, nil
			}
		}
		return strconv.ParseFloat(string(v), 64)
	case string:
		if w, ok := strings.CutPrefix(v, nonFinite); ok {
			switch w {
			case "NaN":
				return math.NaN(), nil
			case "Infinity":
				return math.Inf(1), nil
			}
			return math.Inf(-1), nil
		}
		return v, nil
	case []any:
		for i := range v {
			x, err := vimValue(v[i])
			if err != nil {
				return nil, err
			}
			v[i] = x
		}
		return v, nil
	case map[string]any:
		for k, x := range v {
			x, err := vimValue(x)
			if err != nil {
				return nil, err
			}
			v[k] = x
		}
		return v, nil
	}
	return v, nil
}

// appendJSON encodes v as Vim's json_encode() does: Floats with the
// shortest text (NaN and the infinities as bare words), a []byte (a Blob)
// as a List of Numbers.
func appendJSON(b []byte, v any) ([]byte, error) {
	switch v := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case float64:
		return appendFloat(b, v), nil
	case float32:
		return appendFloat(b, float64(v)), nil
	case []byte:
		b = append(b, '[')
		for i, c := range v {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(c), 10)
		}
		return append(b, ']'), nil
	case []any:
		b = append(b, '[')
		for i, x := range v {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = appendJSON(b, x); err != nil {
				return b, err
			}
		}
		return append(b, ']'), nil
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			kb, _ := json.Marshal(k)
			b = append(append(b, kb...), ':')
			var err error
			if b, err = appendJSON(b, v[k]); err != nil {
				return b, err
			}
		}
		return append(b, '}'), nil
	}
	j, err := json.Marshal(v)
	if err != nil {
		return b, err
	}
	return append(b, j...), nil
}

func appendFloat(b []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(b, "NaN"...)
	case math.IsInf(f, 1):
		return append(b, "Infinity"...)
	case math.IsInf(f, -1):
		return append(b, "-Infinity"...)
	}
	return strconv.AppendFloat(b, f, 'g', -1, 64)
}
