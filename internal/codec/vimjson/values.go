package vimjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/vigorvim/vigor/internal/wire"
)

// AppendValue appends the JSON form of v to b. Common types take a fast path;
// anything else goes by reflection (structs by their json tags). A value
// that Vim cannot take is a *wire.ValueError: a Number out of range (a
// uint64 above math.MaxInt64), Lists and Dicts nested more than
// MaxSendDepth deep, a map whose keys are not strings, or a type with no
// JSON form (chan, func, complex). Strings that are not valid UTF-8 are
// sent with each invalid byte replaced by U+FFFD (appendString). A nil
// slice is an empty List, so that a function that takes a List gets one,
// but for a []byte and inside a Dict or a struct, where it is null as
// Neovim gets it (msgpack's encoder writes those); a nil map or pointer is
// null.
func AppendValue(b []byte, v any) ([]byte, error) { return appendValue(b, v, 0) }

// AppendString appends s as a JSON string, as AppendValue does, without
// making it an any (which allocates).
func AppendString(b []byte, s string) []byte { return appendString(b, s) }

// AppendArgs appends args as a List whose items count as values of their
// own for MaxSendDepth, as a message's params do: the arguments of a call
// in a batch. A *wire.ValueError's Path starts at the index of the
// argument.
func AppendArgs(b []byte, args []any) ([]byte, error) { return appendList(b, args, -1) }

// appendValue is AppendValue for a value inside depth Lists and Dicts.
func appendValue(b []byte, v any, depth int) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case string:
		return appendString(b, x), nil
	case bool:
		if x {
			return append(b, "true"...), nil
		}
		return append(b, "false"...), nil
	case int:
		return appendInt(b, int64(x)), nil
	case int64:
		return appendInt(b, x), nil
	case int32:
		return appendInt(b, int64(x)), nil
	case int16:
		return appendInt(b, int64(x)), nil
	case int8:
		return appendInt(b, int64(x)), nil
	case uint:
		return appendUint(b, uint64(x))
	case uint64:
		return appendUint(b, x)
	case uint32:
		return strconv.AppendUint(b, uint64(x), 10), nil
	case uint16:
		return strconv.AppendUint(b, uint64(x), 10), nil
	case uint8:
		return strconv.AppendUint(b, uint64(x), 10), nil
	case float64:
		return appendFloat(b, x), nil
	case float32:
		return appendFloat(b, float64(x)), nil
	case []byte:
		if x == nil {
			return append(b, "null"...), nil
		}
		if depth >= MaxSendDepth {
			return b, tooDeep()
		}
		return appendBytes(b, x), nil
	case []any: // nil is an empty List, as every nil slice but a []byte
		return appendList(b, x, depth)
	case []string:
		if depth >= MaxSendDepth {
			return b, tooDeep()
		}
		b = append(b, '[')
		for i, s := range x {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, s)
		}
		return append(b, ']'), nil
	case []int:
		if depth >= MaxSendDepth {
			return b, tooDeep()
		}
		b = append(b, '[')
		for i, n := range x {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendInt(b, int64(n))
		}
		return append(b, ']'), nil
	case map[string]any:
		if x == nil {
			return append(b, "null"...), nil
		}
		if depth >= MaxSendDepth {
			return b, tooDeep()
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, k)
			b = append(b, ':')
			var err error
			if b, err = appendMember(b, x[k], depth+1); err != nil {
				return b, err
			}
		}
		return append(b, '}'), nil
	case wire.Raw:
		return append(b, x...), nil
	case wire.Appender:
		return x(b)
	case json.RawMessage:
		return appendValidUTF8(b, x), nil
	}
	if m, ok := v.(json.Marshaler); ok {
		out, err := m.MarshalJSON()
		if err != nil {
			return b, &wire.ValueError{Msg: fmt.Sprintf("a %T cannot be sent to the editor: its MarshalJSON failed: %v", v, err), Detail: err}
		}
		return appendValidUTF8(b, out), nil
	}
	return appendReflect(b, v, depth)
}

// appendUint writes a Go unsigned integer as a Number, which holds at most
// math.MaxInt64 on both editors: a larger one would reach Vim as
// v:numbermax, and Neovim as a negative Number.
func appendUint(b []byte, n uint64) ([]byte, error) {
	if n > math.MaxInt64 {
		return b, uintError(n)
	}
	return strconv.AppendUint(b, n, 10), nil
}

