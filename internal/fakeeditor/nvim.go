package fakeeditor

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/vmihailenco/msgpack/v5"

	"github.com/vigorvim/vigor/internal/protocol"
)

// readNvim reads the plugin's msgpack-RPC messages and runs them as
// Neovim does.
func (e *Editor) readNvim(br *bufio.Reader) error {
	dec := msgpack.NewDecoder(br)
	dec.UseLooseInterfaceDecoding(true)
	for {
		v, err := dec.DecodeInterfaceLoose()
		if err != nil {
			return err
		}
		msg, _ := nvimValue(v).([]any)
		kind, _ := first(msg).(int64)
		switch {
		case kind == 0 && len(msg) == 4:
			// [0, id, method, params]: a request.
			id, okID := msg[1].(int64)
			method, okM := msg[2].(string)
			params, okP := msg[3].([]any)
			if !okID || !okM || !okP {
				return fmt.Errorf("Neovim cannot read the request %.100v", msg)
			}
			e.dispatch(func() {
				res, err := e.nvimRun(method, params, true)
				var body *Body
				switch {
				case errors.As(err, &body):
					_ = e.sendNvim([]any{1, id, body.Value, nil})
				case err != nil:
					_ = e.sendNvim([]any{1, id, []any{0, err.Error()}, nil})
				default:
					_ = e.sendNvim([]any{1, id, nil, res})
				}
			})
		case kind == 2 && len(msg) == 3:
			// [2, method, params]: a notification.
			method, okM := msg[1].(string)
			params, okP := msg[2].([]any)
			if !okM || !okP {
				return fmt.Errorf("Neovim cannot read the notification %.100v", msg)
			}
			if method == "nvim_call_function" && len(params) == 2 && params[0] == protocol.FuncReply {
				// (token, result, error), or (token, [result, error]).
				args, _ := params[1].([]any)
				token, _ := first(args).(int64)
				switch len(args) {
				case 3:
					e.deliver(token, args[1], args[2])
				case 2:
					if pair, ok := args[1].([]any); ok && len(pair) == 2 {
						e.deliver(token, pair[0], pair[1])
					}
				}
				continue
			}
			e.dispatch(func() {
				if _, err := e.nvimRun(method, params, false); err != nil {
					_ = e.sendNvim([]any{2, "nvim_error_event", []any{0, err.Error()}})
				}
			})
		case kind == 1 && len(msg) == 4:
			// [1, id, error, result]: the response to a $call.
			if err := e.response(msg); err != nil {
				return err
			}
		case kind == 1:
			return fmt.Errorf("Neovim cannot read the response %.100v", msg)
		default:
			return fmt.Errorf("Neovim cannot read %.100v", v)
		}
	}
}

func first(l []any) any {
	if len(l) == 0 {
		return nil
	}
	return l[0]
}

// nvimRun runs the API method with params.
func (e *Editor) nvimRun(method string, params []any, request bool) (any, error) {
	switch method {
	case "nvim_call_function":
		if len(params) != 2 {
			return nil, fmt.Errorf("Wrong number of arguments: expecting 2 but got %d", len(params))
		}
		fn, ok := params[0].(string)
		args, okArgs := params[1].([]any)
		if !ok || !okArgs {
			return nil, fmt.Errorf("Wrong type for argument 1 when calling nvim_call_function, expecting String")
		}
		return e.runFn(fn, args, request)
	case "nvim_call_atomic":
		if err := e.helperError(method); err != nil {
			return nil, err
		}
		return e.batch(method, params, request, true)
	case "nvim_exec_lua":
		// The SDK's Lua loop of a batch (internal/host, batchLua): code
		// that pcalls vim.call(fn, unpack(args)) for each [fn, args] of
		// its one argument and returns [results, v:null] or [results,
		// [index, error]], as the Vim-script loop does.
		code, _ := params[0].(string)
		if len(params) == 2 && strings.Contains(code, "pcall(vim.call") {
			if err := e.helperError(method); err != nil {
				return nil, err
			}
			args, _ := params[1].([]any)
			return e.batch(method, args, request, false)
		}
	}
	e.record(Call{Fn: method, Args: params, Request: request})
	return e.opts.Answer(method, params)
}

// sendCall sends the request $call [token, method, args], with the token
// as its id, and counts it open until its response comes; or, while one
// is open, the notification $request with the same params, as the
// runtime does.
func (e *Editor) sendCall(token int64, method string, args []any) error {
	e.wmu.Lock()
	defer e.wmu.Unlock()
	e.mu.Lock()
	open := len(e.open) > 0
	msg := []any{2, protocol.MethodRequest, []any{token, method, args}}
	if !open {
		msg = []any{0, token, protocol.MethodCall, []any{token, method, args}}
		e.open = append(e.open, token)
	}
	e.mu.Unlock()
	b, err := nvimFrame(msg)
	if err != nil {
		return err
	}
	_, err = e.toPlugin.Write(b)
	return err
}

// response takes the response [1, id, error, result] to a $call: the
// answer [result, error], or "later" (anything else), whose answer comes
// as FuncReply. A response that is not for the last request open makes
// Neovim close the channel.
func (e *Editor) response(msg []any) error {
	id, _ := msg[1].(int64)
	e.mu.Lock()
	n := len(e.open)
	if n == 0 || e.open[n-1] != id {
		open := append([]int64(nil), e.open...)
		e.mu.Unlock()
		return fmt.Errorf("the plugin sent the response %.100v, but the requests open are %v: Neovim takes only one for the last", msg, open)
	}
	e.open = e.open[:n-1]
	e.mu.Unlock()
	if msg[2] != nil {
		e.deliver(id, nil, fmt.Sprintf("Error invoking '%s': %v", protocol.MethodCall, msg[2]))
		return nil
	}
	if pair, ok := msg[3].([]any); ok {
		if len(pair) == 2 {
			e.deliver(id, pair[0], pair[1])
		} else {
			e.deliver(id, nil, fmt.Sprintf("unexpected reply %v", pair))
		}
	}
	return nil
}

func (e *Editor) sendNvim(v any) error {
	b, err := nvimFrame(v)
	if err != nil {
		return err
	}
	e.wmu.Lock()
	defer e.wmu.Unlock()
	_, err = e.toPlugin.Write(b)
	return err
}

// nvimFrame encodes the message v as Neovim does.
func nvimFrame(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := msgpack.NewEncoder(&buf)
	enc.UseCompactInts(true)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("fakeeditor: %w", err)
	}
	return buf.Bytes(), nil
}

// nvimValue turns what the loose decoder returns into the editor's
// values: every integer an int64.
func nvimValue(v any) any {
	switch v := v.(type) {
	case uint64:
		return int64(v)
	case []any:
		for i := range v {
			v[i] = nvimValue(v[i])
		}
	case map[string]any:
		for k, x := range v {
			v[k] = nvimValue(x)
		}
	}
	return v
}
