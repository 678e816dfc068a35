package argument

import (
	"reflect"
	"strings"
	"testing"
)

// fargsCases are the <f-args> table of :help <f-args>, and more; e2e's
// TestStdParseFArgs checks the same cases against both editors.
var fargsCases = []struct {
	qargs string
	want  []string
}{
	{`ab`, []string{`ab`}},
	{`a\b`, []string{`a\b`}},
	{`a\ b`, []string{`a b`}},
	{`a\  b`, []string{`a `, `b`}},
	{`a\\b`, []string{`a\b`}},
	{`a\\ b`, []string{`a\`, `b`}},
	{`a\\\b`, []string{`a\\b`}},
	{`a\\\ b`, []string{`a\ b`}},
	{`a\\\\b`, []string{`a\\b`}},
	{`a\\\\ b`, []string{`a\\`, `b`}},
	{``, nil},
	{"  \t ", nil},
	{"a\tb  c  ", []string{"a", "b", "c"}},
	{"a\\\tb", []string{"a\tb"}},
	{`a\`, []string{`a\`}},
	{`"x y" 'z'`, []string{`"x`, `y"`, `'z'`}},
	{`\"a`, []string{`\"a`}},
	{`C:\Users\me é`, []string{`C:\Users\me`, `é`}},
}

func TestFArgs(t *testing.T) {
	for _, c := range fargsCases {
		if got := FArgs(c.qargs); !reflect.DeepEqual(got, c.want) {
			t.Errorf("FArgs(%q) = %q, want %q", c.qargs, got, c.want)
		}
	}
}

func TestSplit(t *testing.T) {
	for _, c := range []struct {
		line string
		want []string
	}{
		{`"a b" c`, []string{"a b", "c"}},
		{`'a b' c`, []string{"a b", "c"}},
		{`"" ''`, []string{"", ""}},
		{`"a \"b\" \\ \c"`, []string{`a "b" \ \c`}},
		{`'it''s' 'a\b'`, []string{`it's`, `a\b`}},
		{`--name="a b" ++enc='x y'`, []string{"--name=a b", "++enc=x y"}},
		{`"a b"c'd'`, []string{"a bc'd'"}},
		{`don't 5'11"`, []string{"don't", `5'11"`}},
		{`\"a \'b`, []string{`"a`, `'b`}},
		{`a\ b\\ C:\x`, []string{`a b\`, `C:\x`}},
		{"\"a\tb\" c\td", []string{"a\tb", "c", "d"}},
		{`"日本" 語`, []string{"日本", "語"}},
		{``, nil},
	} {
		got, err := Split(c.line)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("Split(%q) = %q, %v; want %q", c.line, got, err, c.want)
		}
	}
	for _, c := range []struct{ line, want string }{
		{`a "b c`, `argument.Split: the " at byte 2 is not closed`},
		{`'it`, `argument.Split: the ' at byte 0 is not closed`},
		{`"a\"`, `argument.Split: the " at byte 0 is not closed`},
		{`--x='a`, `argument.Split: the ' at byte 4 is not closed`},
	} {
		got, err := Split(c.line)
		if err == nil || err.Error() != c.want {
			t.Errorf("Split(%q) = %q, %v; want the error %s", c.line, got, err, c.want)
		}
	}
}

func TestJoin(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"a", "b"}, "a b"},
		{[]string{"--msg=a b", "k=", `=a b`, `a b=c d`}, `--msg="a b" k= "=a b" "a b=c d"`},
		{[]string{"a b", "", `C:\x`, `say "hi"`, "it's"}, `"a b" "" "C:\\x" "say \"hi\"" "it's"`},
		{nil, ""},
	} {
		if got := Join(c.args); got != c.want {
			t.Errorf("Join(%q) = %s, want %s", c.args, got, c.want)
		}
	}
}

func TestParse(t *testing.T) {
	for _, c := range []struct {
		line string
		want Args
	}{
		{"++enc=sjis ++ff=dos -f --foo=foo --bar=bar --bar=baz hello world", Args{
			Opts:  Opts{"enc": "sjis", "ff": "dos"},
			Flags: Flags{"f": {""}, "foo": {"foo"}, "bar": {"bar", "baz"}},
			Rest:  []string{"hello", "world"}}},
		{"", Args{Opts: Opts{}, Flags: Flags{}}},
		{"++bin ++bad=keep ++enc=a=b", Args{Opts: Opts{"bin": "", "bad": "keep", "enc": "a=b"}, Flags: Flags{}}},
		{"-n10 -abc -f=x --long --e=", Args{Opts: Opts{},
			Flags: Flags{"n": {"10"}, "a": {"bc"}, "f": {"=x"}, "long": {""}, "e": {""}}}},
		{"a -5 - -.5 b", Args{Opts: Opts{}, Flags: Flags{}, Rest: []string{"a", "-5", "-", "-.5", "b"}}},
		{`--msg="hello world" 'file name.txt'`, Args{Opts: Opts{}, Flags: Flags{"msg": {"hello world"}},
			Rest: []string{"file name.txt"}}},
		{"x ++enc=utf-8 y -v z", Args{Opts: Opts{"enc": "utf-8"}, Flags: Flags{"v": {""}}, Rest: []string{"x", "y", "z"}}},
		{"-v -- ++x -y --z", Args{Opts: Opts{}, Flags: Flags{"v": {""}}, Literal: []string{"++x", "-y", "--z"}}},
		{"a --", Args{Opts: Opts{}, Flags: Flags{}, Rest: []string{"a"}, Literal: []string{}}},
		{"-- -- a", Args{Opts: Opts{}, Flags: Flags{}, Literal: []string{"--", "a"}}},
		{`--dir=C:\Users\me`, Args{Opts: Opts{}, Flags: Flags{"dir": {`C:\Users\me`}}}},
		{"--a_b-c=1 --9=x", Args{Opts: Opts{}, Flags: Flags{"a_b-c": {"1"}, "9": {"x"}}}},
		{"-é", Args{Opts: Opts{}, Flags: Flags{}, Rest: []string{"-é"}}},
	} {
		got, err := Parse(c.line)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("Parse(%q) = %#v, %v; want %#v", c.line, got, err, c.want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{"++enc=a ++enc=b", "argument.Parse: ++enc is given twice"},
		{"++", `argument.Parse: "++" is not an option: write ++name or ++name=value, the name of letters, digits, '-' and '_'`},
		{"++=x", `argument.Parse: "++=x" is not an option: write ++name or ++name=value, the name of letters, digits, '-' and '_'`},
		{"++a!b", `argument.Parse: "++a!b" is not an option: write ++name or ++name=value, the name of letters, digits, '-' and '_'`},
		{"---x", `argument.Parse: "---x" is not a flag: write --name or --name=value, the name of letters, digits, '-' and '_'`},
		{"--=x", `argument.Parse: "--=x" is not a flag: write --name or --name=value, the name of letters, digits, '-' and '_'`},
		{`--x="a`, `argument.Parse: the " at byte 4 is not closed`},
	} {
		got, err := Parse(c.line)
		if err == nil || err.Error() != c.want {
			t.Errorf("Parse(%q) = %#v, %v; want the error %s", c.line, got, err, c.want)
		}
	}
	if _, err := ParseFields([]string{"++x", "++x"}); err == nil || err.Error() != "argument.ParseFields: ++x is given twice" {
		t.Errorf("ParseFields: %v", err)
	}
}

// ParseOpts and ParseFlags each take their own kind out and keep the
// rest, "--" and what follows it included.
func TestParseOptsFlags(t *testing.T) {
	args := []string{"++enc=sjis", "-f", "--foo=1", "x", "--", "++ff=dos", "-g"}
	opts, rest, err := ParseOpts(args)
	if err != nil || !reflect.DeepEqual(opts, Opts{"enc": "sjis"}) ||
		!reflect.DeepEqual(rest, []string{"-f", "--foo=1", "x", "--", "++ff=dos", "-g"}) {
		t.Errorf("ParseOpts = %q, %q, %v", opts, rest, err)
	}
	flags, rest, err := ParseFlags(args)
	if err != nil || !reflect.DeepEqual(flags, Flags{"f": {""}, "foo": {"1"}}) ||
		!reflect.DeepEqual(rest, []string{"++enc=sjis", "x", "--", "++ff=dos", "-g"}) {
		t.Errorf("ParseFlags = %q, %q, %v", flags, rest, err)
	}
	if _, _, err := ParseFlags([]string{"---"}); err == nil || !strings.HasPrefix(err.Error(), `argument.ParseFlags: "---" is not a flag`) {
		t.Errorf("ParseFlags(---): %v", err)
	}
	if _, _, err := ParseOpts([]string{"++"}); err == nil || !strings.HasPrefix(err.Error(), `argument.ParseOpts: "++" is not an option`) {
		t.Errorf("ParseOpts(++): %v", err)
	}
}

func TestFlagsGet(t *testing.T) {
	f := Flags{"a": {"1", "2"}, "b": {""}}
	if !f.Has("a") || !f.Has("b") || f.Has("c") || f.Get("a") != "2" || f.Get("b") != "" || f.Get("c") != "" {
		t.Errorf("Has/Get of %q", f)
	}
	var none Flags
	if none.Has("a") || none.Get("a") != "" {
		t.Error("a nil Flags")
	}
}

func TestValidate(t *testing.T) {
	a, err := Parse("++enc=x ++foo ++bar -f --long -x --y")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		err  error
		want string
	}{
		{ValidateOpts(a.Opts, BuiltinOpts()...), "argument.ValidateOpts: unknown options ++bar, ++foo (known: ++bad, ++bin, ++binary, ++edit, ++enc, ++encoding, ++ff, ++fileformat, ++nobin, ++nobinary, ++p)"},
		{ValidateOpts(a.Opts, "enc", "foo"), "argument.ValidateOpts: unknown option ++bar (known: ++enc, ++foo)"},
		{ValidateOpts(a.Opts, "enc", "foo", "bar"), ""},
		{ValidateOpts(a.Opts), "argument.ValidateOpts: unknown options ++bar, ++enc, ++foo (this command takes none)"},
		{ValidateFlags(a.Flags, "f", "long"), "argument.ValidateFlags: unknown flags -x, -y (known: -f, --long)"},
		{ValidateFlags(a.Flags, "f", "long", "x", "y", "9"), ""},
		{ValidateFlags(Flags{}, "f"), ""},
		{ValidateFlags(Flags{"9": {""}}, "f"), "argument.ValidateFlags: unknown flag --9 (known: -f)"},
	} {
		got := ""
		if c.err != nil {
			got = c.err.Error()
		}
		if got != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
	}
}

func TestFormat(t *testing.T) {
	for _, c := range []struct {
		a    Args
		want string
	}{
		{Args{Opts: Opts{"ff": "dos", "enc": "sjis", "bin": ""}, Flags: Flags{"foo": {"foo"}, "bar": {"b z", ""}, "f": {"", "x"}},
			Rest: []string{"hello", "a b"}, Literal: []string{"-x"}},
			`++bin ++enc=sjis ++ff=dos --bar="b z" --bar -f -fx --foo=foo hello "a b" -- -x`},
		{Args{}, ""},
		{Args{Literal: []string{}}, "--"},
		{Args{Flags: Flags{"9": {"1"}, "none": {}}}, "--9=1"},
		{Args{Rest: []string{"-5", "-", ""}}, `-5 - ""`},
	} {
		got, err := Format(c.a)
		if err != nil || got != c.want {
			t.Errorf("Format(%#v) = %s, %v; want %s", c.a, got, err, c.want)
		}
	}
	for _, c := range []struct {
		a    Args
		want string
	}{
		{Args{Opts: Opts{"a b": ""}}, `argument.Format: "a b" is not an option name: it has letters, digits, '-' and '_', and starts with a letter or a digit`},
		{Args{Flags: Flags{"-x": {""}}}, `argument.Format: "-x" is not a flag name: it has letters, digits, '-' and '_', and starts with a letter or a digit`},
		{Args{Rest: []string{"--x"}}, `argument.Format: the argument "--x" of Rest would read as an option or a flag; put it in Literal`},
		{Args{Rest: []string{"++x"}}, `argument.Format: the argument "++x" of Rest would read as an option or a flag; put it in Literal`},
		{Args{Rest: []string{"--"}}, `argument.Format: the argument "--" of Rest would read as an option or a flag; put it in Literal`},
	} {
		got, err := Format(c.a)
		if err == nil || err.Error() != c.want {
			t.Errorf("Format(%#v) = %s, %v; want the error %s", c.a, got, err, c.want)
		}
	}
}

// Split(Join(args)) is args, and Split agrees with FArgs on a line
// without quotes.
func FuzzSplitJoin(f *testing.F) {
	for _, c := range fargsCases {
		f.Add(c.qargs, strings.Join(c.want, "\x00"))
	}
	f.Fuzz(func(t *testing.T, line, joined string) {
		args := strings.Split(joined, "\x00")
		got, err := Split(Join(args))
		if err != nil || !reflect.DeepEqual(got, args) {
			t.Fatalf("Split(Join(%q) = %s) = %q, %v", args, Join(args), got, err)
		}
		if !strings.ContainsAny(line, `"'`) {
			got, err := Split(line)
			if want := FArgs(line); err != nil || !reflect.DeepEqual(got, want) {
				t.Fatalf("Split(%q) = %q, %v; FArgs gives %q", line, got, err, want)
			}
		}
	})
}

// Parse(Format(a)) is a for what Parse returns.
func FuzzParseFormat(f *testing.F) {
	f.Add(`++enc=sjis ++ff=dos -f --foo=foo --bar=bar --bar="b z" hello world -- -x`)
	f.Add(`-n10 'a b' "" --x= -- --`)
	f.Fuzz(func(t *testing.T, line string) {
		a, err := Parse(line)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "argument.Parse: ") {
				t.Fatalf("Parse(%q): %v", line, err)
			}
			return
		}
		s, err := Format(a)
		if err != nil {
			t.Fatalf("Format(Parse(%q) = %#v): %v", line, a, err)
		}
		again, err := Parse(s)
		if err != nil || !reflect.DeepEqual(again, a) {
			t.Fatalf("Parse(Format(Parse(%q)) = %s) = %#v, %v; want %#v", line, s, again, err, a)
		}
	})
}
