package bufname

import (
	"net/url"
	"reflect"
	"strings"
	"testing"
)

// Each case formats b into name, and parses name back into b.
var roundTrips = []struct {
	what string
	b    Bufname
	name string
}{
	{"expr only", Bufname{Scheme: "git", Expr: "/repo/a.go"}, "git:///repo/a.go"},
	{"empty expr", Bufname{Scheme: "git"}, "git://"},
	{"dash in the scheme, upper case", Bufname{Scheme: "My-Plugin", Expr: "x"}, "My-Plugin://x"},
	{"spaces stay", Bufname{Scheme: "sc", Expr: "/Users/John Titor/test.git"}, "sc:///Users/John Titor/test.git"},
	{"unicode stays", Bufname{Scheme: "sc", Expr: "/tmp/日本語/é.txt", Fragment: "ü.md"}, "sc:///tmp/日本語/é.txt#ü.md"},
	{"; and # in expr", Bufname{Scheme: "sc", Expr: "/hello;world#hello"}, "sc:///hello%3Bworld%23hello"},
	{"% in every part", Bufname{Scheme: "sc", Expr: "100%", Params: url.Values{"p%": {"%20"}}, Fragment: "%41"},
		"sc://100%25;p%25=%2520#%2541"},
	{"Windows unusable characters", Bufname{Scheme: "sc", Expr: `/"<>|?*`, Params: url.Values{"k": {`"<>|?*`}}, Fragment: `"<>|?*`},
		"sc:///%22%3C%3E%7C%3F%2A;k=%22%3C%3E%7C%3F%2A#%22%3C%3E%7C%3F%2A"},
	{"control characters", Bufname{Scheme: "sc", Expr: "a\nb\x00c\td\x7f"}, "sc://a%0Ab%00c%09d%7F"},
	{"invalid UTF-8", Bufname{Scheme: "sc", Expr: "a\xffb\xe6\x97"}, "sc://a%FFb%E6%97"},
	{"Windows path", Bufname{Scheme: "sc", Expr: `C:\Users\John Titor\a.txt`}, `sc://C:\Users\John Titor\a.txt`},
	{"Windows path as a URL path", Bufname{Scheme: "sc", Expr: "/C:/Users/John%20Titor/a.txt"}, "sc:///C:/Users/John%2520Titor/a.txt"},
	{"params, keys sorted, values in order", Bufname{Scheme: "sc", Expr: "x", Params: url.Values{"foo": {"foo"}, "bar": {"bar2", "bar1"}}},
		"sc://x;bar=bar2&bar=bar1&foo=foo"},
	{"params with separators", Bufname{Scheme: "sc", Expr: "x", Params: url.Values{"a=b&c": {"d#e+f;g h"}}},
		"sc://x;a%3Db%26c=d%23e%2Bf;g h"},
	{"empty key and value", Bufname{Scheme: "sc", Params: url.Values{"": {""}}}, "sc://;="},
	{"fragment keeps # and ;", Bufname{Scheme: "sc", Expr: "x", Fragment: "a#b;c"}, "sc://x#a#b;c"},
	{"everything", Bufname{Scheme: "sc", Expr: "/r", Params: url.Values{"a": {"1"}}, Fragment: "README.md"}, "sc:///r;a=1#README.md"},
}

func TestRoundTrips(t *testing.T) {
	for _, c := range roundTrips {
		name, err := Format(c.b)
		if err != nil || name != c.name {
			t.Errorf("%s: Format(%#v) = %q, %v; want %q", c.what, c.b, name, err, c.name)
		}
		b, err := Parse(c.name)
		if err != nil || !reflect.DeepEqual(b, c.b) {
			t.Errorf("%s: Parse(%q) = %#v, %v; want %#v", c.what, c.name, b, err, c.b)
		}
	}
}

