package vimjson

import (
	"bytes"
	"io"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// On Linux a frame longer than PIPE_BUF waits until the pipe has room for
// all of it, so that it goes in whole, and the wait ends when the reader
// has gone.
func TestWriterWaitsForRoom(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	wr := NewWriter(w)
	if wr.room == nil {
		t.Fatal("no wait for room on a pipe")
	}
	rc, _ := w.SyscallConn()
	size := 0
	_ = rc.Control(func(fd uintptr) {
		n, _, _ := syscall.Syscall(syscall.SYS_FCNTL, fd, syscall.F_GETPIPE_SZ, 0)
		size = int(n)
	})
	if size < ChunkThreshold {
		t.Logf("the pipe holds %d bytes (pipe-max-size?)", size)
	}
	// Fill the pipe to past half, then send a frame of half its size.
	small := strings.Repeat("s", 99) + "\n"
	fill := strings.Repeat(small, size/2/len(small)+1)
	if _, err := wr.Write([]byte(fill)); err != nil {
		t.Fatal(err)
	}
	big := strings.Repeat("b", size/2-1) + "\n"
	wrote := make(chan time.Time, 1)
	go func() {
		if _, err := wr.Write([]byte(big)); err != nil {
			t.Error(err)
		}
		wrote <- time.Now()
	}()
	time.Sleep(50 * time.Millisecond)
	select {
	case <-wrote:
		t.Fatal("the frame went out while the pipe had no room for it")
	default:
	}
	read := time.Now()
	got, err := io.ReadAll(io.LimitReader(r, int64(len(fill)+len(big))))
	if err != nil {
		t.Fatal(err)
	}
	if at := <-wrote; at.Before(read) {
		t.Errorf("the frame went out before the pipe was read")
	}
	if !bytes.Equal(got, []byte(fill+big)) {
		t.Errorf("read %d bytes, not what was written", len(got))
	}

	// The reader goes away while a frame waits: the write fails.
	if _, err := wr.Write([]byte(fill)); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := wr.Write([]byte(big))
		done <- err
	}()
	time.Sleep(20 * time.Millisecond)
	r.Close()
	select {
	case err := <-done:
		if err == nil {
			t.Error("the write to a pipe without a reader succeeded")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the write still waits after the reader has gone")
	}
}
