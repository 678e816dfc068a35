package gen

import "testing"

func TestNames(t *testing.T) {
	for in, want := range map[string]string{
		"getbufline": "Getbufline", "popup_create": "PopupCreate", "hlID": "HlID", "diff_hlID": "DiffHlID",
		"and": "And", "win_id2tabwin": "WinId2tabwin", "buf_get_lines": "BufGetLines",
	} {
		if got := GoName(in); got != want {
			t.Errorf("GoName(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{
		"lnum": "lnum", "end": "end", "end_": "end", "strict_indexing": "strictIndexing", "fname-one": "fnameOne",
		"func": "funcArg", "type": "typeArg", "string": "stringArg", "ctx": "ctxArg", "c": "cArg", "error": "errorArg", "": "arg",
	} {
		if got := ParamName(in); got != want {
			t.Errorf("ParamName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCheckPinned(t *testing.T) {
	if err := CheckPinned(Editor{Kind: "vim", Path: "vim"}, VimVersion); err != nil {
		t.Error(err)
	}
	if err := CheckPinned(Editor{Kind: "nvim", Path: "nvim"}, "0.12.0"); err == nil {
		t.Error("another Neovim: no error")
	}
}

func TestComment(t *testing.T) {
	got := Comment([]string{"a b", "", "  - item  "})
	if want := "// a b\n//\n//   - item\n"; got != want {
		t.Errorf("Comment = %q, want %q", got, want)
	}
}
