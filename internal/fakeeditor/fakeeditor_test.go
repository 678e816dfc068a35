package fakeeditor

import (
	"bufio"
	"context"
	"errors"
	"math"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vmihailenco/msgpack/v5"

	"github.com/vigorvim/vigor/internal/protocol"
)

// These tests play the plugin by hand, frame by frame, so that they pin
// the editor's side of the protocol; the SDK's tests (the root package's,
// vigortest's) run the fake against the real SDK.

const timeout = 10 * time.Second

// plugin is the plugin's end of an Editor's pipes: a goroutine reads what
// the editor writes (an io.Pipe write waits for its read), frame by frame.
type plugin struct {
	t      *testing.T
	e      *Editor
	frames chan any // Vim: a line; Neovim: a message, or the error that ended the reading
}

func start(t *testing.T, opts Options) *plugin {
	t.Helper()
	opts.Record = true
	e, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	p := &plugin{t: t, e: e, frames: make(chan any, 100)}
	go func() {
		in := bufio.NewReader(e.PluginIn())
		d := msgpack.NewDecoder(in)
		d.UseLooseInterfaceDecoding(true)
		for {
			if e.Editor() == Vim {
				l, err := in.ReadString('\n')
				if err != nil {
					return
				}
				p.frames <- l
				continue
			}
			v, err := d.DecodeInterfaceLoose()
			if err != nil {
				return
			}
			p.frames <- nvimValue(v)
		}
	}()
	t.Cleanup(func() { e.Close() })
	return p
}

func (p *plugin) write(frames ...string) {
	p.t.Helper()
	for _, f := range frames {
		if _, err := p.e.PluginOut().Write([]byte(f)); err != nil {
			p.t.Fatal(err)
		}
	}
}

func (p *plugin) writeMsgpack(v any) {
	p.t.Helper()
	b, err := msgpack.Marshal(v)
	if err != nil {
		p.t.Fatal(err)
	}
	p.write(string(b))
}

func (p *plugin) frame() any {
	p.t.Helper()
	select {
	case f := <-p.frames:
		return f
	case <-time.After(timeout):
		p.t.Fatal("nothing from the editor")
	}
	panic("unreachable")
}

// line returns the editor's next Vim frame.
func (p *plugin) line() string {
	p.t.Helper()
	return p.frame().(string)
}

// msg returns the editor's next msgpack message.
func (p *plugin) msg() []any {
	p.t.Helper()
	f := p.frame()
	l, ok := f.([]any)
	if !ok {
		p.t.Fatalf("the editor sent %v", f)
	}
	return l
}

func (p *plugin) next() Call {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	c, err := p.e.Next(ctx)
	if err != nil {
		p.t.Fatal(err)
	}
	return c
}

func check(t *testing.T, what string, got, want any) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s = %#v, want %#v", what, got, want)
	}
}

func answers(fn string, args []any) (any, error) {
	switch fn {
	case "strlen":
		return int64(len(args[0].(string))), nil
	case "Nope":
		return nil, errors.New("Vim:E117: Unknown function: Nope")
	}
	return nil, nil
}

// Vim: a request is [token, [method, params]], answered by the command
// of FuncReply and the wake-up; a notification is [0, [method, params]].
func TestVimRequest(t *testing.T) {
	p := start(t, Options{Editor: Vim})
	ch := p.e.RequestAsync("greet", "you")
	check(t, "the request", p.line(), `[1,["greet",["you"]]]`+"\n")
	p.write(`["call","`+protocol.FuncReply+`",[1,["Hello!",null]]]`+"\n", "[1,0]\n")
	check(t, "the reply", <-ch, Reply{Result: "Hello!"})
	ch = p.e.RequestAsync("fail")
	p.line()
	p.write(`["call","` + protocol.FuncReply + `",[2,[null,"bad input"]]]` + "\n[2,0]\n")
	check(t, "the reply", (<-ch).Tuple(), []any{nil, "bad input"})
	if err := p.e.Notify(protocol.MethodPending, 2); err != nil {
		t.Fatal(err)
	}
	check(t, "the notification", p.line(), `[0,["$pending",[2]]]`+"\n")
	// An answer without FuncReply is not the runtime's protocol.
	p.e.RequestAsync("plain")
	p.line()
	p.write(`[3,"Hello!"]` + "\n")
	<-p.e.Done()
	if err := p.e.Err(); err == nil || !strings.Contains(err.Error(), "not with a call of "+protocol.FuncReply) {
		t.Fatalf("Err() = %v", err)
	}
}

