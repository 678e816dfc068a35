// Command stdfn calls generated wrappers of the std packages, directly
// and in a batch, for the end-to-end tests of std/fn, std/vimfn,
// std/nvimfn and std/nvimapi.
package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/vigorvim/vigor"
	"github.com/vigorvim/vigor/std/fn"
	"github.com/vigorvim/vigor/std/nvimapi"
	"github.com/vigorvim/vigor/std/nvimfn"
	"github.com/vigorvim/vigor/std/vimfn"
)

// sample is one result of each type, with optional arguments omitted and
// given, and the file the Blob is read from.
type sample struct {
	Number, NumberOpt   int
	Float, Float2       float64
	String              string
	List, ListOpt       []string
	Dict                map[string]any
	Bool, BoolFalse     bool
	Blob, BlobOpt       []byte
	Any                 any
	Variadic, NoVarargs string
	Checked             string // a wrapper only Vim's compiler shows
}

func (s sample) result() map[string]any {
	return map[string]any{
		"number": s.Number, "number_opt": s.NumberOpt, "float": s.Float, "float2": s.Float2,
		"string": s.String, "list": s.List, "list_opt": s.ListOpt, "dict_words": s.Dict["words"],
		"bool": s.Bool, "bool_false": s.BoolFalse, "blob": string(s.Blob), "blob_opt": string(s.BlobOpt),
		"any": s.Any, "variadic": s.Variadic, "no_varargs": s.NoVarargs, "checked": s.Checked,
	}
}

// setUp puts two lines in the buffer and "ab\n" in dir/blob.
func setUp(ctx context.Context, p *vigor.Plugin, dir string) (string, error) {
	file := filepath.Join(dir, "blob")
	if _, err := fn.Setline(ctx, p, 1, []string{"one two", "three"}); err != nil {
		return "", err
	}
	_, err := fn.Writefile(ctx, p, []string{"ab"}, file)
	return file, err
}

// direct calls the wrappers one by one.
func direct(ctx context.Context, p *vigor.Plugin, dir string) (map[string]any, error) {
	file, err := setUp(ctx, p, dir)
	if err != nil {
		return nil, err
	}
	var s sample
	var errs []error
	add := func(err error) { errs = append(errs, err) }
	s.Number, err = fn.Strchars(ctx, p, "e\u0301x")
	add(err)
	s.NumberOpt, err = fn.StrcharsSkipcc(ctx, p, "e\u0301x", true)
	add(err)
	s.Float, err = fn.Str2float(ctx, p, "1.5")
	add(err)
	s.Float2, err = fn.Abs(ctx, p, -2.5)
	add(err)
	s.String, err = fn.Getline(ctx, p, 1)
	add(err)
	s.List, err = fn.Split(ctx, p, "a b  c")
	add(err)
	s.ListOpt, err = fn.GetlineEnd(ctx, p, 1, "$")
	add(err)
	s.Dict, err = fn.Wordcount(ctx, p)
	add(err)
	s.Bool, err = fn.Has(ctx, p, "eval")
	add(err)
	s.BoolFalse, err = fn.Bufexists(ctx, p, 99999)
	add(err)
	s.Blob, err = fn.Readblob(ctx, p, file)
	add(err)
	s.BlobOpt, err = fn.ReadblobOffset(ctx, p, file, 1)
	add(err)
	s.Any, err = fn.Eval(ctx, p, "[1, 'a']")
	add(err)
	s.Variadic, err = fn.Printf(ctx, p, "%s-%d", "a", 1)
	add(err)
	s.NoVarargs, err = fn.Printf(ctx, p, "x")
	add(err)
	s.Checked, err = fn.ExecuteSilent(ctx, p, "echo 'hi'", "silent")
	add(err)
	add(fn.Winrestview(ctx, p, map[string]any{"lnum": 2}))
	return s.result(), errors.Join(errs...)
}

