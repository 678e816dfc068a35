package vigortest

import (
	"reflect"
	"testing"
)

// Vim's key notation becomes tmux's key names between runs of literal
// text; text without it goes to tmux as it is.
func TestVimKeys(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []keySeg
		ok   bool
	}{
		{":w<CR>", []keySeg{{":w", true}, {"Enter", false}}, true},
		{"<Esc><C-W>x<F5><M-a><Up>", []keySeg{{"Escape", false}, {"C-w", false}, {"x", true}, {"F5", false}, {"M-a", false}, {"Up", false}}, true},
		{"a<lt>b>c<CR>", []keySeg{{"a<b>c", true}, {"Enter", false}}, true},
		{"<Leader>k", []keySeg{{"<Leader>k", true}}, false},
		{"Enter", []keySeg{{"Enter", true}}, false},
		{"x < y > z", []keySeg{{"x < y > z", true}}, false},
		{"<F13>", []keySeg{{"<F13>", true}}, false},
	} {
		got, ok := vimKeys(c.in)
		if ok != c.ok || (ok && !reflect.DeepEqual(got, c.want)) {
			t.Errorf("vimKeys(%q) = %v, %v; want %v, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}
