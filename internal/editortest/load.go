package editortest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// loadRepos writes to rtp the Ex commands that put the repositories'
// after/ directories and help on 'runtimepath' (run before the vimrc), and
// to plugins those that source their plugin files in 'runtimepath' order,
// as Vim's startup does after the vimrc (run after Vigor's own). Help
// tags of a repository without doc/tags are made in a copy of its doc/
// under dir, so the repository is never written to.
func loadRepos(rtp, plugins *strings.Builder, dir string, repos []string) error {
	rtp.WriteString("filetype plugin indent on\n")
	for i, repo := range repos {
		if st, err := os.Stat(filepath.Join(repo, "after")); err == nil && st.IsDir() {
			fmt.Fprintf(rtp, "set runtimepath+=%s\n", escapeRTP([]string{filepath.Join(repo, "after")}))
		}
		docs, _ := filepath.Glob(filepath.Join(repo, "doc", "*.txt"))
		if len(docs) == 0 {
			continue
		}
		if _, err := os.Stat(filepath.Join(repo, "doc", "tags")); err == nil {
			continue
		}
		help := filepath.Join(dir, fmt.Sprintf("help%d", i))
		if err := os.MkdirAll(filepath.Join(help, "doc"), 0o755); err != nil {
			return err
		}
		for _, d := range docs {
			b, err := os.ReadFile(d)
			if err != nil {
				return err
			}
			if err := os.WriteFile(filepath.Join(help, "doc", filepath.Base(d)), b, 0o644); err != nil {
				return err
			}
		}
		fmt.Fprintf(rtp, "set runtimepath+=%s\nexecute 'silent! helptags' fnameescape(%s)\n",
			escapeRTP([]string{help}), VimString(filepath.Join(help, "doc")))
	}
	for _, sub := range []string{"plugin", filepath.Join("after", "plugin")} {
		for _, repo := range repos {
			d := VimString(filepath.Join(repo, sub))
			fmt.Fprintf(plugins, "for s:f in glob(%s . '/**/*.vim', 1, 1) + (has('nvim') ? glob(%s . '/**/*.lua', 1, 1) : [])\n"+
				"  execute 'source' fnameescape(s:f)\nendfor\n", d, d)
		}
	}
	plugins.WriteString("unlet! s:f\n")
	return nil
}
