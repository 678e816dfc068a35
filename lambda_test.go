package vigor

import (
	"runtime"
	"strings"
	"testing"
)

func newLambdaPlugin() *Plugin {
	return &Plugin{name: "lt", instance: "4", handlers: make(map[string]*handler)}
}

func TestHandleLambdaNames(t *testing.T) {
	p := newLambdaPlugin()
	a, err := p.HandleLambda(func() {})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := p.HandleLambda(func() {})
	if a != "$lambda:4.1" || b != "$lambda:4.2" {
		t.Fatalf("names %q %q, want $lambda:4.1 and $lambda:4.2", a, b)
	}
	if names := p.methodNames(); len(names) != 0 {
		t.Errorf("methodNames lists lambdas: %v", names)
	}
	if _, err := p.HandleLambda(42); err == nil || !strings.Contains(err.Error(), "not a func") {
		t.Errorf("HandleLambda(42): %v", err)
	}
	p.Unhandle(a)
	p.Unhandle(a)
	if got := p.unknownLambda(a).Error(); got != "lambda $lambda:4.1 is not registered (it has been unregistered)" {
		t.Errorf("unknownLambda: %s", got)
	}
	if got := p.unknownLambda("$lambda:3.1").Error(); !strings.Contains(got, "earlier process") {
		t.Errorf("unknownLambda of an earlier instance: %s", got)
	}
	p.Handle("user", func() {})
	p.Unhandle("user")
	if len(p.handlers) != 0 {
		t.Errorf("Unhandle left %d handlers", len(p.handlers))
	}
}

// TestLambda100000 registers and unregisters 100,000 lambdas, one at a
// time and all at once, and checks that the table is back to its size
// and that the heap has not kept the memory of the peak.
func TestLambda100000(t *testing.T) {
	p := newLambdaPlugin()
	keep, _ := p.HandleLambda(func() {})
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	before := heap()
	for range 100000 {
		m, err := p.HandleLambda(func(s string) string { return s })
		if err != nil {
			t.Fatal(err)
		}
		p.Unhandle(m)
	}
	names := make([]string, 100000)
	for i := range names {
		names[i], _ = p.HandleLambda(func(s string) string { return s })
	}
	peak := heap()
	for _, m := range names {
		p.Unhandle(m)
	}
	names = nil
	after := heap()
	if n := p.lambdaCount(); n != 1 {
		t.Fatalf("%d lambdas registered, want 1", n)
	}
	if _, ok := p.lambdas[keep]; !ok {
		t.Fatal("the lambda kept is gone")
	}
	t.Logf("heap: %d B before, %d B at the peak, %d B after", before, peak, after)
	if after > before+256<<10 {
		t.Errorf("the heap grew by %d B after registering and unregistering 100,000 lambdas", after-before)
	}
}