// uintError, tooDeep and atIndex are not inlined: the error paths kept in
// the encoding functions made them slower.
//
//go:noinline
func uintError(n uint64) error {
	return &wire.ValueError{Msg: fmt.Sprintf("%d does not fit in a Number (at most %d)", n, int64(math.MaxInt64))}
}

//go:noinline
func tooDeep() error {
	return &wire.ValueError{
		Msg:     fmt.Sprintf("Lists and Dicts nested more than %d deep, more than Vim reads", MaxSendDepth),
		DeepMsg: "Lists and Dicts nested more than %d deep, more than Vim reads",
	}
}

// atIndex records in err, if it is a *wire.ValueError, that it is in item
// i of a List inside depth Lists and Dicts.
//
//go:noinline
func atIndex(err error, i, depth int) error {
	if ve, ok := err.(*wire.ValueError); ok {
		ve.In(i, depth+1, MaxSendDepth-depth-1)
	}
	return err
}

// appendValidUTF8 appends JSON text that did not come from appendString,
// with invalid UTF-8 replaced as appendString does.
func appendValidUTF8(b, text []byte) []byte {
	if utf8.Valid(text) {
		return append(b, text...)
	}
	return append(b, bytes.ToValidUTF8(text, []byte("\ufffd"))...)
}

// appendMember is appendValue for a Dict's value or a struct's field,
// where a nil slice is null: msgpack's encoder, which writes Neovim's
// Dicts and structs, makes it nil there, and both editors get the same.
func appendMember(b []byte, v any, depth int) ([]byte, error) {
	if isNilSlice(v) {
		return append(b, "null"...), nil
	}
	return appendValue(b, v, depth)
}

// isNilSlice reports whether v is a nil slice.
func isNilSlice(v any) bool {
	switch x := v.(type) {
	case nil, string, int, int64, bool, float64, map[string]any:
		return false
	case []any:
		return x == nil
	case []string:
		return x == nil
	case []int:
		return x == nil
	}
	rv := reflect.ValueOf(v)
	return rv.Kind() == reflect.Slice && rv.IsNil()
}

// appendReflect handles named and composite types. Slices and maps of any
// element type recurse through appendValue so that []byte and floats keep
// Vim's forms; structs go by their json tags (appendStruct).
func appendReflect(b []byte, v any, depth int) ([]byte, error) {
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Pointer, reflect.Interface:
		if rv.IsNil() {
			return append(b, "null"...), nil
		}
		return appendValue(b, rv.Elem().Interface(), depth)
	case reflect.String:
		return appendString(b, rv.String()), nil
	case reflect.Bool:
		return appendValue(b, rv.Bool(), depth)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return appendInt(b, rv.Int()), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return appendUint(b, rv.Uint())
	case reflect.Float32, reflect.Float64:
		return appendFloat(b, rv.Float()), nil
	case reflect.Slice, reflect.Array:
		if rv.Kind() == reflect.Slice && rv.IsNil() && rv.Type().Elem().Kind() == reflect.Uint8 {
			return append(b, "null"...), nil // a nil []byte, as above; other nil slices are empty Lists
		}
		if depth >= MaxSendDepth {
			return b, tooDeep()
		}
		if rv.Type().Elem().Kind() == reflect.Uint8 {
			n := rv.Len()
			b = append(b, '[')
			for i := 0; i < n; i++ {
				if i > 0 {
					b = append(b, ',')
				}
				b = strconv.AppendUint(b, rv.Index(i).Uint(), 10)
			}
			return append(b, ']'), nil
		}
		b = append(b, '[')
		for i := 0; i < rv.Len(); i++ {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = appendValue(b, rv.Index(i).Interface(), depth+1); err != nil {
				return b, atIndex(err, i, depth)
			}
		}
		return append(b, ']'), nil
	case reflect.Map:
		if rv.Type().Key().Kind() != reflect.String {
			return b, &wire.ValueError{Msg: "Dict keys must be Strings", Detail: fmt.Errorf("a %s", rv.Type())}
		}
		if rv.IsNil() {
			return append(b, "null"...), nil
		}
		if depth >= MaxSendDepth {
			return b, tooDeep()
		}
		keys := rv.MapKeys()
		slices.SortFunc(keys, func(a, c reflect.Value) int {
			if a.String() < c.String() {
				return -1
			}
			if a.String() > c.String() {
				return 1
			}
			return 0
		})
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, k.String())
			b = append(b, ':')
			var err error
			if b, err = appendMember(b, rv.MapIndex(k).Interface(), depth+1); err != nil {
				return b, err
			}
		}
		return append(b, '}'), nil
	case reflect.Struct:
		if depth >= MaxSendDepth {
			return b, tooDeep()
		}
		return appendStruct(b, rv, depth)
	}
	return b, &wire.ValueError{Msg: fmt.Sprintf("a %s cannot be sent to the editor", rv.Type())}
}