// batched makes the same calls in one batch, each result through Into
// (a Boolean result, the Number 0 or 1 of most functions, into a bool).
func batched(ctx context.Context, p *vigor.Plugin, dir string) (map[string]any, error) {
	file, err := setUp(ctx, p, dir)
	if err != nil {
		return nil, err
	}
	var s sample
	err = p.Batch(ctx, func(b *vigor.Batch) error {
		var errs []error
		add := func(_ any, err error) { errs = append(errs, err) }
		add(fn.Strchars(ctx, b.Into(&s.Number), "e\u0301x"))
		add(fn.StrcharsSkipcc(ctx, b.Into(&s.NumberOpt), "e\u0301x", true))
		add(fn.Str2float(ctx, b.Into(&s.Float), "1.5"))
		add(fn.Abs(ctx, b.Into(&s.Float2), -2.5))
		add(fn.Getline(ctx, b.Into(&s.String), 1))
		add(fn.Split(ctx, b.Into(&s.List), "a b  c"))
		add(fn.GetlineEnd(ctx, b.Into(&s.ListOpt), 1, "$"))
		add(fn.Wordcount(ctx, b.Into(&s.Dict)))
		add(fn.Has(ctx, b.Into(&s.Bool), "eval"))
		add(fn.Bufexists(ctx, b.Into(&s.BoolFalse), 99999))
		add(fn.Readblob(ctx, b.Into(&s.Blob), file))
		add(fn.ReadblobOffset(ctx, b.Into(&s.BlobOpt), file, 1))
		add(fn.Eval(ctx, b.Into(&s.Any), "[1, 'a']"))
		add(fn.Printf(ctx, b.Into(&s.Variadic), "%s-%d", "a", 1))
		add(fn.Printf(ctx, b.Into(&s.NoVarargs), "x"))
		add(fn.ExecuteSilent(ctx, b.Into(&s.Checked), "echo 'hi'", "silent"))
		// A zero value, not the result, comes back inside the batch.
		if n, err := fn.Strlen(ctx, b, "abc"); n != 0 || err != nil {
			errs = append(errs, errors.New("Strlen in a batch returned a result"))
		}
		errs = append(errs, fn.Winrestview(ctx, b, map[string]any{"lnum": 2}))
		return errors.Join(errs...)
	})
	return s.result(), err
}

// avail calls a Vim-only, a Neovim-only and an API wrapper, and reports
// each one's result or error.
func avail(ctx context.Context, p *vigor.Plugin) map[string]any {
	out := map[string]any{}
	put := func(k string, v any, err error) {
		if err != nil {
			out[k] = err.Error()
		} else {
			out[k] = v
		}
	}
	v, err := vimfn.JsEncode(ctx, p, []any{1, "a"})
	put("vim", v, err)
	n, err := nvimfn.Strutf16len(ctx, p, "a\U0001F600")
	put("nvim", n, err)
	b, err := nvimapi.GetCurrentBuf(ctx, p)
	put("api", int(b), err)
	// In a batch the check is the same, and the batch then sends nothing.
	err = p.Batch(ctx, func(b *vigor.Batch) error {
		_, err := nvimapi.GetCurrentBuf(ctx, b)
		if err != nil {
			return err
		}
		_, err = vimfn.JsEncode(ctx, b, 1)
		return err
	})
	put("batch", "", err)
	// A record func that ignores the wrappers' errors, as the README's
	// example does: the missing function still fails the batch, and the
	// calls before it are not sent.
	var last int
	err = p.Batch(ctx, func(b *vigor.Batch) error {
		_, _ = fn.Execute(ctx, b, "let g:sent = 1")
		_, _ = fn.Line(ctx, b.Into(&last), "$")
		_, _ = nvimapi.GetCurrentBuf(ctx, b)
		_, _ = vimfn.JsEncode(ctx, b, 1)
		return nil
	})
	put("ignored", last, err)
	return out
}

// api makes a few nvim_* calls: lines set and read back, a count, a Dict.
func api(ctx context.Context, p *vigor.Plugin) (map[string]any, error) {
	if err := nvimapi.BufSetLines(ctx, p, 0, 0, -1, false, []string{"x", "y", "z"}); err != nil {
		return nil, err
	}
	lines, err := nvimapi.BufGetLines(ctx, p, 0, 1, -1, true)
	if err != nil {
		return nil, err
	}
	count, err := nvimapi.BufLineCount(ctx, p, 0)
	if err != nil {
		return nil, err
	}
	mode, err := nvimapi.GetMode(ctx, p)
	if err != nil {
		return nil, err
	}
	var inBatch []string
	err = p.Batch(ctx, func(b *vigor.Batch) error {
		if err := nvimapi.BufSetLines(ctx, b, 0, 0, 1, false, []string{"w"}); err != nil {
			return err
		}
		_, err := nvimapi.BufGetLines(ctx, b.Into(&inBatch), 0, 0, -1, true)
		return err
	})
	return map[string]any{"lines": lines, "count": count, "mode": mode["mode"], "batch": inBatch}, err
}