// Vim: calls for the channel callback and as the channel command, with
// the legacy helper, g: and a batch; their answers.
func TestVimCalls(t *testing.T) {
	p := start(t, Options{Editor: Vim, Answer: answers})
	p.write(`[0,[-1,"`+vimLegacy+`",["strlen",["abc"]]]]`+"\n", `[0,[-2,"g:Nope",[]]]`+"\n")
	check(t, "answer 1", p.line(), `[-1,[3,null]]`+"\n")
	check(t, "answer 2", p.line(), `[-2,[null,"Vim:E117: Unknown function: Nope"]]`+"\n")
	check(t, "call 1", p.next(), Call{Fn: "strlen", Args: []any{"abc"}, Request: true})
	check(t, "call 2", p.next(), Call{Fn: "Nope", Args: []any{}, Request: true})
	p.write(`["call","`+vimCall+`",["strlen",["ab"]],-3]`+"\n", `["call","`+vimCall+`",["g:Nope",[]],-4]`+"\n")
	check(t, "answer 3", p.line(), `[-3,[2,null]]`+"\n")
	check(t, "answer 4", p.line(), `[-4,[null,"Vim:E117: Unknown function: Nope"]]`+"\n")
	p.next()
	p.next()
	// A command without id: its error is silent.
	p.write(`["call","g:Nope",[1]]` + "\n")
	check(t, "notified", p.next(), Call{Fn: "Nope", Args: []any{int64(1)}})
	p.write(`[0,[-5,"` + protocol.FuncVimBatch + `",[[["` + vimLegacy + `",["strlen",["a"]]],["g:Nope",[]],["strlen",["b"]]]]]]` + "\n")
	check(t, "batch answer", p.line(), `[-5,[[[1],[1,"Vim:E117: Unknown function: Nope"]],null]]`+"\n")
	check(t, "batch", p.next(), Call{Fn: protocol.FuncVimBatch, Request: true, Batch: []Call{
		{Fn: "strlen", Args: []any{"a"}, Request: true}, {Fn: "Nope", Args: []any{}, Request: true}}})
}

// Vim: a large call comes in chunks of [function, arguments], followed by
// the call of FuncChunked in the frame of the call; so does an answer.
func TestVimChunks(t *testing.T) {
	p := start(t, Options{Editor: Vim, Answer: answers})
	body := `["strlen",["` + strings.Repeat("x", 100) + `"]]`
	chunk := func(s string) string {
		q, _ := appendJSON(nil, s)
		return `["call","` + vimChunk + `",["k:1:c1",` + string(q) + `]]` + "\n"
	}
	p.write(chunk(body[:50]), chunk(body[50:]), `[0,[-1,"`+vimChunked+`",["k:1:c1",2]]]`+"\n")
	check(t, "answer", p.line(), `[-1,[100,null]]`+"\n")
	check(t, "call", p.next(), Call{Fn: "strlen", Args: []any{strings.Repeat("x", 100)}, Request: true})
	ch := p.e.RequestAsync("big")
	p.line()
	reply := `["` + protocol.FuncReply + `",[1,["big",null]]]`
	p.write(chunk(reply), `["call","`+vimChunked+`",["k:1:c1",1]]`+"\n", "[1,0]\n")
	check(t, "reply", <-ch, Reply{Result: "big"})
	// Missing chunks fail the call.
	p.write(`[0,[-2,"` + vimChunked + `",["k:1:c9",2]]]` + "\n")
	if l := p.line(); !strings.Contains(l, "did not arrive in full") {
		t.Fatalf("answer %s", l)
	}
}

