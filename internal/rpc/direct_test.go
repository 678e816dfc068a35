package rpc_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/vigorvim/vigor/internal/codec/msgpackrpc"
	"github.com/vigorvim/vigor/internal/codec/vimjson"
	"github.com/vigorvim/vigor/internal/rpc"
	"github.com/vigorvim/vigor/internal/wire"
)

// echoPeer answers every call with its first argument; for "nested" it
// first calls back into the session (re-entrancy) and answers with that,
// for "slow" it first sleeps a millisecond.
type echoPeer struct{ sess *rpc.Session }

func (p *echoPeer) Request(ctx context.Context, m *wire.Message) any {
	if m.Method == "slow" {
		time.Sleep(time.Millisecond)
	}
	if m.Method == "nested" {
		raw, err := p.sess.Call(ctx, "inner", []any{"x"})
		if err != nil {
			return err.Error()
		}
		return raw
	}
	if len(m.Params) > 0 {
		return m.Params[0]
	}
	return nil
}

func (p *echoPeer) Notification(context.Context, *wire.Message) {}

type innerAnswer struct{}

func (innerAnswer) Request(ctx context.Context, m *wire.Message) any { return "inner:" + m.Method }
func (innerAnswer) Notification(context.Context, *wire.Message)      {}

// Over real pipes a caller reads its own reply (direct reads, on Linux;
// msgpack-RPC, whose framing is the same both ways):
// many calls from several goroutines at once, with requests from the peer
// nested in them, all get their own answers, and the session ends when its
// input closes.
func TestDirectReadsOverPipes(t *testing.T) {
	for round := 0; round < 5; round++ {
		what := fmt.Sprintf("round %d", round)
		p := startEcho(t)
		p.hammer(t, what, 4, 300)
		p.end(t, what)
	}
}

// With one P, callers that hold the processor while they wait for their
// reply (as on a machine with one CPU) still get every answer: nested
// requests and concurrent callers make the holds give way, and a peer
// that answers late (here in this process, so not while a caller holds
// the P) answers once the hold has timed out and the caller waits as
// without holding.
func TestDirectReadsHoldOneP(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	for round := 0; round < 3; round++ {
		what := fmt.Sprintf("round %d", round)
		p := startEcho(t)
		rpc.SetHold(p.sess, true, 2*time.Millisecond)
		// One caller first: its calls are made alone and read directly;
		// after calls that overlapped, sharedRun calls wait on channels.
		p.hammer(t, what+", one goroutine", 1, 60)
		p.hammer(t, what, 4, 60)
		p.hammer(t, what+", one goroutine again", 1, 100)
		for i := 0; i < 5; i++ {
			c, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			raw, err := p.sess.Call(c, "slow", []any{i})
			cancel()
			var got int
			if err != nil || msgpackrpc.Unmarshal(raw, &got) != nil || got != i {
				t.Fatalf("%s: slow call %d: got %s, %v", what, i, raw, err)
			}
		}
		p.end(t, what)
	}
}

// echoPair is a session connected to an echoPeer over real pipes.
type echoPair struct {
	sess    *rpc.Session
	input   *os.File // the session's input
	inW     *os.File // peer -> session
	outW    *os.File // session -> peer
	runDone chan error
	cancel  context.CancelFunc
}

func startEcho(t *testing.T) *echoPair {
	t.Helper()
	aR, aW, bR, bW := rpc.Pipes(t) // peer -> session, session -> peer
	in := rpc.NewInput(aR)
	sess := rpc.New(msgpackrpc.New(in), bW, rpc.Options{Handler: innerAnswer{}, Input: in})
	peer := &echoPeer{}
	peer.sess = rpc.New(msgpackrpc.New(bR), aW, rpc.Options{Handler: peer})
	ctx, cancel := context.WithCancel(context.Background())
	p := &echoPair{sess: sess, input: aR, inW: aW, outW: bW, runDone: make(chan error, 1), cancel: cancel}
	go func() { p.runDone <- sess.Run(ctx) }()
	go func() { _ = peer.sess.Run(ctx) }()
	return p
}

// hammer makes n calls (every seventh nested) from each of goroutines
// goroutines at once.
func (p *echoPair) hammer(t *testing.T, what string, goroutines, n int) {
	t.Helper()
	hammer(t, what, goroutines, n, nil, func(g, i int) error {
		want := fmt.Sprintf("g%d-%d", g, i)
		method := "echo"
		if i%7 == 0 {
			method, want = "nested", "inner:inner"
		}
		c, cancelCall := context.WithTimeout(context.Background(), 20*time.Second)
		raw, err := p.sess.Call(c, method, []any{want})
		cancelCall()
		if err != nil {
			return fmt.Errorf("call %d of goroutine %d: %w", i, g, err)
		}
		var got string
		if err := msgpackrpc.Unmarshal(raw, &got); err != nil || got != want {
			return fmt.Errorf("call %s: got %s (%v), want %q", method, raw, err, want)
		}
		return nil
	})
}

