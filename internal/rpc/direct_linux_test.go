package rpc_test

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/vigorvim/vigor/internal/codec/msgpackrpc"
	"github.com/vigorvim/vigor/internal/rpc"
)

// A session whose input has a descriptor past 1023 works: the descriptors
// it polls are then past the 1024 that select(2)'s fd_set holds (which
// made it panic). Every free descriptor below 1024 is taken first, so that
// the pipes and the session's own descriptors are all above.
func TestDirectReadsHighDescriptor(t *testing.T) {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		t.Fatal(err)
	}
	if lim.Cur < 1100 {
		t.Skipf("the limit on open files is %d; this test needs 1100", lim.Cur)
	}
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	var low []int
	defer func() {
		for _, fd := range low {
			syscall.Close(fd)
		}
	}()
	for {
		fd, err := syscall.Dup(int(null.Fd()))
		if err != nil {
			t.Fatal(err)
		}
		if fd >= 1024 {
			syscall.Close(fd)
			break
		}
		low = append(low, fd)
	}
	p := startEcho(t)
	fds := append([]int{int(p.input.Fd())}, rpc.DirectDescriptors(p.sess)...)
	for _, fd := range fds {
		if fd < 1024 {
			t.Fatalf("descriptor %d of %v is below 1024", fd, fds)
		}
	}
	p.hammer(t, "high descriptors", 2, 50)
	p.end(t, "high descriptors")
}

// Over a socket, as Neovim's job channel is, a caller that holds its
// processor reads its reply itself, its read bounded by the socket's
// timeout: with one P and the peer in this process most holds time out
// (the peer cannot run meanwhile), and calls, nested requests, concurrent
// callers and messages far larger than a read (whose reads time out
// inside the message) all get their answers.
func TestDirectReadsHoldSocket(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sess, peerEnd, runDone := socketSession(t, ctx, true)
	p := &echoPair{sess: sess}
	// One caller first: its calls are made alone and read directly; after
	// calls that overlapped, sharedRun calls wait on their channels.
	p.hammer(t, "socket, one goroutine", 1, 60)
	p.hammer(t, "socket", 4, 60)
	p.hammer(t, "socket, one goroutine again", 1, 100)
	big := strings.Repeat("x", 1<<20)
	for i := 0; i < 3; i++ {
		c, cancelCall := context.WithTimeout(ctx, 20*time.Second)
		raw, err := sess.Call(c, "slow", []any{big})
		cancelCall()
		var got string
		if err != nil || msgpackrpc.Unmarshal(raw, &got) != nil || got != big {
			t.Fatalf("large call %d: %d bytes back, %v", i, len(got), err)
		}
	}
	if err := syscall.Shutdown(peerEnd, syscall.SHUT_WR); err != nil {
		t.Fatal(err)
	}
	select {
	case <-runDone:
	case <-time.After(20 * time.Second):
		t.Fatal("the session did not end when its input closed")
	}
}

// socketSession starts a session over a socket, as Neovim's job channel
// is, holding or not, with an echoPeer at the other end (peerEnd, its
// descriptor). runDone gets Run's end.
func socketSession(t *testing.T, ctx context.Context, hold bool) (sess *rpc.Session, peerEnd int, runDone chan error) {
	t.Helper()
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	a, b := os.NewFile(uintptr(fds[0]), "session"), os.NewFile(uintptr(fds[1]), "peer")
	t.Cleanup(func() { a.Close(); b.Close() })
	in := rpc.NewInput(a)
	sess = rpc.New(msgpackrpc.New(in), a, rpc.Options{Handler: innerAnswer{}, Input: in})
	rpc.SetHold(sess, hold, 2*time.Millisecond)
	peer := &echoPeer{}
	peer.sess = rpc.New(msgpackrpc.New(b), b, rpc.Options{Handler: peer})
	runDone = make(chan error, 1)
	go func() { runDone <- sess.Run(ctx) }()
	go func() { _ = peer.sess.Run(ctx) }()
	return sess, fds[1], runDone
}

// A long call (rpc.Long, a batch) reads its own reply only where the
// wait is a held read, on a socket with the hold on; otherwise Run reads
// it, on pipes too. Each way it gets its answer.
func TestLongCallReadsWhenTheHoldIsARead(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	long := func(t *testing.T, sess *rpc.Session, what string, wantDirect bool) {
		t.Helper()
		before := rpc.DirectReadCount(sess)
		for i := range 5 {
			c, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			want := strings.Repeat("b", 100+i)
			raw, err := sess.Call(rpc.Long(c), "slow", []any{want})
			cancel()
			var got string
			if err != nil || msgpackrpc.Unmarshal(raw, &got) != nil || got != want {
				t.Fatalf("%s: long call %d: %q, %v", what, i, got, err)
			}
		}
		want := uint64(0)
		if wantDirect {
			want = 5
		}
		if n := rpc.DirectReadCount(sess) - before; n != want {
			t.Errorf("%s: %d of 5 long calls read their own replies, want %d", what, n, want)
		}
	}
	for _, hold := range []bool{true, false} {
		ctx, cancel := context.WithCancel(context.Background())
		sess, _, _ := socketSession(t, ctx, hold)
		long(t, sess, fmt.Sprintf("socket, hold %v", hold), hold)
		cancel()
	}
	p := startEcho(t)
	rpc.SetHold(p.sess, true, 2*time.Millisecond)
	long(t, p.sess, "pipe, hold", false)
	p.end(t, "pipe")
}