// appendStruct writes a struct as a Dict, by its `json` tags as
// encoding/json would, but with this package's forms for the field values
// (so that a []byte field is a List of bytes and a float field a Float, as
// they are on Neovim).
func appendStruct(b []byte, rv reflect.Value, depth int) ([]byte, error) {
	b = append(b, '{')
	first := true
	var err error
	b, err = appendFields(b, rv, &first, depth)
	if err != nil {
		return b, err
	}
	return append(b, '}'), nil
}

func appendFields(b []byte, rv reflect.Value, first *bool, depth int) ([]byte, error) {
	t := rv.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		fv := rv.Field(i)
		if f.Anonymous && name == "" {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				if fv.IsNil() {
					continue
				}
				fv, ft = fv.Elem(), ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				var err error
				if b, err = appendFields(b, fv, first, depth); err != nil {
					return b, err
				}
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if strings.Contains(","+opts+",", ",omitempty,") && fv.IsZero() && emptyKind(fv) {
			continue
		}
		if !*first {
			b = append(b, ',')
		}
		*first = false
		b = appendString(b, name)
		b = append(b, ':')
		var err error
		if b, err = appendMember(b, fv.Interface(), depth+1); err != nil {
			return b, err
		}
	}
	return b, nil
}

// emptyKind reports whether omitempty applies to v's kind, as in
// encoding/json (which leaves structs alone).
func emptyKind(v reflect.Value) bool {
	return v.Kind() != reflect.Struct
}

func appendList(b []byte, xs []any, depth int) ([]byte, error) {
	if depth >= MaxSendDepth {
		return b, tooDeep()
	}
	b = append(b, '[')
	for i, x := range xs {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = appendValue(b, x, depth+1); err != nil {
			return b, atIndex(err, i, depth)
		}
	}
	return append(b, ']'), nil
}

func appendInt(b []byte, n int64) []byte { return strconv.AppendInt(b, n, 10) }

// appendFloat writes a float so that Vim reads it back as a Float: an
// integral value gets ".0", and NaN and the infinities use the words that
// Vim's json_encode writes and json_decode reads.
func appendFloat(b []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(b, "NaN"...)
	case math.IsInf(f, 1):
		return append(b, "Infinity"...)
	case math.IsInf(f, -1):
		return append(b, "-Infinity"...)
	}
	start := len(b)
	b = strconv.AppendFloat(b, f, 'g', -1, 64)
	if !bytes.ContainsAny(b[start:], ".eE") {
		b = append(b, '.', '0')
	} else if i := bytes.IndexAny(b[start:], "eE"); i >= 0 && !bytes.Contains(b[start:start+i], []byte(".")) {
		// Vim's JSON reader wants a fraction before the exponent: 1e+20 -> 1.0e+20.
		exp := append([]byte(nil), b[start+i:]...)
		b = append(append(b[:start+i], '.', '0'), exp...)
	}
	return b
}

func appendBytes(b []byte, p []byte) []byte {
	b = append(b, '[')
	for i, c := range p {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendUint(b, uint64(c), 10)
	}
	return append(b, ']')
}

const hexDigits = "0123456789abcdef"

// plain holds the bytes that appendString writes as they are: printable
// ASCII but the quote and the backslash. Read only.
var plain = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

const (
	lsb = 0x0101010101010101 // a one in each byte
	msb = 0x8080808080808080 // each byte's top bit
)

// special reports whether one of the eight bytes of w is not plain: below
// 0x20, 0x80 or above, a quote or a backslash. (The test for a zero byte,
// x-lsb &^ x, has its top bit set for each byte of x that is 0; applied to
// w-0x20, w^'"' and w^'\\'. It may say so for a plain byte after one that
// is not, never the other way round.) Eight bytes at once keep the check
// for UTF-8 from slowing appendString down (BENCHMARKS.md, "Codecs, and
// the checks of values").
func special(w uint64) bool {
	below := (w - 0x20*lsb) &^ w
	q := w ^ ('"' * lsb)
	bs := w ^ ('\\' * lsb)
	return (below|w|(q-lsb)&^q|(bs-lsb)&^bs)&msb != 0
}

