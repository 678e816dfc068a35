// Command finder is an example Vigor plugin: a finder of lines in the
// listed buffers. :Find [query] shows the lines that hold the query in a
// popup and filters them in Go as the user types it; <C-n>, <Down> and
// <Tab> select the next match, <C-p>, <Up> and <S-Tab> the one before
// (wrapping around at either end), <CR> jumps to the selected match
// (highlighted and marked "> "), <Esc> closes the popup. lazy.json
// declares :Find, so the plugin starts when :Find is first used.
//
// The flow: :Find reads the listed buffers' lines in one batch, opens the
// popup and asks for the query with input(); while the user types, a
// CmdlineChanged autocmd sends the command line to the filter, a Go
// closure registered with std/lambda for this :Find, which filters (see
// Filter for the ranking) and sets the popup's lines. The keys that move
// the selection are command-line mappings to another closure, made for
// this :Find over the user's own mappings of them (see keyMaps). When
// input() returns, the autocmd, the mappings and the closures go (the
// user's mappings come back), the cursor goes to the match and the popup
// closes; on an error or <Esc> as well, without the jump.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/vigorvim/vigor"
	"github.com/vigorvim/vigor/std/autocmd"
	"github.com/vigorvim/vigor/std/buffer"
	"github.com/vigorvim/vigor/std/command"
	"github.com/vigorvim/vigor/std/fn"
	"github.com/vigorvim/vigor/std/helper"
	"github.com/vigorvim/vigor/std/lambda"
	"github.com/vigorvim/vigor/std/mapping"
	"github.com/vigorvim/vigor/std/popup"
)

// shown is how many matches the popup shows.
const shown = 10

// group is the autocmd group of the filter while a :Find runs, and the
// namespace of the selection's highlight in the popup's buffer.
const group = "finder"

func main() {
	vigor.Main(func(ctx context.Context, p *vigor.Plugin) error {
		f := &finder{p: p}
		p.Handle("find", f.find)
		return command.Define(ctx, p, "Find", command.Options{Nargs: "?"}, func(ctx context.Context, a command.Args) error {
			return f.find(ctx, a.Args)
		})
	})
}

// finder runs one :Find at a time.
type finder struct {
	p *vigor.Plugin
	// running is set from the start of a :Find to its end, by find alone.
	running atomic.Bool
}

// find runs :Find: it asks for the query, starting from query, and jumps
// to the selected match of the answer.
func (f *finder) find(ctx context.Context, query string) (err error) {
	if !f.running.CompareAndSwap(false, true) {
		return errors.New("a :Find is running")
	}
	defer f.running.Store(false)
	p := f.p
	bg := context.WithoutCancel(ctx) // for the cleanups, which run whatever ctx says

	lines, err := readListed(ctx, p)
	if err != nil {
		return err
	}
	lst := &list{sel: Selection{Shown: shown}}
	lst.sel.Set(query, Filter(lines, query, 0))
	first, _, title := lst.sel.View()
	id, err := popup.Open(ctx, p, popup.Options{
		Position: popup.Position{Row: 1, Col: 2},
		Size:     popup.Size{MinWidth: 40, MaxWidth: 80},
		Border:   popup.Rounded,
		Title:    title,
		Lines:    first,
	})
	if err != nil {
		return err
	}
	defer popup.Close(bg, p, id)

	// The filter: the matches of the command line in the popup, as the
	// user types; and the keys that move the selection.
	filter := lambda.Register(p, func(ctx context.Context, query string) error {
		return lst.update(ctx, p, id, func(s *Selection) { s.Set(query, Filter(lines, query, 0)) })
	})
	defer filter.Unregister()
	move := lambda.Register(p, func(ctx context.Context, step int) error {
		return lst.update(ctx, p, id, func(s *Selection) { s.Move(step) })
	})
	defer move.Unregister()
	keys := newKeyMaps()
	// cleanup removes the autocmd and the mappings, once: before the jump
	// (which may change the current buffer, that of a buffer's mapping),
	// or on the way out when something fails first.
	cleaned := false
	cleanup := func() error {
		if cleaned {
			return nil
		}
		cleaned = true
		return p.Batch(bg, func(b *vigor.Batch) error {
			if err := autocmd.Remove(bg, b, autocmd.Filter{Group: group}); err != nil {
				return err
			}
			return keys.restore(bg, b)
		})
	}
	defer func() {
		if cerr := cleanup(); err == nil {
			err = cerr
		}
	}()
	if err := lst.start(ctx, p, id, filter, move, keys); err != nil {
		return err
	}
	if err := p.Redraw(ctx, false); err != nil { // the popup, before input() takes the screen
		return err
	}
	answer, ok, err := helper.Input(ctx, p, helper.InputOptions{Prompt: "Find: ", Default: query})
	if cerr := cleanup(); err == nil {
		err = cerr
	}
	if err != nil || !ok {
		return err
	}
	m, ok := lst.selected(answer, lines)
	if !ok {
		return helper.Echo(ctx, p, fmt.Sprintf("finder: no line holds %q", answer))
	}
	return jump(ctx, p, m)
}

