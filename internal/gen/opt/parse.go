package main

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// scope is where an option's value lives, in the words of Vim's
// options.txt.
type scope int

const (
	noScope      scope = iota // the source does not say
	global                    // "global"
	buffer                    // "local to buffer"
	window                    // "local to window"
	globalBuffer              // "global or local to buffer"
	globalWindow              // "global or local to window"
)

// goType is the Go type of the Go wrapper of scope s.
func (s scope) goType() string {
	return [...]string{"", "Global", "BufferLocal", "WindowLocal", "GlobalOrBuffer", "GlobalOrWindow"}[s]
}

// baseType is the type of package opt that the Go type of scope s embeds,
// or "" when it embeds Option alone.
func (s scope) baseType() string {
	switch s {
	case buffer, window:
		return "Local"
	case globalBuffer, globalWindow:
		return "GlobalLocal"
	}
	return ""
}

// words is how s reads in a doc comment.
func (s scope) words() string {
	return [...]string{"", "global", "local to buffer", "local to window", "global or local to buffer", "global or local to window"}[s]
}

// globalLocal reports whether s is one of the global-local scopes.
func (s scope) globalLocal() bool { return s == globalBuffer || s == globalWindow }

// vimDoc is an option as Vim's options.txt documents it.
type vimDoc struct {
	Name, Short string
	Type        string   // "boolean", "number" or "string"
	Scope       scope    // noScope when the entry has no scope line
	Features    []string // the build features it needs, such as "+rightleft"
}

var (
	// The header line of an option's entry: 'name' 'short' type (default...
	vimHeader = regexp.MustCompile(`^'([a-z]+)'(?:\s+'([a-z]+)')?\s+(boolean|number|string)\b`)
	// A scope line, indented. "global or local to tab page" ('cmdheight')
	// is read as global: :set acts on the current tab page's value.
	vimScope   = regexp.MustCompile(`^\s+(global or local to (buffer|window|tab page)|global|local to (buffer|window))\b`)
	vimFeature = regexp.MustCompile(`\|(\+[a-z0-9_]+)\|`)
)

// parseVimDoc reads the option entries of Vim's options.txt: each header
// line, then its scope line and the features it needs from the lines up to
// the entry's prose (a line indented by one tab) or a blank line.
func parseVimDoc(text string) ([]vimDoc, error) {
	lines := strings.Split(text, "\n")
	var out []vimDoc
	seen := map[string]bool{}
	for i, l := range lines {
		m := vimHeader.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		d := vimDoc{Name: m[1], Short: m[2], Type: m[3]}
		if seen[d.Name] {
			return nil, fmt.Errorf("options.txt line %d: '%s' is documented twice", i+1, d.Name)
		}
		seen[d.Name] = true
		for _, l := range lines[i+1:] {
			if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "\t") && !strings.HasPrefix(l, "\t\t") {
				break
			}
			if s := vimScope.FindStringSubmatch(l); s != nil && d.Scope == noScope {
				d.Scope = vimScopeOf(s[1])
			}
			for _, f := range vimFeature.FindAllStringSubmatch(l, -1) {
				d.Features = append(d.Features, f[1])
			}
		}
		out = append(out, d)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("options.txt: no option entries found")
	}
	return out, nil
}

func vimScopeOf(words string) scope {
	switch words {
	case "local to buffer":
		return buffer
	case "local to window":
		return window
	case "global or local to buffer":
		return globalBuffer
	case "global or local to window":
		return globalWindow
	}
	return global // "global", "global or local to tab page"
}

// nvimOpt is an option as Neovim's nvim_get_all_options_info() describes it.
type nvimOpt struct {
	Name, Short string
	Type        string // "boolean", "number" or "string"
	Scope       scope
}

// parseNvimInfo reads the JSON of nvim_get_all_options_info(), sorted by
// name.
func parseNvimInfo(data []byte) ([]nvimOpt, error) {
	var info map[string]struct {
		Name        string `json:"name"`
		Shortname   string `json:"shortname"`
		Type        string `json:"type"`
		Scope       string `json:"scope"`
		GlobalLocal bool   `json:"global_local"`
	}
	if err := json.Unmarshal(data, &info); err != nil {
		return nil, fmt.Errorf("nvim_get_all_options_info(): %w", err)
	}
	out := make([]nvimOpt, 0, len(info))
	for key, o := range info {
		if o.Name != key {
			return nil, fmt.Errorf("nvim_get_all_options_info(): %q has the name %q", key, o.Name)
		}
		switch o.Type {
		case "boolean", "number", "string":
		default:
			return nil, fmt.Errorf("nvim_get_all_options_info(): '%s' has the type %q", key, o.Type)
		}
		s := global
		switch {
		case o.Scope == "global":
		case o.Scope == "buf" && o.GlobalLocal:
			s = globalBuffer
		case o.Scope == "buf":
			s = buffer
		case o.Scope == "win" && o.GlobalLocal:
			s = globalWindow
		case o.Scope == "win":
			s = window
		default:
			return nil, fmt.Errorf("nvim_get_all_options_info(): '%s' has the scope %q", key, o.Scope)
		}
		out = append(out, nvimOpt{Name: o.Name, Short: o.Shortname, Type: o.Type, Scope: s})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}