// failing runs a batch whose second call fails, and reports the
// *BatchError and the result of the call before it.
func failing(ctx context.Context, p *vigor.Plugin) (map[string]any, error) {
	var n, after int
	err := p.Batch(ctx, func(b *vigor.Batch) error {
		if _, err := fn.Strlen(ctx, b.Into(&n), "abc"); err != nil {
			return err
		}
		if _, err := fn.Eval(ctx, b, "1 +"); err != nil {
			return err
		}
		_, err := fn.Strlen(ctx, b.Into(&after), "de")
		return err
	})
	var be *vigor.BatchError
	if !errors.As(err, &be) {
		return nil, fmt.Errorf("not a BatchError: %v", err)
	}
	return map[string]any{"index": be.Index, "fn": be.Fn, "results": be.Results, "n": n, "after": after}, nil
}

// typed holds the results whose types the generator's fixes correct.
type typed struct {
	Char2nr, AppendFailed, Appended, Filewritable int
	Glob                                          string
	Globpath                                      any
	Lines                                         []string
	Last                                          string
	Abs                                           int
	AbsFloat                                      float64
	Match, Matchpos                               int
	Charsearch                                    map[string]any
	Setline, Setqflist                            int
	Qflist                                        []any
	Unplaced                                      []int
	Chansend                                      int
	Unset, Home                                   *string
	ReadBlob                                      any
}

// recorder makes the calls of typedCalls directly (b nil) or in b: in a
// batch the result comes through Into, directly through the return.
type recorder struct {
	p    *vigor.Plugin
	b    *vigor.Batch
	errs []error
}

// to is the Caller of a call whose result goes to ptr.
func (r *recorder) to(ptr any) vigor.Caller {
	if r.b != nil {
		return r.b.Into(ptr)
	}
	return r.p
}

// caller is the Caller of a call whose result is not kept.
func (r *recorder) caller() vigor.Caller {
	if r.b != nil {
		return r.b
	}
	return r.p
}

// got keeps a direct call's result in dst, and its error.
func got[T any](r *recorder, dst *T) func(T, error) {
	return func(v T, err error) {
		if r.b == nil {
			*dst = v
		}
		r.errs = append(r.errs, err)
	}
}

// typedCalls calls the wrappers whose types the generator corrects, one
// body for a direct run and a batch.
func typedCalls(ctx context.Context, r *recorder, s *typed, dir string, job int) {
	got(r, &s.Char2nr)(fn.Char2nr(ctx, r.to(&s.Char2nr), "\u00e9"))
	got(r, &s.AppendFailed)(fn.Append(ctx, r.to(&s.AppendFailed), 99999, "x"))
	got(r, &s.Appended)(fn.Appendbufline(ctx, r.to(&s.Appended), "%", "$", []string{"four", "five"}))
	got(r, &s.Filewritable)(fn.Filewritable(ctx, r.to(&s.Filewritable), dir))
	got(r, &s.Glob)(fn.Glob(ctx, r.to(&s.Glob), filepath.Join(dir, "*")))
	got(r, &s.Globpath)(fn.GlobpathList(ctx, r.to(&s.Globpath), dir, "*", false, true))
	got(r, &s.Lines)(fn.GetbuflineEnd(ctx, r.to(&s.Lines), "%", 2, "$"))
	got(r, &s.Last)(fn.Getbufoneline(ctx, r.to(&s.Last), "%", "$"))
	got(r, &s.Abs)(fn.Abs(ctx, r.to(&s.Abs), -9007199254740993))
	got(r, &s.AbsFloat)(fn.Abs(ctx, r.to(&s.AbsFloat), -2.5))
	got(r, &s.Match)(fn.MatchaddDict(ctx, r.to(&s.Match), "Search", "two", 10, 71, map[string]any{"conceal": "x"}))
	got(r, &s.Matchpos)(fn.MatchaddposDict(ctx, r.to(&s.Matchpos), "Search", []any{1}, 10, 72, map[string]any{"conceal": "y"}))
	r.errs = append(r.errs, fn.Setcharsearch(ctx, r.caller(), map[string]any{"char": "t", "forward": 1, "until": 0}))
	got(r, &s.Charsearch)(fn.Getcharsearch(ctx, r.to(&s.Charsearch)))
	// nil slices are empty Lists: setline() of none is 0 (nothing set).
	got(r, &s.Setline)(fn.Setline(ctx, r.to(&s.Setline), 1, []string(nil)))
	got(r, &s.Setqflist)(fn.Setqflist(ctx, r.to(&s.Setqflist), nil))
	got(r, &s.Qflist)(fn.Getqflist(ctx, r.to(&s.Qflist)))
	got(r, &s.Unplaced)(fn.SignUnplacelist(ctx, r.to(&s.Unplaced), nil))
	got(r, &s.ReadBlob)(fn.ReadfileTypeArg(ctx, r.to(&s.ReadBlob), filepath.Join(dir, "blob"), "B"))
	got(r, &s.Unset)(fn.Getenv(ctx, r.to(&s.Unset), "VIGOR_STD_UNSET"))
	got(r, &s.Home)(fn.Getenv(ctx, r.to(&s.Home), "HOME"))
	if r.p.Meta().Host == "nvim" {
		got(r, &s.Chansend)(nvimfn.Chansend(ctx, r.to(&s.Chansend), job, "abc"))
	}
}

