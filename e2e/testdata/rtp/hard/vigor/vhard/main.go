// Command vhard is the fixture plugin of the hardening tests: concurrent
// and deep re-entrancy, interrupts, messages before replies.
package main

import (
	"context"
	"fmt"
	"os"
	"sort"
	"sync"
	"time"

	"github.com/vigorvim/vigor"
)

func main() {
	vigor.Main(setup)
}

func setup(ctx context.Context, p *vigor.Plugin) error {
	var mu sync.Mutex
	causes := map[string]string{}

	// leaf answers after ms milliseconds.
	p.Handle("leaf", func(i int, ms ...int) int {
		if len(ms) > 0 {
			time.Sleep(time.Duration(ms[0]) * time.Millisecond)
		}
		return i * 10
	})

	// fanout calls the editor from n goroutines at once, and from a batch,
	// and every call comes back into the plugin (leaf). The calls made
	// first answer first, while the editor waits for the requests that
	// came later (nested): their answers come out of stack order.
	p.Handle("fanout", func(ctx context.Context, n int) ([]int, error) {
		var wg sync.WaitGroup
		out := make([]int, n)
		errs := make([]error, n+1)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				out[i], errs[i] = vigor.CallAs[int](ctx, p, "vhard#reenter", i, i*3)
			}()
		}
		batch := make([]int, 2)
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[n] = p.Batch(ctx, func(b *vigor.Batch) error {
				if err := b.CallInto(ctx, &batch[0], "vhard#reenter", 100, 0); err != nil {
					return err
				}
				return b.CallInto(ctx, &batch[1], "vhard#reenter", 200, 0)
			})
		}()
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				return nil, err
			}
		}
		out = append(out, batch...)
		sort.Ints(out)
		return out, nil
	})

	// notifythen has the editor run vhard#note(key, i) without waiting
	// (a notification, which calls the plugin again), while a goroutine
	// calls back into the plugin through the editor, and answers what
	// that call got.
	p.Handle("notifythen", func(ctx context.Context, key string, i int) (int, error) {
		var got int
		var err error
		done := make(chan struct{})
		go func() {
			defer close(done)
			got, err = vigor.CallAs[int](ctx, p, "vhard#reenter", i, 0)
		}()
		if nerr := p.Notify(ctx, "vhard#note", key, i); nerr != nil {
			return 0, nerr
		}
		<-done
		return got, err
	})

	// deep recurses through the editor: deep(n) calls vhard#deep(n-1), which
	// calls deep(n-1) and adds 1.
	p.Handle("deep", func(ctx context.Context, n int) (int, error) {
		if n <= 0 {
			return 0, nil
		}
		return vigor.CallAs[int](ctx, p, "vhard#deep", n-1)
	})

	// fail_deep calls itself n times through vigor#request() and fails at
	// the bottom.
	p.Handle("fail_deep", func(ctx context.Context, n int) (any, error) {
		if n <= 0 {
			return nil, fmt.Errorf("the bottom failed")
		}
		return p.Call(ctx, "vigor#request", "vhard", "fail_deep", []any{n - 1})
	})

	p.Handle("call", func(ctx context.Context, fn string, args []any) (any, error) {
		return p.Call(ctx, fn, args...)
	})

	// wait blocks until its ctx ends or ms pass, and records why under key.
	p.Handle("wait", func(ctx context.Context, key string, ms int) string {
		select {
		case <-ctx.Done():
		case <-time.After(time.Duration(ms) * time.Millisecond):
		}
		why := "timeout"
		if err := context.Cause(ctx); err != nil {
			why = err.Error()
		}
		mu.Lock()
		causes[key] = why
		mu.Unlock()
		return why
	})
	// hold returns "released" once the file path exists, or the cause
	// when its ctx ends first.
	p.Handle("hold", func(ctx context.Context, path string) string {
		for {
			if _, err := os.Stat(path); err == nil {
				return "released"
			}
			select {
			case <-ctx.Done():
				return context.Cause(ctx).Error()
			case <-time.After(20 * time.Millisecond):
			}
		}
	})
	p.Handle("cause", func(key string) string {
		mu.Lock()
		defer mu.Unlock()
		return causes[key]
	})

	// say shows a message, then answers.
	p.Handle("say", func(ctx context.Context, msg string) string {
		p.Infof(ctx, "%s", msg)
		return "said"
	})

	// saylate works for ms, shows a message, then answers: a call long
	// enough to show the waiting line, which ends with a message.
	p.Handle("saylate", func(ctx context.Context, msg string, ms int) string {
		time.Sleep(time.Duration(ms) * time.Millisecond)
		p.Infof(ctx, "%s", msg)
		return "said"
	})

	p.Handle("pid", func() int { return os.Getpid() })
	// exit ends the process after it has answered, as a crash would.
	p.Handle("exit", func() string {
		go func() {
			time.Sleep(20 * time.Millisecond)
			os.Exit(3)
		}()
		return "bye"
	})
	p.Handle("fmt", func(v any) string { return fmt.Sprint(v) })
	return nil
}