// load64 reads s[i:i+8] as a little-endian word (the compiler makes it
// one load).
func load64(s string, i int) uint64 {
	_ = s[i+7]
	return uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
		uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
}

// appendString writes s as a JSON string. Each byte that is not part of
// valid UTF-8 is written as U+FFFD, as Vim itself does for the strings it
// sends: Vim's JSON reader takes a message with invalid UTF-8 for an
// incomplete one, waits for the rest and drops it, so the caller would
// wait for ever.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if i+8 <= len(s) && !special(load64(s, i)) {
			i += 8 // eight plain bytes at once
			continue
		}
		c := s[i]
		if plain[c] {
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, n := utf8.DecodeRuneInString(s[i:])
			if r != utf8.RuneError || n != 1 {
				i += n
				continue
			}
			b = append(b, s[start:i]...)
			b = append(b, "\ufffd"...)
			i++
			start = i
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		default:
			b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		}
		i++
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// Unmarshal decodes the JSON value r into v. Into *any, Numbers become
// int64, Floats float64, Lists []any and Dicts map[string]any. Into a
// []byte, a List of Numbers (a Vim Blob) or a String is accepted. A value
// nested more than wire.MaxDepth deep is an error wrapping wire.ErrTooDeep.
func Unmarshal(r wire.Raw, v any) error {
	err := unmarshal(r, v)
	if err == nil {
		return nil
	}
	return unmarshalFailed(r, v, err)
}

// unmarshalFailed is Unmarshal after unmarshal failed with err: it makes
// the errors of encoding/json Vim's, and reads Vim's non-finite Floats. It
// is a function of its own so that a value that decodes allocates nothing
// for the error's analysis (errors.As's target escapes).
func unmarshalFailed(r wire.Raw, v any, err error) error {
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		return err
	}
	if strings.HasSuffix(se.Error(), "exceeded max depth") { // encoding/json's limit is wire.MaxDepth
		return fmt.Errorf("%w: %w", wire.ErrTooDeep, err)
	}
	// Vim writes NaN and the infinities as bare words, which JSON lacks.
	if f, ok := nonFiniteWord(string(bytes.TrimSpace(r))); ok {
		switch p := v.(type) {
		case *float64:
			*p = f
			return nil
		case *any:
			*p = f
			return nil
		}
	}
	fixed, ok := markNonFinite(r)
	if !ok {
		return err
	}
	switch v.(type) {
	case *any, *[]any, *map[string]any:
		// The marks land only in interface values, which fixNumbers
		// turns back into Floats. (In a string field one would pass for
		// a String.)
		return unmarshal(fixed, v)
	}
	return fmt.Errorf("a NaN or Infinity Float from Vim decodes only into float64 or any (here %T): %w", v, err)
}

// nonFiniteWord returns the Float that Vim writes as word, which JSON lacks.
// markNonFinite puts such a word as a String of a NUL and the word (Vim
// strings cannot hold a NUL, so no String from Vim looks like it), which
// fixNumbers turns back.
func nonFiniteWord(word string) (float64, bool) {
	switch word {
	case "NaN":
		return math.NaN(), true
	case "Infinity":
		return math.Inf(1), true
	case "-Infinity":
		return math.Inf(-1), true
	}
	return 0, false
}

// markNonFinite returns r with each NaN, Infinity and -Infinity outside a
// String replaced by the String "\u0000" followed by the word, and whether
// it found one.
func markNonFinite(r []byte) ([]byte, bool) {
	var out []byte
	last := 0
	for i := 0; i < len(r); i++ {
		switch r[i] {
		case '"':
			for i++; i < len(r) && r[i] != '"'; i++ {
				if r[i] == '\\' {
					i++
				}
			}
		case 'N', 'I', '-':
			for _, w := range [...]string{"NaN", "Infinity", "-Infinity"} {
				if bytes.HasPrefix(r[i:], []byte(w)) {
					out = append(out, r[last:i]...)
					out = append(out, `"\u0000`+w+`"`...)
					i += len(w) - 1
					last = i + 1
					break
				}
			}
		}
	}
	if out == nil {
		return r, false
	}
	return append(out, r[last:]...), true
}