// types runs typedCalls directly or in a batch, on a buffer of the two
// lines of setUp and, on Neovim, with a job to send to.
func types(ctx context.Context, p *vigor.Plugin, how, dir string) (map[string]any, error) {
	if _, err := fn.Execute(ctx, p, "silent %delete _"); err != nil {
		return nil, err
	}
	if _, err := setUp(ctx, p, dir); err != nil {
		return nil, err
	}
	job := 0
	if p.Meta().Host == "nvim" {
		var err error
		if job, err = nvimfn.Jobstart(ctx, p, []string{"cat"}); err != nil {
			return nil, err
		}
		defer nvimfn.Jobstop(ctx, p, job)
	}
	defer fn.Clearmatches(ctx, p)
	r := &recorder{p: p}
	var s typed
	var err error
	if how == "batch" {
		err = p.Batch(ctx, func(b *vigor.Batch) error {
			r.b = b
			typedCalls(ctx, r, &s, dir, job)
			return errors.Join(r.errs...)
		})
	} else {
		typedCalls(ctx, r, &s, dir, job)
		err = errors.Join(r.errs...)
	}
	return map[string]any{
		"char2nr": s.Char2nr, "append_failed": s.AppendFailed, "appended": s.Appended,
		"filewritable": s.Filewritable, "glob": s.Glob, "globpath": s.Globpath,
		"lines": s.Lines, "last": s.Last, "abs": s.Abs, "abs_float": s.AbsFloat,
		"match": s.Match, "matchpos": s.Matchpos, "charsearch": s.Charsearch["char"],
		"setline": s.Setline, "setqflist": s.Setqflist, "qflist": s.Qflist,
		"unplaced": s.Unplaced, "chansend": s.Chansend, "unset": s.Unset, "home": s.Home,
		"readfile_blob": blobLen(s.ReadBlob),
	}, err
}

// blobLen is the length of a Blob decoded into an any: a String on
// Neovim, a List of Numbers on Vim (doc.go); -1 for anything else.
func blobLen(v any) int {
	switch x := v.(type) {
	case string:
		return len(x)
	case []any:
		return len(x)
	}
	return -1
}

func main() {
	vigor.Main(func(ctx context.Context, p *vigor.Plugin) error {
		p.Handle("direct", func(ctx context.Context, dir string) (map[string]any, error) { return direct(ctx, p, dir) })
		p.Handle("batch", func(ctx context.Context, dir string) (map[string]any, error) { return batched(ctx, p, dir) })
		p.Handle("avail", func(ctx context.Context) map[string]any { return avail(ctx, p) })
		p.Handle("api", func(ctx context.Context) (map[string]any, error) { return api(ctx, p) })
		p.Handle("types", func(ctx context.Context, how, dir string) (map[string]any, error) { return types(ctx, p, how, dir) })
		p.Handle("failing", func(ctx context.Context) (map[string]any, error) { return failing(ctx, p) })
		return nil
	})
}