// end closes the session's input and checks that the session ends.
func (p *echoPair) end(t *testing.T, what string) {
	t.Helper()
	defer p.cancel()
	p.inW.Close()
	select {
	case <-p.runDone:
	case <-time.After(20 * time.Second):
		t.Fatalf("%s: the session did not end when its input closed", what)
	}
	p.outW.Close()
}

// vimPeer is Vim with Vigor's runtime at the other end of real pipes: its
// channel callback runs each [0, [-id, fn, args]] and answers
// [-id, [result, v:null]] or [-id, [v:null, error]]. "nested" first calls
// the plugin (Vim's ch_evalexpr) and answers with what it got; "fail"
// raises an error; "bad" gets an answer that is not [result, error].
func vimPeer(r io.Reader, w io.Writer) error {
	dec := json.NewDecoder(r)
	nested := map[int64]json.RawMessage{} // our request id -> the call's wire id
	next := int64(0)
	for {
		var items []json.RawMessage
		if err := dec.Decode(&items); err != nil {
			return err
		}
		var answer string
		switch {
		case len(items) == 2 && string(items[0]) != "0":
			// [id, result]: the plugin's answer to a nested request.
			var id int64
			if err := json.Unmarshal(items[0], &id); err != nil {
				return err
			}
			wireID, ok := nested[id]
			if !ok {
				return fmt.Errorf("answer to an unknown request: %s", items)
			}
			delete(nested, id)
			answer = fmt.Sprintf("[%s,[%s,null]]\n", wireID, items[1])
		case len(items) == 2:
			var call []json.RawMessage
			var fn string
			if err := json.Unmarshal(items[1], &call); err != nil || len(call) != 3 || json.Unmarshal(call[1], &fn) != nil {
				return fmt.Errorf("the channel callback cannot run %s", items[1])
			}
			var args []json.RawMessage
			if err := json.Unmarshal(call[2], &args); err != nil {
				return err
			}
			switch fn {
			case "nested":
				next++
				nested[next] = call[0]
				answer = fmt.Sprintf(`[%d,["inner",[]]]`+"\n", next)
			case "fail":
				var name string
				if err := json.Unmarshal(args[0], &name); err != nil {
					return err
				}
				answer = fmt.Sprintf(`[%s,[null,%q]]`+"\n", call[0], "E117: Unknown function: g:"+name)
			case "bad":
				answer = fmt.Sprintf("[%s,%s]\n", call[0], args[0])
			default:
				answer = fmt.Sprintf("[%s,[%s,null]]\n", call[0], args[0])
			}
		default:
			return fmt.Errorf("Vim cannot run %s", items)
		}
		if _, err := io.WriteString(w, answer); err != nil {
			return err
		}
	}
}

// The same over Vim's JSON channel, whose framing is not the same both
// ways: callers reading their own replies get their own results, errors and
// failed answers (the codec unwraps [result, error]).
func TestDirectReadsOverPipesVim(t *testing.T) {
	aR, aW, bR, bW := rpc.Pipes(t) // Vim -> session, session -> Vim
	in := rpc.NewInput(aR)
	sess := rpc.New(vimjson.New(in), bW, rpc.Options{Handler: innerAnswer{}, Input: in})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	runDone := make(chan error, 1)
	go func() { runDone <- sess.Run(ctx) }()
	peerDone := make(chan error, 1)
	go func() { peerDone <- vimPeer(bR, aW) }()

	hammer(t, "vim", 4, 200, peerDone, func(g, i int) error {
		arg := fmt.Sprintf("g%d-%d", g, i)
		method, want, wantErr := "echo", arg, ""
		switch i % 5 {
		case 1:
			method, want = "nested", "inner:inner"
		case 2:
			method, want, wantErr = "fail", "", "E117: Unknown function: g:"+arg
		case 3:
			// The argument is the answer's body: a List of three.
			method, want, wantErr = "bad", "", `unexpected answer from Vim (want [result, error]): ["`+arg+`",1,2]`
		}
		var params []any
		if method == "bad" {
			params = []any{[]any{arg, 1, 2}}
		} else {
			params = []any{arg}
		}
		c, cancelCall := context.WithTimeout(ctx, 20*time.Second)
		raw, err := sess.Call(c, method, params)
		cancelCall()
		if wantErr != "" {
			var re *rpc.RemoteError
			if !errors.As(err, &re) || re.Error() != wantErr {
				return fmt.Errorf("call %s %s: err = %v, want %q", method, arg, err, wantErr)
			}
			return nil
		}
		if err != nil {
			return fmt.Errorf("call %d of goroutine %d: %w", i, g, err)
		}
		var got string
		if err := vimjson.Unmarshal(raw, &got); err != nil || got != want {
			return fmt.Errorf("call %s: got %s (%v), want %q", method, raw, err, want)
		}
		return nil
	})
	aW.Close()
	select {
	case <-runDone:
	case <-time.After(20 * time.Second):
		t.Fatal("the session did not end when its input closed")
	}
	bW.Close()
}