// list is the Selection of a :Find, shared by the closures that the
// editor calls while the user types the query and by find when input()
// returns.
type list struct {
	// mu guards buf and sel, and is held across the change of the popup
	// that shows sel, so that the popup shows the changes in their order.
	mu  sync.Mutex
	buf int // the popup's buffer, set by start
	sel Selection
}

// start sets up the rest of a :Find in two round trips: it reads the
// popup's buffer, defines the autocmd that calls filter and reads the
// user's mappings of the keys, then maps the keys to move and shows the
// selection, highlighted.
func (l *list) start(ctx context.Context, p *vigor.Plugin, id popup.ID, filter, move *lambda.Lambda, keys *keyMaps) error {
	l.mu.Lock() // for l.buf, which the closures read
	defer l.mu.Unlock()
	err := p.Batch(ctx, func(b *vigor.Batch) error {
		if _, err := popup.Buffer(ctx, b.Into(&l.buf), id); err != nil {
			return err
		}
		err := autocmd.Group(ctx, b, group, func(g *autocmd.GroupDefs) error {
			return g.Define(autocmd.Def{
				Events:   []string{"CmdlineChanged"},
				Patterns: []string{"@"}, // input()'s command line
				Cmd:      "call " + filter.Request("getcmdline()"),
			})
		})
		if err != nil {
			return err
		}
		return keys.read(ctx, b)
	})
	if err != nil {
		return err
	}
	return p.Batch(ctx, func(b *vigor.Batch) error {
		if err := keys.mapTo(ctx, b, move); err != nil {
			return err
		}
		return l.show(ctx, b, id) // the highlight, which needs the popup's buffer
	})
}

// update changes the selection by fn and shows it in the popup id, in
// one round trip.
func (l *list) update(ctx context.Context, p *vigor.Plugin, id popup.ID, fn func(*Selection)) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	fn(&l.sel)
	return p.Batch(ctx, func(b *vigor.Batch) error { return l.show(ctx, b, id) })
}

// show adds to b the calls that show the selection in the popup id: its
// lines, the selected one highlighted (PmenuSel) and marked "> ", and the
// count in the title (whose change also redraws the screen, which shows
// the highlight). Its caller holds mu, or is alone with l.
func (l *list) show(ctx context.Context, b *vigor.Batch, id popup.ID) error {
	lines, sel, title := l.sel.View()
	if err := popup.SetLines(ctx, b, id, lines); err != nil {
		return err
	}
	if err := buffer.Clear(ctx, b, l.buf, group); err != nil {
		return err
	}
	if sel > 0 {
		d := buffer.Decoration{Line: sel, Col: 1, Length: len(lines[sel-1]), Highlight: "PmenuSel"}
		if err := buffer.Decorate(ctx, b, l.buf, group, []buffer.Decoration{d}); err != nil {
			return err
		}
	}
	return popup.SetTitle(ctx, b, id, title)
}

// selected returns the match that <CR> on answer jumps to: the selected
// one when the popup shows answer's matches (it does unless the last
// change of the command line reached no filter), else answer's first.
func (l *list) selected(answer string, lines []Line) (Match, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.sel.Query != answer {
		l.sel.Set(answer, Filter(lines, answer, 1))
	}
	return l.sel.Selected()
}

// A moveKey is a command-line key that moves the selection by step.
type moveKey struct {
	lhs  string
	step int
}

// moveKeys are the keys that move the selection while :Find asks for the
// query.
func moveKeys() []moveKey {
	return []moveKey{
		{"<C-N>", 1}, {"<Down>", 1}, {"<Tab>", 1},
		{"<C-P>", -1}, {"<Up>", -1}, {"<S-Tab>", -1},
	}
}

// keyMaps are the command-line mappings of the moveKeys for one :Find,
// and the user's mappings of those keys that they stand in for. A key
// that the user has mapped in the current buffer is mapped there (a
// buffer's mapping comes before a global one), else globally. A key whose
// mapping runs a Lua callback on Neovim (no right-hand side to map back)
// is left to it. A user's mapping comes back as mapping.Read gives it,
// its right-hand side and flags, defined by the plugin: a script's own
// names in it (s:, <script>) would not be that script's any more, which
// mapset() alone could keep.
//
// Each method adds calls to a batch: read, then (once read's batch has
// run) mapTo, and restore at the end, also when a batch before failed.
type keyMaps struct {
	keys   []moveKey
	saved  []mapping.Mapping // the user's mappings of keys, once read's batch has run
	mapped []int             // the indexes in keys of the keys that mapTo maps
}