func unmarshal(r wire.Raw, v any) error {
	switch p := v.(type) {
	case *any:
		if x, ok := fastScalar(r); ok {
			*p = x
			return nil
		}
		d := json.NewDecoder(bytes.NewReader(r))
		d.UseNumber()
		var x any
		if err := d.Decode(&x); err != nil {
			return err
		}
		*p = fixNumbers(x)
		return nil
	case *string:
		if s, ok := fastString(r); ok {
			*p = s
			return nil
		}
	case *int64:
		if n, ok := fastInt(r); ok {
			*p = n
			return nil
		}
	case *int:
		if n, ok := fastInt(r); ok && int64(int(n)) == n {
			*p = int(n)
			return nil
		}
	case *[]byte:
		r = bytes.TrimLeft(r, " \t\r\n")
		if len(r) > 0 && r[0] == '[' {
			var ns []int
			if err := json.Unmarshal(r, &ns); err != nil {
				return err
			}
			out := make([]byte, len(ns))
			for i, n := range ns {
				if n < 0 || n > 255 {
					return fmt.Errorf("byte %d of the Blob is %d, not 0-255", i, n)
				}
				out[i] = byte(n)
			}
			*p = out
			return nil
		}
		if len(r) > 0 && r[0] == '"' {
			var s string
			if err := json.Unmarshal(r, &s); err != nil {
				return err
			}
			*p = []byte(s)
			return nil
		}
		if bytes.Equal(r, []byte("null")) {
			*p = nil
			return nil
		}
	}
	// Numbers inside interface values (an []any parameter, a struct field
	// of type any) must become int64 or float64 as at the top level, not
	// encoding/json's float64 for all.
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return json.Unmarshal(r, v)
	}
	d := json.NewDecoder(bytes.NewReader(r))
	d.UseNumber()
	if err := d.Decode(v); err != nil {
		return err
	}
	wire.FixInterfaces(v, fixNumbers)
	return nil
}

// fastScalar decodes null, true, false, an integer or a plain String
// without a json.Decoder: most results are one of these.
func fastScalar(r wire.Raw) (any, bool) {
	if len(r) == 0 {
		return nil, false
	}
	switch r[0] {
	case 'n':
		if string(r) == "null" {
			return nil, true
		}
	case 't':
		if string(r) == "true" {
			return true, true
		}
	case 'f':
		if string(r) == "false" {
			return false, true
		}
	case '"':
		if s, ok := fastString(r); ok {
			return s, true
		}
	default:
		if n, ok := fastInt(r); ok {
			return n, true
		}
	}
	return nil, false
}

// fastInt decodes r if it is one whole JSON integer that an int64 holds.
func fastInt(r wire.Raw) (int64, bool) {
	digits := bytes.TrimPrefix(r, []byte("-"))
	if len(digits) == 0 || digits[0] < '0' || digits[0] > '9' || digits[0] == '0' && len(digits) > 1 {
		return 0, false // not a JSON number, or one with a leading zero
	}
	n, err := strconv.ParseInt(string(r), 10, 64)
	return n, err == nil
}

// fastString decodes a JSON string without escapes.
func fastString(r wire.Raw) (string, bool) {
	if len(r) < 2 || r[0] != '"' || r[len(r)-1] != '"' {
		return "", false
	}
	body := r[1 : len(r)-1]
	// Only what encoding/json would decode to the same bytes: no escapes,
	// no control characters, valid UTF-8 (it turns invalid bytes into
	// U+FFFD, and the slow path must agree with the fast one).
	for _, c := range body {
		if c < 0x20 || c == '\\' || c == '"' {
			return "", false
		}
	}
	if !utf8.Valid(body) {
		return "", false
	}
	return string(body), true
}

func fixNumbers(x any) any {
	switch v := x.(type) {
	case string:
		if len(v) > 1 && v[0] == 0 {
			if f, ok := nonFiniteWord(v[1:]); ok {
				return f
			}
		}
	case json.Number:
		s := string(v)
		if !bytes.ContainsAny([]byte(s), ".eE") {
			if n, err := strconv.ParseInt(s, 10, 64); err == nil {
				return n
			}
		}
		f, _ := strconv.ParseFloat(s, 64)
		return f
	case []any:
		for i := range v {
			v[i] = fixNumbers(v[i])
		}
	case map[string]any:
		for k, e := range v {
			v[k] = fixNumbers(e)
		}
	}
	return x
}

// MaxSendDepth is how deeply Lists and Dicts may nest in a value sent to
// Vim. Vim reads any depth, but its handling of a received value recurses
// once per level, so a deep enough value overflows Vim's stack and crashes
// it (where, for the default stack: BENCHMARKS.md, the depth check of what
// Vim encodes). The limit keeps room below that; e2e TestValuesTooDeep
// checks both sides of it.
const MaxSendDepth = 50000