// Parse reads names that Format does not write, as deno-denops-std writes
// them or as a user types them.
func TestParseOtherForms(t *testing.T) {
	for _, c := range []struct {
		what, name string
		want       Bufname
	}{
		{"lower-case escapes", "sc://%3b%e6%97%a5", Bufname{Scheme: "sc", Expr: ";日"}},
		{"escapes of characters Format leaves", "sc://%41%2F", Bufname{Scheme: "sc", Expr: "A/"}},
		{"+ in params is a space", "sc://a+b;k+1=v+2", Bufname{Scheme: "sc", Expr: "a+b", Params: url.Values{"k 1": {"v 2"}}}},
		{"a key without =", "sc://x;flag&k=v", Bufname{Scheme: "sc", Expr: "x", Params: url.Values{"flag": {""}, "k": {"v"}}}},
		{"empty pairs skipped", "sc://x;&&k=v&", Bufname{Scheme: "sc", Expr: "x", Params: url.Values{"k": {"v"}}}},
		{"empty params and fragment", "sc://x;#", Bufname{Scheme: "sc", Expr: "x"}},
		{"= in a value", "sc://x;k=a=b", Bufname{Scheme: "sc", Expr: "x", Params: url.Values{"k": {"a=b"}}}},
		{"denops's URL-encoded params", "ginlog:///r;pretty=%22%25C%28yellow%29%25h+%25s%22#[]$",
			Bufname{Scheme: "ginlog", Expr: "/r", Params: url.Values{"pretty": {`"%C(yellow)%h %s"`}}, Fragment: "[]$"}},
		{":// again in expr", "sc://http://x", Bufname{Scheme: "sc", Expr: "http://x"}},
	} {
		got, err := Parse(c.name)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: Parse(%q) = %#v, %v; want %#v", c.what, c.name, got, err, c.want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, c := range []struct{ name, want string }{
		{"/tmp/a.txt", `bufname.Parse: "/tmp/a.txt" does not start with {scheme}://`},
		{"", `bufname.Parse: "" does not start with {scheme}://`},
		{"sc:/x", `bufname.Parse: "sc:/x" does not start with {scheme}://`},
		{"://x", `bufname.Parse: "://x": the scheme "" is shorter than two letters`},
		{"C://x", `bufname.Parse: "C://x": the scheme "C" is shorter than two letters`},
		{"my_s://x", `bufname.Parse: "my_s://x": the scheme "my_s" has '_'; a scheme is ASCII letters, with '-' between them`},
		{"x1://x", `bufname.Parse: "x1://x": the scheme "x1" has '1'; a scheme is ASCII letters, with '-' between them`},
		{"é://x", `bufname.Parse: "é://x": the scheme "é" has 'é'; a scheme is ASCII letters, with '-' between them`},
		{"-ab://x", `bufname.Parse: "-ab://x": the scheme "-ab" starts or ends with '-'`},
		{"ab-://x", `bufname.Parse: "ab-://x": the scheme "ab-" starts or ends with '-'`},
		{"sc://a?b", `bufname.Parse: "sc://a?b" has '?' at byte 6, which a buffer name cannot have; Format writes it as %3F`},
		{"sc://a\nb", `bufname.Parse: "sc://a\nb" has '\n' at byte 6, which a buffer name cannot have; Format writes it as %0A`},
		{"sc://a\xff", `bufname.Parse: "sc://a\xff" has invalid UTF-8 at byte 6`},
		{"sc://100%", `bufname.Parse: "sc://100%": the expr ends with "%", which is not a %XX escape`},
		{"sc://x;k=%4", `bufname.Parse: "sc://x;k=%4": the params ends with "%4", which is not a %XX escape`},
		{"sc://x#%zz", `bufname.Parse: "sc://x#%zz": the fragment has "%zz", which is not a %XX escape`},
	} {
		b, err := Parse(c.name)
		if err == nil || err.Error() != c.want {
			t.Errorf("Parse(%q) = %#v, %v; want the error %s", c.name, b, err, c.want)
		}
	}
}

