package vigor

import (
	"bytes"
	"errors"
	"io"
	"os"
	"syscall"
	"testing"
	"time"
)

// A raw write to the channel takes a socket and a non-blocking pipe, as
// the editors give, and leaves a blocking file alone. What does not go at
// once (a full buffer) waits for room and arrives whole, in order.
func TestFastOut(t *testing.T) {
	socket := func(t *testing.T) (w *os.File, r *os.File) {
		fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
		if err != nil {
			t.Fatal(err)
		}
		// Blocking, as Neovim's job channel is for the plugin.
		return os.NewFile(uintptr(fds[0]), "out"), os.NewFile(uintptr(fds[1]), "in")
	}
	pipe := func(t *testing.T) (w *os.File, r *os.File) {
		r, w, err := os.Pipe() // non-blocking, as Vim's is made (channelFiles)
		if err != nil {
			t.Fatal(err)
		}
		return w, r
	}
	for _, tc := range []struct {
		name string
		open func(*testing.T) (*os.File, *os.File)
		sock bool
	}{{"socket", socket, true}, {"pipe", pipe, false}} {
		t.Run(tc.name, func(t *testing.T) {
			w, r := tc.open(t)
			defer r.Close()
			defer w.Close()
			o, ok := fastOut(w).(*rawOut)
			if !ok || o.sock != tc.sock {
				t.Fatalf("fastOut: %#v, want a rawOut with sock %v", fastOut(w), tc.sock)
			}
			// Far more than the buffer holds, in frames of up to 4 KiB:
			// the writes that find it full go through the file, which
			// waits for the reader.
			var want bytes.Buffer
			got := make(chan []byte, 1)
			go func() {
				b, _ := io.ReadAll(r)
				got <- b
			}()
			for i := range 600 {
				frame := bytes.Repeat([]byte{byte('a' + i%26)}, 1+i*37%4096)
				want.Write(frame)
				if n, err := o.Write(frame); n != len(frame) || err != nil {
					t.Fatalf("write %d: %d, %v", i, n, err)
				}
			}
			// Longer than the socket's buffer and the pipe: the rest of
			// the raw write's part, and what is over rawWriteMax, go
			// through the file.
			big := bytes.Repeat([]byte("z"), rawWriteMax+3<<16)
			want.Write(big)
			if n, err := o.Write(big); n != len(big) || err != nil {
				t.Fatalf("large write: %d, %v", n, err)
			}
			w.Close()
			select {
			case b := <-got:
				if !bytes.Equal(b, want.Bytes()) {
					t.Fatalf("read %d bytes, want %d, or not the same", len(b), want.Len())
				}
			case <-time.After(10 * time.Second):
				t.Fatal("the reader did not see the end")
			}
		})
	}
	t.Run("closed", func(t *testing.T) {
		// The editor gone: the write fails with EPIPE, through the file
		// (an *os.PathError, as before), and raises no SIGPIPE that
		// would end the test binary.
		for _, open := range []func(*testing.T) (*os.File, *os.File){socket, pipe} {
			w, r := open(t)
			r.Close()
			_, err := fastOut(w).Write([]byte("hello"))
			var pe *os.PathError
			if !errors.Is(err, syscall.EPIPE) || !errors.As(err, &pe) {
				t.Errorf("write to a closed channel: %v, want an *os.PathError with EPIPE", err)
			}
			w.Close()
		}
	})
	t.Run("blocking pipe", func(t *testing.T) {
		var p [2]int
		if err := syscall.Pipe2(p[:], syscall.O_CLOEXEC); err != nil {
			t.Fatal(err)
		}
		r, w := os.NewFile(uintptr(p[0]), "r"), os.NewFile(uintptr(p[1]), "w")
		defer r.Close()
		defer w.Close()
		if got := fastOut(w); got != io.Writer(w) {
			t.Errorf("fastOut of a blocking pipe: %#v, want the file itself", got)
		}
	})
}
