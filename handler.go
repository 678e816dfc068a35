package vigor

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/vigorvim/vigor/internal/host"
)

var (
	ctxType   = reflect.TypeOf((*context.Context)(nil)).Elem()
	errorType = reflect.TypeOf((*error)(nil)).Elem()
)

// handler is one registered method, with its signature checked once at
// registration.
type handler struct {
	method  string
	fn      reflect.Value
	hasCtx  bool
	params  []reflect.Type // excluding ctx; the last is a slice if variadic
	varargs bool
	hasRes  bool
	hasErr  bool
}

func newHandler(method string, fn any) (*handler, error) {
	if method == "" {
		return nil, errors.New("the method name is empty")
	}
	if strings.HasPrefix(method, "$") {
		return nil, fmt.Errorf("method names that start with $ are reserved for Vigor")
	}
	return funcHandler(method, fn)
}

// funcHandler is newHandler without the check of the method's name, for
// the names that Vigor gives (HandleLambda).
func funcHandler(method string, fn any) (*handler, error) {
	v := reflect.ValueOf(fn)
	if v.Kind() != reflect.Func {
		return nil, fmt.Errorf("the handler is a %T, not a func", fn)
	}
	if v.IsNil() {
		return nil, fmt.Errorf("the handler is a nil %T", fn)
	}
	t := v.Type()
	h := &handler{method: method, fn: v, varargs: t.IsVariadic()}
	for i := 0; i < t.NumIn(); i++ {
		in := t.In(i)
		if i == 0 && in == ctxType {
			h.hasCtx = true
			continue
		}
		if in == ctxType {
			return nil, fmt.Errorf("context.Context must be the first parameter")
		}
		h.params = append(h.params, in)
	}
	switch t.NumOut() {
	case 0:
	case 1:
		if t.Out(0) == errorType {
			h.hasErr = true
		} else {
			h.hasRes = true
		}
	case 2:
		if t.Out(1) != errorType {
			return nil, fmt.Errorf("the second result must be error, not %s", t.Out(1))
		}
		h.hasRes, h.hasErr = true, true
	default:
		return nil, fmt.Errorf("a handler returns at most (result, error), not %d values", t.NumOut())
	}
	return h, nil
}

// signature describes the parameters for error messages, in Vim's words,
// such as "(a String, a Number)" or "(a String, then any number of
// Numbers)".
func (h *handler) signature() string {
	var b strings.Builder
	b.WriteByte('(')
	for i, p := range h.params {
		if h.varargs && i == len(h.params)-1 {
			if i > 0 {
				b.WriteString(", then ")
			}
			b.WriteString("any number of " + plural(expected(p.Elem())))
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(expected(p))
	}
	b.WriteByte(')')
	return b.String()
}

// call decodes params into the handler's types and runs it. An argument
// that does not fit is a *decodeError.
func (h *handler) call(ctx context.Context, dec *decoder, params host.Values) (any, error) {
	n := params.Len()
	fixed := len(h.params)
	if h.varargs {
		fixed--
	}
	if n < fixed || (!h.varargs && n > fixed) {
		if fixed == 0 && !h.varargs {
			return nil, fmt.Errorf("takes no arguments, got %d", n)
		}
		want := fmt.Sprintf("%d", fixed)
		if h.varargs {
			want = fmt.Sprintf("at least %d", fixed)
		}
		return nil, fmt.Errorf("takes %s argument%s %s, got %d", want, pluralS(fixed), h.signature(), n)
	}
	args := make([]reflect.Value, 0, n+1)
	if h.hasCtx {
		args = append(args, reflect.ValueOf(ctx))
	}
	for i := range n {
		p := reflect.New(h.paramType(i)).Elem()
		if err := dec.decode(params.At(i), p); err != nil {
			return nil, argError(i, err)
		}
		args = append(args, p)
	}
	out := h.fn.Call(args)
	var res any
	var err error
	if h.hasRes {
		res = out[0].Interface()
	}
	if h.hasErr {
		if e := out[len(out)-1]; !e.IsNil() {
			err = e.Interface().(error)
		}
	}
	return res, err
}

func (h *handler) paramType(i int) reflect.Type {
	if h.varargs && i >= len(h.params)-1 {
		return h.params[len(h.params)-1].Elem()
	}
	return h.params[i]
}

func pluralS(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// plural turns what expected returns into its plural: "a Number" ->
// "Numbers", "a Blob or a String" -> "Blobs or Strings".
func plural(words string) string {
	if words == "any value" {
		return "values"
	}
	parts := strings.Split(words, " or ")
	for i, p := range parts {
		p = strings.TrimPrefix(p, "a ")
		first, rest, _ := strings.Cut(p, " ")
		parts[i] = first + "s"
		if rest != "" {
			parts[i] += " " + rest
		}
	}
	return strings.Join(parts, " or ")
}