func TestFormatErrors(t *testing.T) {
	for _, c := range []struct{ scheme, want string }{
		{"", `bufname.Format: the scheme "" is shorter than two letters`},
		{"denops0number", `bufname.Format: the scheme "denops0number" has '0'; a scheme is ASCII letters, with '-' between them`},
		{"a+b", `bufname.Format: the scheme "a+b" has '+'; a scheme is ASCII letters, with '-' between them`},
		{"a.b", `bufname.Format: the scheme "a.b" has '.'; a scheme is ASCII letters, with '-' between them`},
		{"ab-", `bufname.Format: the scheme "ab-" starts or ends with '-'`},
	} {
		name, err := Format(Bufname{Scheme: c.scheme, Expr: "x"})
		if err == nil || err.Error() != c.want {
			t.Errorf("Format(scheme %q) = %q, %v; want the error %s", c.scheme, name, err, c.want)
		}
	}
}

// A key without values is not written.
func TestFormatKeyWithoutValues(t *testing.T) {
	name, err := Format(Bufname{Scheme: "sc", Expr: "x", Params: url.Values{"none": nil, "k": {"v"}}})
	if err != nil || name != "sc://x;k=v" {
		t.Fatalf("Format = %q, %v", name, err)
	}
	name, err = Format(Bufname{Scheme: "sc", Expr: "x", Params: url.Values{"none": {}}})
	if err != nil || name != "sc://x" {
		t.Fatalf("Format = %q, %v", name, err)
	}
}

// normal is b as Parse returns it: Params without empty keys, nil when
// empty.
func normal(b Bufname) Bufname {
	var ps url.Values
	for k, vs := range b.Params {
		if len(vs) > 0 {
			if ps == nil {
				ps = url.Values{}
			}
			ps[k] = vs
		}
	}
	b.Params = ps
	return b
}

// Parse(Format(b)) is b for every b that Format accepts, and Format fails
// only for a bad scheme.
func FuzzRoundTrip(f *testing.F) {
	for _, c := range roundTrips {
		key, value := "", ""
		for k, vs := range c.b.Params {
			key, value = k, vs[0]
		}
		f.Add(c.b.Scheme, c.b.Expr, key, value, c.b.Fragment)
	}
	f.Fuzz(func(t *testing.T, scheme, expr, key, value, fragment string) {
		b := Bufname{Scheme: scheme, Expr: expr, Fragment: fragment}
		if key != "" || value != "" {
			b.Params = url.Values{key: {value, value + "2"}, key + "k": {""}}
		}
		name, err := Format(b)
		if err != nil {
			if checkScheme(scheme) == nil {
				t.Fatalf("Format(%#v): %v", b, err)
			}
			return
		}
		got, err := Parse(name)
		if err != nil {
			t.Fatalf("Parse(Format(%#v) = %q): %v", b, name, err)
		}
		if !reflect.DeepEqual(got, normal(b)) {
			t.Fatalf("Parse(Format(%#v) = %q) = %#v", b, name, got)
		}
	})
}

// Parse never panics, and what it accepts formats into a name that
// parses the same.
func FuzzParse(f *testing.F) {
	for _, c := range roundTrips {
		f.Add(c.name)
	}
	f.Add("sc://a+b;k+1=v+2&&x#y")
	f.Fuzz(func(t *testing.T, name string) {
		b, err := Parse(name)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "bufname.Parse: ") {
				t.Fatalf("Parse(%q): %v", name, err)
			}
			return
		}
		again, err := Format(b)
		if err != nil {
			t.Fatalf("Format(Parse(%q) = %#v): %v", name, b, err)
		}
		b2, err := Parse(again)
		if err != nil || !reflect.DeepEqual(b, b2) {
			t.Fatalf("Parse(%q) = %#v, %v; want %#v", again, b2, err, b)
		}
	})
}
