package mapping

import "testing"

func TestKeys(t *testing.T) {
	for _, c := range []struct {
		in   string
		lhs  bool
		want string
	}{
		{"a|b", true, "a<Bar>b"},
		{"g x", true, "g<Space>x"},
		{"\tx", true, "<Tab>x"},
		{" y z", false, "<Space>y z"},
		{"a\nb", false, "a<NL>b"},
		{"<C-w>é", true, "<C-w>é"},
	} {
		got, err := keys("f", "x", c.in, c.lhs)
		if err != nil || got != c.want {
			t.Errorf("keys(%q, lhs %v) = %q, %v; want %q", c.in, c.lhs, got, err, c.want)
		}
	}
	if _, err := keys("f", "left-hand side", "a\x00", true); err == nil {
		t.Error("keys took a NUL byte")
	}
}

func TestCommand(t *testing.T) {
	for _, c := range []struct {
		mode   Mode
		verb   string
		opts   Options
		define bool
		want   string
	}{
		{MapMode, "map", Options{}, true, "noremap"},
		{InsertCmdline, "map", Options{Remap: true}, true, "map!"},
		{InsertCmdline, "unmap", Options{Buffer: true, Silent: true}, false, "unmap! <buffer>"},
		{Terminal, "map", Options{Buffer: true, Silent: true, Nowait: true, Expr: true, Unique: true, Script: true}, true,
			"tnoremap <buffer> <silent> <nowait> <expr> <unique> <script>"},
	} {
		if got := command(c.mode, c.verb, c.opts, c.define); got != c.want {
			t.Errorf("command(%q, %q, %+v) = %q, want %q", c.mode, c.verb, c.opts, got, c.want)
		}
	}
}