// Neovim: a request is the request $call, answered in its response or,
// after the response "later", by notifying FuncReply; calls are answered
// in the response; a failed notification gets nvim_error_event;
// nvim_call_atomic runs as a batch.
func TestNvim(t *testing.T) {
	p := start(t, Options{Editor: Nvim, Answer: answers})
	ch := p.e.RequestAsync("greet", "you")
	check(t, "the request", p.msg(), []any{int64(0), int64(1), "$call", []any{int64(1), "greet", []any{"you"}}})
	p.writeMsgpack([]any{1, 1, nil, []any{"Hello!", nil}})
	check(t, "the reply", <-ch, Reply{Result: "Hello!"})
	ch = p.e.RequestAsync("greet", "me")
	check(t, "the second request", p.msg(), []any{int64(0), int64(2), "$call", []any{int64(2), "greet", []any{"me"}}})
	p.writeMsgpack([]any{1, 2, nil, 0})
	p.writeMsgpack([]any{2, "nvim_call_function", []any{protocol.FuncReply, []any{2, "Hi!", nil}}})
	check(t, "the later reply", <-ch, Reply{Result: "Hi!"})
	p.writeMsgpack([]any{0, 7, "nvim_call_function", []any{"strlen", []any{"abcd"}}})
	check(t, "the response", p.msg(), []any{int64(1), int64(7), nil, int64(4)})
	p.writeMsgpack([]any{0, 8, "nvim_call_function", []any{"Nope", []any{}}})
	check(t, "the error", p.msg(), []any{int64(1), int64(8), []any{int64(0), "Vim:E117: Unknown function: Nope"}, nil})
	p.writeMsgpack([]any{2, "nvim_call_function", []any{"Nope", []any{}}})
	check(t, "the error event", p.msg(), []any{int64(2), "nvim_error_event", []any{int64(0), "Vim:E117: Unknown function: Nope"}})
	p.writeMsgpack([]any{0, 9, "nvim_call_atomic", []any{[]any{
		[]any{"nvim_call_function", []any{"strlen", []any{"a"}}},
		[]any{"nvim_call_function", []any{"Nope", []any{}}},
	}}})
	check(t, "the batch", p.msg(), []any{int64(1), int64(9), nil,
		[]any{[]any{int64(1)}, []any{int64(1), int64(0), "Vim:E117: Unknown function: Nope"}}})
	for _, want := range []string{"strlen", "Nope", "Nope"} {
		if c := p.next(); c.Fn != want {
			t.Fatalf("call %v, want %s", c, want)
		}
	}
	if c := p.next(); c.Fn != "nvim_call_atomic" || len(c.Batch) != 2 {
		t.Fatalf("call %v, want the batch", c)
	}
}

// Neovim runs the SDK's Lua loop of a batch as a batch; HelperError fails
// a batch as a whole, and a Body is sent as it is.
func TestNvimLuaBatchAndBodies(t *testing.T) {
	p := start(t, Options{Editor: Nvim,
		Answer: func(fn string, args []any) (any, error) {
			if fn == "Odd" {
				return nil, &Body{Value: "odd"}
			}
			return answers(fn, args)
		},
		HelperError: func(fn string) error {
			if fn == "nvim_call_atomic" {
				return &Body{Value: []any{0, "Invalid method: nvim_call_atomic"}}
			}
			return nil
		}})
	lua := "local calls = ...\nfor i, c in ipairs(calls) do local ok, v = pcall(vim.call, c[1], unpack(c[2])) end"
	p.writeMsgpack([]any{0, 1, "nvim_exec_lua", []any{lua, []any{[]any{
		[]any{"strlen", []any{"ab"}},
		[]any{"Nope", []any{}},
	}}}})
	check(t, "the Lua batch", p.msg(), []any{int64(1), int64(1), nil,
		[]any{[]any{int64(2)}, []any{int64(1), "Vim:E117: Unknown function: Nope"}}})
	if c := p.next(); c.Fn != "nvim_exec_lua" || len(c.Batch) != 2 {
		t.Fatalf("call %v, want the batch", c)
	}
	p.writeMsgpack([]any{0, 2, "nvim_call_atomic", []any{[]any{}}})
	check(t, "the failed batch", p.msg(), []any{int64(1), int64(2), []any{int64(0), "Invalid method: nvim_call_atomic"}, nil})
	p.writeMsgpack([]any{0, 3, "nvim_call_function", []any{"Odd", []any{}}})
	check(t, "the body", p.msg(), []any{int64(1), int64(3), "odd", nil})
}

// While a $call is open, a request is the notification $request; a
// response that is not for a $call open stops the fake, as Neovim closes
// the channel.
func TestNvimOneCallOpen(t *testing.T) {
	p := start(t, Options{Editor: Nvim})
	a := p.e.RequestAsync("a")
	check(t, "the first request", p.msg(), []any{int64(0), int64(1), "$call", []any{int64(1), "a", []any{}}})
	b := p.e.RequestAsync("b")
	check(t, "the second request", p.msg(), []any{int64(2), "$request", []any{int64(2), "b", []any{}}})
	p.writeMsgpack([]any{2, "nvim_call_function", []any{protocol.FuncReply, []any{2, "B", nil}}})
	check(t, "the second reply", <-b, Reply{Result: "B"})
	p.writeMsgpack([]any{1, 1, nil, []any{"A", nil}})
	check(t, "the first reply", <-a, Reply{Result: "A"})
	p.writeMsgpack([]any{1, 1, nil, []any{"A", nil}})
	<-p.e.Done()
	if err := p.e.Err(); err == nil || !strings.Contains(err.Error(), "only one for the last") {
		t.Fatalf("the fake ended with %v", err)
	}
}

