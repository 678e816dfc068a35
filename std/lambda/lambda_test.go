package lambda_test

import (
	"context"
	"runtime"
	"strings"
	"testing"

	"github.com/vigorvim/vigor"
	"github.com/vigorvim/vigor/std/lambda"
	"github.com/vigorvim/vigor/vigortest"
)

// plugin starts a plugin named "lt" against a vigortest.Fake and returns
// both.
func plugin(t *testing.T) (*vigor.Plugin, *vigortest.Fake) {
	var p *vigor.Plugin
	f := vigortest.NewFake(t, vigortest.FakeOptions{Name: "lt"}, func(ctx context.Context, pl *vigor.Plugin) error {
		p = pl
		return nil
	})
	return p, f
}

func TestLambdaCallAndUnregister(t *testing.T) {
	p, f := plugin(t)
	sum := lambda.Register(p, func(ctx context.Context, a, b int) int { return a + b })
	got, err := f.Request(sum.Method(), 1, 2)
	if err != nil || got != int64(3) {
		t.Fatalf("Request(%s, 1, 2) = %v, %v; want 3", sum.Method(), got, err)
	}
	sum.Unregister()
	sum.Unregister()
	_, err = f.Request(sum.Method(), 1, 2)
	if err == nil || !strings.Contains(err.Error(), "lambda "+sum.Method()+" is not registered") {
		t.Fatalf("a call after Unregister: %v", err)
	}
}

func TestLambdaExpressions(t *testing.T) {
	p, _ := plugin(t)
	l := lambda.Register(p, func() {})
	m := l.Method()
	if !strings.HasPrefix(m, vigor.LambdaPrefix) {
		t.Fatalf("Method() = %q, want the prefix %q", m, vigor.LambdaPrefix)
	}
	for _, tc := range []struct{ got, want string }{
		{l.Notify(), "vigor#notify('lt', '" + m + "', [])"},
		{l.Request("a:1", "expand('<amatch>')"), "vigor#request('lt', '" + m + "', [a:1, expand('<amatch>')])"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %s, want %s", tc.got, tc.want)
		}
	}
	if l2 := lambda.Register(p, func() {}); l2.Method() == m {
		t.Errorf("two lambdas share the name %s", m)
	}
}

func TestLambdaBadFunc(t *testing.T) {
	p, _ := plugin(t)
	for _, fn := range []any{nil, 42, func(int, context.Context) {}, func() (int, int) { return 0, 0 }} {
		if l, err := lambda.New(p, fn); err == nil || !strings.HasPrefix(err.Error(), "lambda.New: ") {
			t.Errorf("New(%T) = %v, %v; want an error naming lambda.New", fn, l, err)
		}
	}
	if _, err := lambda.New(nil, func() {}); err == nil {
		t.Error("New(nil plugin) gave no error")
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "not a func") {
			t.Errorf("Register(42) panicked with %v", r)
		}
	}()
	lambda.Register(p, 42)
}

// TestLambda100000 registers and unregisters 100,000 lambdas, all at
// once, and checks that a call of the first still fails as unregistered
// and that the heap is back to its size.
func TestLambda100000(t *testing.T) {
	p, f := plugin(t)
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	before := heap()
	ls := make([]*lambda.Lambda, 100000)
	for i := range ls {
		n := i
		ls[i] = lambda.Register(p, func() int { return n })
	}
	if got, err := f.Request(ls[99999].Method()); err != nil || got != int64(99999) {
		t.Fatalf("the last lambda: %v, %v", got, err)
	}
	first := ls[0].Method()
	for _, l := range ls {
		l.Unregister()
	}
	ls = nil
	after := heap()
	t.Logf("heap: %d B before, %d B after", before, after)
	if after > before+512<<10 {
		t.Errorf("the heap grew by %d B", after-before)
	}
	if _, err := f.Request(first); err == nil || !strings.Contains(err.Error(), "not registered") {
		t.Errorf("a call of an unregistered lambda: %v", err)
	}
}