// hammer runs calls(g, i) for i < n in each of goroutines goroutines at
// once, and fails the test on the first error, when stop delivers (a peer
// that died), or when the calls hang.
func hammer(t *testing.T, what string, goroutines, n int, stop <-chan error, calls func(g, i int) error) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make(chan error, goroutines)
	for g := 0; g < goroutines; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < n; i++ {
				if err := calls(g, i); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case err := <-stop:
		t.Fatalf("%s: the peer stopped: %v", what, err)
	case <-time.After(60 * time.Second):
		t.Fatalf("%s: the calls hung", what)
	}
	close(errs)
	for err := range errs {
		t.Fatalf("%s: %v", what, err)
	}
}

// A caller that reads its own reply stops when its ctx ends, as one that
// waits on its channel does, though the peer never answers: here at its
// deadline. The reply that comes later is dropped, and the next call gets
// its own.
func TestDirectReadStopsAtDeadline(t *testing.T) {
	aR, aW, bR, bW := rpc.Pipes(t) // peer -> session, session -> peer
	in := rpc.NewInput(aR)
	sess := rpc.New(msgpackrpc.New(in), bW, rpc.Options{Handler: innerAnswer{}, Input: in})
	if !rpc.DirectReadsOn(sess) {
		t.Skip("no direct reads on this platform")
	}
	runDone := make(chan error, 1)
	go func() { runDone <- sess.Run(context.Background()) }()
	peer := msgpackrpc.New(bR)
	requests := make(chan wire.Message, 4)
	go func() {
		for {
			var m wire.Message
			if peer.ReadMessage(&m) != nil {
				close(requests)
				return
			}
			requests <- m
		}
	}()
	answer := func(id int64, v any) {
		t.Helper()
		b, err := peer.AppendResponse(nil, id, v)
		if err == nil {
			_, err = aW.Write(b)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	next := func(what string) wire.Message {
		t.Helper()
		select {
		case m, ok := <-requests:
			if !ok {
				t.Fatalf("%s: the session's stream ended", what)
			}
			return m
		case <-time.After(timeout):
			t.Fatalf("timed out waiting for %s", what)
		}
		panic("unreachable")
	}

	// A caller that finds the baton taken (Run looks at the input now
	// and then) waits on its channel instead: try again then.
	const deadline, margin = 200 * time.Millisecond, 500 * time.Millisecond
	var m wire.Message
	for attempt := 0; ; attempt++ {
		reads := rpc.DirectReadCount(sess)
		ctx, cancel := context.WithTimeout(context.Background(), deadline)
		start := time.Now()
		res := call(ctx, sess, "never")
		m = next("the request that gets no answer")
		select {
		case r := <-res:
			if !errors.Is(r.err, context.DeadlineExceeded) {
				t.Fatalf("err = %v, want context.DeadlineExceeded", r.err)
			}
			if took := time.Since(start); took > deadline+margin {
				t.Errorf("the call returned after %v, want %v at most", took, deadline+margin)
			}
		case <-time.After(deadline + margin):
			t.Fatalf("the call with a deadline of %v has not returned after %v", deadline, deadline+margin)
		}
		cancel()
		if rpc.DirectReadCount(sess) != reads {
			break
		}
		if attempt == 10 {
			t.Fatal("no call read its own reply")
		}
		answer(m.ID, "late")
	}

	answer(m.ID, "late")
	res := call(context.Background(), sess, "next")
	m2 := next("the next request")
	answer(m2.ID, "fresh")
	r := recv(t, res, "the next call")
	if r.err != nil {
		t.Fatal(r.err)
	}
	if got := decodeSession[string](t, sess, r.raw); got != "fresh" {
		t.Errorf("the next call got %q, want fresh", got)
	}
	aW.Close()
	if err := recv(t, runDone, "Run to return"); !errors.Is(err, io.EOF) {
		t.Errorf("Run returned %v, want io.EOF", err)
	}
}
