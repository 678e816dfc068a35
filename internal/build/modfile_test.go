package build

import (
	"reflect"
	"strings"
	"testing"
)

func TestCompareVersions(t *testing.T) {
	ordered := []string{
		"v0.0.0-00010101000000-000000000000",
		"v0.0.0-20240101000000-abcdefabcdef",
		"v0.1.0",
		"v1.0.0-alpha",
		"v1.0.0-alpha.1",
		"v1.0.0-alpha.beta",
		"v1.0.0-beta",
		"v1.0.0-beta.2",
		"v1.0.0-beta.11",
		"v1.0.0-rc.1",
		"v1.0.0",
		"v1.2.0",
		"v1.10.0",
		"v2.0.0+incompatible",
		"v10.0.0",
	}
	for i, a := range ordered {
		for j, b := range ordered {
			want := 0
			if i < j {
				want = -1
			} else if i > j {
				want = 1
			}
			if got := compareVersions(a, b); got != want {
				t.Errorf("compareVersions(%s, %s) = %d, want %d", a, b, got, want)
			}
		}
	}
	if got := compareVersions("v1.0.0+meta", "v1.0.0"); got != 0 {
		t.Errorf("build metadata counted: %d", got)
	}
	for _, bad := range []string{"", "1.0.0", "v1.0", "vx.y.z", "latest"} {
		if got := compareVersions(bad, "v1.0.0"); got != 0 {
			t.Errorf("compareVersions(%q, v1.0.0) = %d, want 0 (left as it is)", bad, got)
		}
	}
}

// The go.mod copy requires the SDK's own requirements at least at the
// SDK's versions, and keeps the plugin's higher ones.
func TestRaise(t *testing.T) {
	sdk := []requirement{{"example.com/a", "v1.2.0"}, {"example.com/b", "v1.0.0"}, {"example.com/c", "v0.3.0"}, {SDKModule, "v9.9.9"}}
	have := []requirement{{"example.com/a", "v1.1.9"}, {"example.com/b", "v1.5.0"}, {SDKModule, "v0.1.0"}, {"example.com/own", "v1.0.0"}}
	got := raise(have, sdk)
	want := []string{"-require=example.com/a@v1.2.0", "-require=example.com/c@v0.3.0"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("raise = %q, want %q", got, want)
	}
}

// A plugin that requires one of the SDK's own requirements at a lower
// version builds offline: the copy raises it to the SDK's.
func TestBuildRaisesSDKRequirements(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go build")
	}
	offline(t)
	goMod := "module example.com/lower\n\ngo 1.22\n\nrequire " + SDKModule + " v0.1.0\n\nrequire github.com/vmihailenco/msgpack/v5 v5.0.0 // indirect\n"
	_, dir := moduleRepo(t, "lower", goMod, tinyMain)
	res, _ := buildOnce(t, Options{Cache: t.TempDir(), SDK: sdkRoot(t)}, Plugin{Name: "lower", Dir: dir})
	if res.Err != nil {
		t.Fatalf("build: %v\n%s", res.Err, strings.Join(res.Output, "\n"))
	}
}
