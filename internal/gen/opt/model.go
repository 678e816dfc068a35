package main

import (
	"fmt"
	"sort"
	"strings"
)

// option is one wrapped option.
type option struct {
	Name, Short string
	Type        string // the Go type: "bool", "int" or "string"
	Scope       scope
	Editor      string // "vim" or "nvim" when only that editor has it
	NoLocal     string // for a global-local option: the local value meaning "use the global value"
	Note        string // a fact to add to the doc comment, or ""
}

// skipped is an option that an editor documents but does not have.
type skipped struct{ Name, Reason string }

// model is what the generator writes.
type model struct {
	VimVersion, NvimVersion string
	Common, VimOnly, Nvim   []option
	Skipped                 []skipped // options neither pinned editor has
	Disagree                []string  // how the common options differ between the editors, one line each
}

// build sorts the facts into the three packages. Where the editors
// disagree on a common option it uses what works on both: a String when
// one editor's option is a Number and the other's a String (a Number
// converts to a String when it is set, and it is read through a
// concatenation), and Global when one editor's option is global and the
// other's global-local (the global value is what both read and set).
// Any other disagreement is an error, for a person to decide.
func build(f *facts) (*model, error) {
	m := &model{VimVersion: f.VimVersion, NvimVersion: f.NvimVersion}
	nvim := map[string]nvimOpt{}
	for _, o := range f.Nvim {
		if !f.NvimHidden[o.Name] {
			nvim[o.Name] = o
		}
	}
	vimHas := map[string]bool{}
	missing := map[string]vimDoc{} // documented, not in the pinned Vim
	for _, d := range f.VimDoc {
		live, ok := f.VimLive[d.Name]
		if !ok {
			return nil, fmt.Errorf("vim: no facts for '%s'", d.Name)
		}
		if !live.Exists {
			missing[d.Name] = d
			if _, ok := nvim[d.Name]; !ok {
				m.Skipped = append(m.Skipped, skipped{d.Name, "Vim: " + missingReason(d) + nvimReason(f, d.Name)})
			}
			continue
		}
		vimHas[d.Name] = true
		if live.String != (d.Type == "string") {
			return nil, fmt.Errorf("vim: '%s' is documented as a %s but its value is not", d.Name, d.Type)
		}
		o := option{Name: d.Name, Short: d.Short, Type: goType(d.Type), Scope: d.Scope, Editor: "vim", NoLocal: live.NoLocal}
		n, common := nvim[d.Name]
		if !common {
			if o.Scope == noScope {
				return nil, fmt.Errorf("vim: options.txt gives no scope for '%s'", d.Name)
			}
			if f.NvimHidden[d.Name] {
				o.Note = "Neovim lists it too, but there it does nothing (exists('+" + d.Name + "') is false)."
			}
			m.VimOnly = append(m.VimOnly, o)
			continue
		}
		o.Editor = ""
		if err := merge(&o, d, n, f.NvimNoLocal[d.Name], m); err != nil {
			return nil, err
		}
		m.Common = append(m.Common, o)
	}
	for _, n := range f.Nvim {
		if vimHas[n.Name] || f.NvimHidden[n.Name] {
			if _, ok := missing[n.Name]; !ok && !vimHas[n.Name] {
				m.Skipped = append(m.Skipped, skipped{n.Name, "Vim does not document it" + nvimReason(f, n.Name)})
			}
			continue
		}
		o := option{Name: n.Name, Short: n.Short, Type: goType(n.Type), Scope: n.Scope, Editor: "nvim", NoLocal: f.NvimNoLocal[n.Name]}
		if d, ok := missing[n.Name]; ok {
			o.Note = "Vim documents it too, but the pinned Vim does not have it (" + missingReason(d) + ")."
		}
		m.Nvim = append(m.Nvim, o)
	}
	for _, list := range [][]option{m.Common, m.VimOnly, m.Nvim} {
		sort.Slice(list, func(i, j int) bool { return list[i].Name < list[j].Name })
		for i := range list {
			o := &list[i]
			if !o.Scope.globalLocal() {
				o.NoLocal = ""
			} else if o.NoLocal == "" {
				return nil, fmt.Errorf("'%s': no local value for \"use the global value\"", o.Name)
			}
		}
	}
	sort.Slice(m.Skipped, func(i, j int) bool { return m.Skipped[i].Name < m.Skipped[j].Name })
	return m, nil
}

// merge settles the type, scope and NoLocal of o, a common option, from
// Vim's entry d and Neovim's n, noting disagreements in m.
func merge(o *option, d vimDoc, n nvimOpt, nvimNoLocal string, m *model) error {
	if d.Type != n.Type {
		if d.Type != "string" && n.Type != "string" {
			return fmt.Errorf("'%s' is a %s in Vim and a %s in Neovim", d.Name, d.Type, n.Type)
		}
		o.Type = "string"
		m.Disagree = append(m.Disagree, fmt.Sprintf("'%s' is a %s in Vim and a %s in Neovim: a String here", d.Name, typeWord(d.Type), typeWord(n.Type)))
		o.Note = fmt.Sprintf("It is a %s in Vim and a %s in Neovim; it is read and set as a String.", typeWord(d.Type), typeWord(n.Type))
	}
	switch {
	case d.Scope == noScope:
		o.Scope = n.Scope
		m.Disagree = append(m.Disagree, fmt.Sprintf("'%s' has no scope in Vim's options.txt: %s, as in Neovim", d.Name, n.Scope.words()))
	case d.Scope == n.Scope:
	case d.Scope == global && n.Scope.globalLocal() || n.Scope == global && d.Scope.globalLocal():
		o.Scope = global
		m.Disagree = append(m.Disagree, fmt.Sprintf("'%s' is %s in Vim and %s in Neovim: global here", d.Name, d.Scope.words(), n.Scope.words()))
		o.Note = fmt.Sprintf("It is %s in Vim and %s in Neovim; the global value is what both have.", d.Scope.words(), n.Scope.words())
	default:
		return fmt.Errorf("'%s' is %s in Vim and %s in Neovim", d.Name, d.Scope.words(), n.Scope.words())
	}
	if o.Scope.globalLocal() && o.NoLocal != nvimNoLocal {
		return fmt.Errorf("'%s': an unset local value is %s in Vim and %s in Neovim", d.Name, o.NoLocal, nvimNoLocal)
	}
	return nil
}

// nvimReason says why Neovim does not have name, or "" when it does.
func nvimReason(f *facts, name string) string {
	if f.NvimHidden[name] {
		return "; Neovim: lists it, but the option does nothing (exists('+" + name + "') is false)"
	}
	for _, o := range f.Nvim {
		if o.Name == name {
			return ""
		}
	}
	return "; Neovim: does not have it"
}

// goType is the Go type of an option of type t ("boolean", "number" or
// "string", as both editors' sources say).
func goType(t string) string {
	switch t {
	case "boolean":
		return "bool"
	case "number":
		return "int"
	}
	return "string"
}

// typeWord is Vim's word for an option type of the sources.
func typeWord(t string) string {
	switch t {
	case "boolean":
		return "Boolean"
	case "number":
		return "Number"
	}
	return "String"
}

// missingReason says why the pinned Vim lacks d.
func missingReason(d vimDoc) string {
	if len(d.Features) == 0 {
		return "not in this build"
	}
	return "needs " + strings.Join(dedupe(d.Features), ", ")
}

func dedupe(s []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, x := range s {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}