func newKeyMaps() *keyMaps {
	keys := moveKeys()
	return &keyMaps{keys: keys, saved: make([]mapping.Mapping, len(keys))}
}

// read reads the user's mappings of the keys.
func (k *keyMaps) read(ctx context.Context, b *vigor.Batch) error {
	for i, key := range k.keys {
		if _, err := mapping.Read(ctx, b.Into(&k.saved[i]), mapping.Cmdline, key.lhs); err != nil {
			return err
		}
	}
	return nil
}

// mapTo maps the keys to move, which takes the step.
func (k *keyMaps) mapTo(ctx context.Context, b *vigor.Batch, move *lambda.Lambda) error {
	for i, key := range k.keys {
		u := k.saved[i]
		if u.Lhs != "" && u.Rhs == "" {
			continue
		}
		k.mapped = append(k.mapped, i)
		rhs := "<Cmd>call " + move.Request(strconv.Itoa(key.step)) + "<CR>"
		if err := mapping.Map(ctx, b, mapping.Cmdline, key.lhs, rhs, mapping.Options{Buffer: u.Buffer}); err != nil {
			return err
		}
	}
	return nil
}

// restore unmaps the keys that mapTo maps and maps back the user's.
func (k *keyMaps) restore(ctx context.Context, b *vigor.Batch) error {
	for _, i := range k.mapped {
		u, lhs := k.saved[i], k.keys[i].lhs
		if err := mapping.Unmap(ctx, b, mapping.Cmdline, lhs, mapping.Options{Buffer: u.Buffer}); err != nil {
			return err
		}
		if u.Lhs == "" {
			continue
		}
		opts := mapping.Options{Buffer: u.Buffer, Silent: u.Silent, Nowait: u.Nowait, Expr: u.Expr, Script: u.Script, Remap: !u.Noremap}
		if err := mapping.Map(ctx, b, mapping.Cmdline, lhs, u.Rhs, opts); err != nil {
			return err
		}
	}
	return nil
}

// readListed returns the lines of the listed buffers that have a name:
// those of a loaded buffer from the editor, in one round trip after the
// one that lists them, and those of a buffer that is not loaded (Vim
// unloads a buffer that it abandons, unless 'hidden' is set) from its
// file, decoded as the editor would read it. A file that cannot be read
// has no lines.
func readListed(ctx context.Context, p *vigor.Plugin) ([]Line, error) {
	infos, err := fn.GetbufinfoBuf(ctx, p, map[string]any{"buflisted": 1})
	if err != nil {
		return nil, err
	}
	type buf struct {
		nr     int
		name   string
		loaded bool
		lines  []string
	}
	var bufs []*buf
	for _, info := range infos {
		name, _ := info["name"].(string)
		if nr := toInt(info["bufnr"]); name != "" && nr > 0 {
			bufs = append(bufs, &buf{nr: nr, name: name, loaded: toInt(info["loaded"]) != 0})
		}
	}
	err = p.Batch(ctx, func(b *vigor.Batch) error {
		for _, bf := range bufs {
			if !bf.loaded {
				continue
			}
			if _, err := fn.GetbuflineEnd(ctx, b.Into(&bf.lines), bf.nr, 1, "$"); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	var lines []Line
	for _, bf := range bufs {
		if !bf.loaded {
			data, err := os.ReadFile(bf.name)
			if err != nil {
				continue
			}
			d, err := buffer.Decode(ctx, p, data, buffer.DecodeOptions{})
			if err != nil {
				return nil, err
			}
			bf.lines = d.Lines
		}
		for i, text := range bf.lines {
			lines = append(lines, Line{Buf: bf.nr, Name: bf.name, Lnum: i + 1, Text: text})
		}
	}
	return lines, nil
}

// jump puts the cursor on m: in the window that shows its buffer, else in
// the current window.
func jump(ctx context.Context, p *vigor.Plugin, m Match) error {
	win, err := fn.Bufwinid(ctx, p, m.Buf)
	if err != nil {
		return err
	}
	if win > 0 {
		_, err = fn.WinGotoid(ctx, p, win)
	} else {
		_, err = buffer.Open(ctx, p, m.Name, buffer.OpenOptions{})
	}
	if err != nil {
		return err
	}
	_, err = fn.CursorCol(ctx, p, m.Lnum, m.Col+1)
	return err
}

// toInt returns the Number v as an int, 0 if it is none.
func toInt(v any) int {
	switch n := v.(type) {
	case int:
		return n
	case int64:
		return int(n)
	case uint64:
		return int(n)
	case float64:
		return int(n)
	}
	return 0
}