// An editor function that calls the plugin lets the editor read on, as
// the editor's nested wait does; the answers come inside out.
func TestNested(t *testing.T) {
	var p *plugin
	p = start(t, Options{Editor: Nvim, Answer: func(fn string, args []any) (any, error) {
		r, err := p.e.Request(context.Background(), "inner")
		return r.Result, err
	}})
	p.writeMsgpack([]any{0, 1, "nvim_call_function", []any{"Outer", []any{}}})
	check(t, "the nested request", p.msg(), []any{int64(0), int64(1), "$call", []any{int64(1), "inner", []any{}}})
	p.writeMsgpack([]any{1, 1, nil, []any{"in", nil}})
	check(t, "the outer answer", p.msg(), []any{int64(1), int64(1), nil, "in"})
}

// A request that a test makes while a call runs is not nested in it: its
// answer is read after the call has ended, as an editor reads a user's
// input only when it is idle, so what the call did (a message shown) is
// there before the answer.
func TestRequestDuringCall(t *testing.T) {
	started, release := make(chan struct{}), make(chan struct{})
	var ran bool
	p := start(t, Options{Editor: Nvim, Answer: func(fn string, args []any) (any, error) {
		close(started)
		<-release
		ran = true
		return nil, nil
	}})
	var once sync.Once
	end := func() { once.Do(func() { close(release) }) }
	t.Cleanup(end) // before the Editor's Close, which waits for the call
	p.writeMsgpack([]any{2, "nvim_call_function", []any{"Slow", []any{}}})
	<-started
	ch := p.e.RequestAsync("req")
	check(t, "the request", p.msg(), []any{int64(0), int64(1), "$call", []any{int64(1), "req", []any{}}})
	wrote := make(chan struct{})
	go func() { // the read loop reads it once Slow has ended
		defer close(wrote)
		p.writeMsgpack([]any{1, 1, nil, []any{"r", nil}})
	}()
	select {
	case r := <-ch:
		t.Fatalf("answered while the call runs: %+v", r)
	case <-time.After(100 * time.Millisecond):
	}
	end()
	if r := <-ch; r.Err != nil || r.Result != "r" || !ran {
		t.Fatalf("the answer %+v, the call ended: %v", r, ran)
	}
	<-wrote
}

// The end of the plugin's output fails the requests that wait, and Next;
// a Request whose ctx ends drops its answer.
func TestEnd(t *testing.T) {
	p := start(t, Options{Editor: Vim})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.e.Request(ctx, "late"); !errors.Is(err, context.Canceled) {
		t.Fatalf("Request with an ended ctx: %v", err)
	}
	p.line()
	p.write(`["call","` + protocol.FuncReply + `",[1,[1,null]]]` + "\n") // dropped
	ch := p.e.RequestAsync("never")
	p.line()
	p.e.PluginOut().Close()
	if r := <-ch; !errors.Is(r.Err, ErrEnded) {
		t.Fatalf("the reply after the end: %+v", r)
	}
	if _, err := p.e.Next(context.Background()); !errors.Is(err, ErrEnded) {
		t.Fatalf("Next after the end: %v", err)
	}
	if r := <-p.e.RequestAsync("after"); !errors.Is(r.Err, ErrEnded) {
		t.Fatalf("a request after the end: %+v", r)
	}
	if err := p.e.Close(); err != nil {
		t.Fatal(err)
	}
}

// Values go as Vim's json_encode() writes them and come as its
// json_decode() reads them.
func TestJSONValues(t *testing.T) {
	got, err := decodeJSON([]byte(`[1, -2, 1.5, 1e3, "NaN", NaN, Infinity, -Infinity, null, true, {"a": [[]]}]`))
	if err != nil {
		t.Fatal(err)
	}
	l := got.([]any)
	if !math.IsNaN(l[5].(float64)) || !math.IsInf(l[6].(float64), 1) || !math.IsInf(l[7].(float64), -1) {
		t.Fatalf("non-finite: %v", l[5:8])
	}
	l[5] = nil
	check(t, "values", l, []any{int64(1), int64(-2), 1.5, 1000.0, "NaN", nil, math.Inf(1), math.Inf(-1), nil, true,
		map[string]any{"a": []any{[]any{}}}})
	b, err := appendJSON(nil, []any{nil, 1, 2.5, math.NaN(), []byte{1, 2}, map[string]any{"b": 1, "a": "x"}, []string{"s"}})
	if err != nil {
		t.Fatal(err)
	}
	check(t, "encoded", string(b), `[null,1,2.5,NaN,[1,2],{"a":"x","b":1},["s"]]`)
	if _, err := decodeJSON([]byte(`[1] [2]`)); err == nil {
		t.Fatal("two values decoded")
	}
}
