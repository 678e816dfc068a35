package vigor

import (
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/vigorvim/vigor/internal/host"
	"github.com/vigorvim/vigor/internal/wire"
)

// A decoder puts the editor's values (host.Value) into Go values: a
// handler's parameters and the results of CallAs. Each value is first
// decoded by its codec (host.Value.Decode) into the editor-neutral form that a parameter of type any gets
// (int64, float64, string, bool, nil, []any, map[string]any, []byte), then
// assigned to its Go type by the rules below, the same on both editors, so
// that a value that does not fit fails with the same message on Vim and on
// Neovim, in Vim's words. (The decoders of the two codecs disagree: on
// Neovim, msgpack takes a List for a struct, by position, wraps 300 into a
// uint8 without a word and refuses the keys of {'1': 'a'} for a
// map[int]string; encoding/json, on Vim, takes those keys, matches Dict
// keys to fields without regard to case, which msgpack does not, and reads
// a String in a []byte field as base64.)
//
// A decoder is safe for concurrent use.
type decoder struct {
	// fields caches the fields of each struct type, found by their json
	// tags: reflect.Type -> []field. Entries are added, never changed.
	fields sync.Map
	// methods caches which types decode themselves: reflect.Type ->
	// selfDecoding. Entries are added, never changed.
	methods sync.Map
}

// selfDecoding says whether and how a type decodes itself.
type selfDecoding uint8

const (
	notSelf selfDecoding = iota
	viaJSON              // *T implements json.Unmarshaler
	viaText              // *T implements encoding.TextUnmarshaler
)

func (d *decoder) selfDecoding(t reflect.Type) selfDecoding {
	if m, ok := d.methods.Load(t); ok {
		return m.(selfDecoding)
	}
	m := notSelf
	switch pt := reflect.PointerTo(t); {
	case pt.Implements(jsonUnmarshalerType):
		m = viaJSON
	case pt.Implements(textUnmarshalerType):
		m = viaText
	}
	d.methods.Store(t, m)
	return m
}

// field is a struct field that a Dict key fills.
type field struct {
	name  string // the key: the json tag's name, or the field's
	index []int  // for reflect.Value.FieldByIndex, through embedded structs
}

// decodeError is a value that does not fit its Go type. Its text is for
// users: where the value is (path) and what was expected.
type decodeError struct {
	path   []string // outermost first once the error reaches the top
	msg    string
	detail error // the codec's error, if it made this one, for the log
}

func (e *decodeError) Error() string {
	if len(e.path) == 0 {
		return e.msg
	}
	return strings.Join(e.path, ": ") + ": " + e.msg
}

func (e *decodeError) Unwrap() error { return e.detail }

// in records that the error is inside elem (`field "x"`, `index 2`, ...).
func (e *decodeError) in(elem string) *decodeError {
	e.path = append([]string{elem}, e.path...)
	return e
}

var (
	jsonUnmarshalerType = reflect.TypeOf((*json.Unmarshaler)(nil)).Elem()
	textUnmarshalerType = reflect.TypeOf((*encoding.TextUnmarshaler)(nil)).Elem()
	bytesType           = reflect.TypeOf([]byte(nil))
)

// decode decodes v into dst, a settable value. v:null is refused for a
// dst that cannot be nil (a Number, a String, a struct...), unlike inside
// a List or a Dict, where it leaves the zero value, as a missing key does.
func (d *decoder) decode(val host.Value, dst reflect.Value) *decodeError {
	// A String into a string, the commonest parameter, and a Number into
	// an int or an int64 (a Number is a 64-bit integer: it always fits),
	// the commonest result, straight into dst: the codecs agree on these,
	// and the editor-neutral form would cost an allocation or two more
	// and a reflected assignment.
	if direct(dst, val.Type()) {
		if err := val.Decode(dst.Addr().Interface()); err == nil {
			return nil
		}
	}
	var v any
	if err := val.Decode(&v); err != nil {
		if errors.Is(err, wire.ErrTooDeep) {
			return &decodeError{msg: wire.ErrTooDeep.Error(), detail: err}
		}
		return &decodeError{msg: fmt.Sprintf("cannot read the %s from the editor", val.Type()), detail: err}
	}
	if v == nil && !nullable(dst.Type()) {
		return mismatch(dst.Type(), nil)
	}
	return d.assign(dst, v)
}

// decodeTo decodes v into what result, a non-nil pointer, points to, as
// decode does. The commonest results (an any, an int, an int64, a string)
// go straight through the codec, without reflection: a typed result costs
// no more than an any.
func (d *decoder) decodeTo(v host.Value, result any) *decodeError {
	switch p := result.(type) {
	case *any:
		*p = nil // the codecs decode into the type of what an any holds
		if v.Decode(p) == nil {
			return nil
		}
	case *int, *int64:
		if v.Type() == "Number" && v.Decode(p) == nil {
			return nil
		}
	case *string:
		if v.Type() == "String" && v.Decode(p) == nil {
			return nil
		}
	}
	return d.decode(v, reflect.ValueOf(result).Elem())
}

// direct reports whether a value of the Vim type typeName decodes into
// dst by the codec alone, as it does by the rules of assign.
func direct(dst reflect.Value, typeName string) bool {
	if dst.Type().PkgPath() != "" || !dst.CanAddr() {
		return false // a named type may decode itself
	}
	switch dst.Kind() {
	case reflect.String:
		return typeName == "String"
	case reflect.Int64:
		return typeName == "Number"
	case reflect.Int:
		return typeName == "Number" && strconv.IntSize == 64
	}
	return false
}

// nullable reports whether v:null decodes into t at the top: into a
// pointer, an interface, a slice or a map (as nil).
func nullable(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Pointer, reflect.Interface, reflect.Slice, reflect.Map:
		return true
	}
	return false
}

// assign sets dst, a settable zero value, from v, the editor-neutral form
// of a value.
func (d *decoder) assign(dst reflect.Value, v any) *decodeError {
	t := dst.Type()
	if t.PkgPath() != "" || t.Kind() == reflect.Struct { // named types, and structs that embed one, have methods
		if done, err := d.unmarshaler(dst, v); done {
			return err
		}
	}
	if v == nil {
		return nil // the zero value, as encoding/json leaves it
	}
	switch t.Kind() {
	case reflect.Interface:
		if t.NumMethod() == 0 {
			dst.Set(reflect.ValueOf(v))
			return nil
		}
		return &decodeError{msg: fmt.Sprintf("cannot decode into %s, an interface with methods", t)}
	case reflect.Pointer:
		p := reflect.New(t.Elem())
		if err := d.assign(p.Elem(), v); err != nil {
			return err
		}
		dst.Set(p)
		return nil
	case reflect.Bool:
		// Vim script's Booleans are v:true and v:false, and the Numbers 1
		// and 0 that most functions return (:help Boolean).
		switch b := v.(type) {
		case bool:
			dst.SetBool(b)
			return nil
		case int64:
			if b == 0 || b == 1 {
				dst.SetBool(b == 1)
				return nil
			}
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if n, ok := v.(int64); ok && !dst.OverflowInt(n) {
			dst.SetInt(n)
			return nil
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		switch n := v.(type) {
		case int64:
			if n >= 0 && !dst.OverflowUint(uint64(n)) {
				dst.SetUint(uint64(n))
				return nil
			}
		case uint64: // not from an editor (its Numbers are signed), but valid msgpack
			if !dst.OverflowUint(n) {
				dst.SetUint(n)
				return nil
			}
		}
	case reflect.Float32, reflect.Float64:
		switch f := v.(type) {
		case float64:
			if !dst.OverflowFloat(f) {
				dst.SetFloat(f)
				return nil
			}
		case int64:
			dst.SetFloat(float64(f))
			return nil
		}
	case reflect.String:
		if s, ok := v.(string); ok {
			dst.SetString(s)
			return nil
		}
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return d.bytes(dst, v)
		}
		if l, ok := v.([]any); ok {
			s := reflect.MakeSlice(t, len(l), len(l))
			for i, x := range l {
				if err := d.assign(s.Index(i), x); err != nil {
					return err.in("index " + strconv.Itoa(i))
				}
			}
			dst.Set(s)
			return nil
		}
	case reflect.Array:
		if l, ok := v.([]any); ok {
			if len(l) > t.Len() {
				return &decodeError{msg: fmt.Sprintf("expected a List of at most %d items, got %d", t.Len(), len(l))}
			}
			for i, x := range l {
				if err := d.assign(dst.Index(i), x); err != nil {
					return err.in("index " + strconv.Itoa(i))
				}
			}
			return nil
		}
	case reflect.Map:
		if m, ok := v.(map[string]any); ok {
			return d.dict(dst, m)
		}
	case reflect.Struct:
		if m, ok := v.(map[string]any); ok {
			return d.record(dst, m)
		}
	default:
		return &decodeError{msg: fmt.Sprintf("cannot decode into a %s", t)}
	}
	return mismatch(t, v)
}

// unmarshaler decodes into a type that decodes itself, as encoding/json
// lets it: json.Unmarshaler (given the value as JSON, on both editors),
// or encoding.TextUnmarshaler for a String. It reports whether dst is such
// a type.
func (d *decoder) unmarshaler(dst reflect.Value, v any) (bool, *decodeError) {
	m := d.selfDecoding(dst.Type())
	if m == notSelf || !dst.CanAddr() {
		return false, nil
	}
	if m == viaJSON {
		data, err := json.Marshal(jsonForm(v))
		if err == nil {
			err = dst.Addr().Interface().(json.Unmarshaler).UnmarshalJSON(data)
		}
		if err != nil {
			return true, &decodeError{msg: fmt.Sprintf("cannot decode %s into a %s: %v", describe(v), dst.Type(), err), detail: err}
		}
		return true, nil
	}
	if s, ok := v.(string); ok {
		if err := dst.Addr().Interface().(encoding.TextUnmarshaler).UnmarshalText([]byte(s)); err != nil {
			return true, &decodeError{msg: fmt.Sprintf("cannot decode %s into a %s: %v", describe(v), dst.Type(), err), detail: err}
		}
		return true, nil
	}
	return false, nil // a TextUnmarshaler takes a String only
}

// jsonForm returns v as encoding/json marshals it the way Vim writes it:
// a Blob as a List of Numbers.
func jsonForm(v any) any {
	switch x := v.(type) {
	case []byte:
		l := make([]any, len(x))
		for i, c := range x {
			l[i] = int64(c)
		}
		return l
	case []any:
		l := make([]any, len(x))
		for i, e := range x {
			l[i] = jsonForm(e)
		}
		return l
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = jsonForm(e)
		}
		return m
	}
	return v
}

// bytes decodes a Blob into a []byte (or another slice of a byte kind):
// from a Blob or a String on Neovim (whose API sends a Blob as a String),
// from a List of Numbers (a Blob, in Vim's JSON) or a String on Vim.
func (d *decoder) bytes(dst reflect.Value, v any) *decodeError {
	var b []byte
	switch x := v.(type) {
	case string:
		b = []byte(x)
	case []byte:
		b = append([]byte{}, x...)
	case []any:
		b = make([]byte, len(x))
		for i, e := range x {
			n, ok := e.(int64)
			if !ok || n < 0 || n > math.MaxUint8 {
				return mismatch(reflect.TypeOf(uint8(0)), e).in("index " + strconv.Itoa(i))
			}
			b[i] = byte(n)
		}
	default:
		return mismatch(dst.Type(), v)
	}
	if dst.Type() == bytesType {
		dst.SetBytes(b)
		return nil
	}
	s := reflect.MakeSlice(dst.Type(), len(b), len(b))
	for i, c := range b {
		s.Index(i).SetUint(uint64(c))
	}
	dst.Set(s)
	return nil
}

// dict decodes a Dict into a map. Its keys are Strings: a map with string
// keys takes them as they are, one with integer keys as decimal Numbers
// ({'1': 'a'} into a map[int]string).
func (d *decoder) dict(dst reflect.Value, m map[string]any) *decodeError {
	t := dst.Type()
	kt := t.Key()
	switch kt.Kind() {
	case reflect.String, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
	default:
		return &decodeError{msg: fmt.Sprintf("cannot decode a Dict into a %s: its keys must be strings or integers", t)}
	}
	out := reflect.MakeMapWithSize(t, len(m))
	for k, x := range m {
		key := reflect.New(kt).Elem()
		switch kt.Kind() {
		case reflect.String:
			key.SetString(k)
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			n, err := strconv.ParseInt(k, 10, 64)
			if err != nil || key.OverflowInt(n) {
				return &decodeError{msg: fmt.Sprintf("key %s: expected %s", quote(k), expected(kt))}
			}
			key.SetInt(n)
		default:
			n, err := strconv.ParseUint(k, 10, 64)
			if err != nil || key.OverflowUint(n) {
				return &decodeError{msg: fmt.Sprintf("key %s: expected %s", quote(k), expected(kt))}
			}
			key.SetUint(n)
		}
		e := reflect.New(t.Elem()).Elem()
		if err := d.assign(e, x); err != nil {
			return err.in("key " + quote(k))
		}
		out.SetMapIndex(key, e)
	}
	dst.Set(out)
	return nil
}

// record decodes a Dict into a struct: each key fills the field of that
// json name, or else one whose name matches it without regard to case (as
// encoding/json does). Keys without a field are ignored.
func (d *decoder) record(dst reflect.Value, m map[string]any) *decodeError {
	fields := d.structFields(dst.Type())
	for k, x := range m {
		f := findField(fields, k)
		if f == nil {
			continue
		}
		if f.name != k {
			if _, ok := m[f.name]; ok {
				continue // the key spelt as the field's name fills it
			}
		}
		fv, err := fieldByIndex(dst, f.index)
		if err != nil {
			return err.in("field " + quote(k))
		}
		if err := d.assign(fv, x); err != nil {
			return err.in("field " + quote(k))
		}
	}
	return nil
}

func findField(fields []field, key string) *field {
	for i := range fields {
		if fields[i].name == key {
			return &fields[i]
		}
	}
	for i := range fields {
		if strings.EqualFold(fields[i].name, key) {
			return &fields[i]
		}
	}
	return nil
}

// fieldByIndex returns the field of v at index, allocating the embedded
// struct pointers on the way; it returns a zero field to assign to.
func fieldByIndex(v reflect.Value, index []int) (reflect.Value, *decodeError) {
	for i, x := range index {
		if i > 0 && v.Kind() == reflect.Pointer {
			if v.IsNil() {
				if !v.CanSet() {
					return reflect.Value{}, &decodeError{msg: fmt.Sprintf("cannot set an embedded unexported *%s", v.Type().Elem())}
				}
				v.Set(reflect.New(v.Type().Elem()))
			}
			v = v.Elem()
		}
		v = v.Field(x)
	}
	v.SetZero() // two spellings of a key fill a field once, the last
	return v, nil
}

// structFields returns the fields of struct type t that Dict keys fill,
// by their json tags: `json:"-"` and unexported fields are left out, the
// fields of embedded structs without a tag name are promoted (a field
// nearer the top wins over a deeper one of the same name).
func (d *decoder) structFields(t reflect.Type) []field {
	if f, ok := d.fields.Load(t); ok {
		return f.([]field)
	}
	var fields []field
	seen := map[string]int{} // name -> depth of the field that has it
	var walk func(t reflect.Type, index []int, depth int, visited map[reflect.Type]bool)
	walk = func(t reflect.Type, index []int, depth int, visited map[reflect.Type]bool) {
		if visited[t] {
			return
		}
		visited[t] = true
		defer delete(visited, t)
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			tag := f.Tag.Get("json")
			if tag == "-" {
				continue
			}
			name, _, _ := strings.Cut(tag, ",")
			idx := append(append([]int{}, index...), i)
			if f.Anonymous && name == "" {
				ft := f.Type
				if ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if ft.Kind() == reflect.Struct {
					walk(ft, idx, depth+1, visited)
					continue
				}
			}
			if !f.IsExported() {
				continue
			}
			if name == "" {
				name = f.Name
			}
			if dd, ok := seen[name]; ok && dd <= depth {
				continue
			}
			seen[name] = depth
			for k := range fields {
				if fields[k].name == name { // a deeper one: this one wins
					fields = append(fields[:k], fields[k+1:]...)
					break
				}
			}
			fields = append(fields, field{name: name, index: idx})
		}
	}
	walk(t, nil, 0, map[reflect.Type]bool{})
	f, _ := d.fields.LoadOrStore(t, fields)
	return f.([]field)
}

// mismatch is the error for v, which does not fit t.
func mismatch(t reflect.Type, v any) *decodeError {
	return &decodeError{msg: fmt.Sprintf("expected %s, got %s", expected(t), describe(v))}
}

// expected names what a Go type takes, in Vim's words.
func expected(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Pointer:
		return expected(t.Elem())
	case reflect.Bool:
		return "a Boolean"
	case reflect.Int, reflect.Int64:
		return "a Number"
	case reflect.Int8, reflect.Int16, reflect.Int32:
		bits := t.Bits()
		return fmt.Sprintf("a Number from %d to %d", -int64(1)<<(bits-1), int64(1)<<(bits-1)-1)
	case reflect.Uint8, reflect.Uint16, reflect.Uint32:
		return fmt.Sprintf("a Number from 0 to %d", uint64(1)<<t.Bits()-1)
	case reflect.Uint, reflect.Uint64, reflect.Uintptr:
		return "a Number of 0 or more"
	case reflect.Float32:
		return "a Float from -3.4e38 to 3.4e38"
	case reflect.Float64:
		return "a Float"
	case reflect.String:
		return "a String"
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return "a Blob or a String"
		}
		return "a List"
	case reflect.Array:
		return "a List"
	case reflect.Map, reflect.Struct:
		return "a Dict"
	case reflect.Interface:
		return "any value"
	}
	return "a " + t.String()
}

// describe names a value in Vim's words, with the value itself for a
// scalar: "a Float (1.5)", `a String ("abc")`, "a List of 2 items".
func describe(v any) string {
	switch x := v.(type) {
	case nil:
		return "v:null"
	case bool:
		if x {
			return "v:true"
		}
		return "v:false"
	case int64:
		return fmt.Sprintf("a Number (%d)", x)
	case uint64:
		return fmt.Sprintf("a Number (%d)", x)
	case float64:
		return fmt.Sprintf("a Float (%s)", floatText(x))
	case string:
		return fmt.Sprintf("a String (%s)", quote(x))
	case []byte:
		return "a Blob"
	case []any:
		if len(x) == 1 {
			return "a List of 1 item"
		}
		return fmt.Sprintf("a List of %d items", len(x))
	case map[string]any:
		return "a Dict"
	}
	return fmt.Sprintf("a %T", v)
}

// floatText writes f as Vim's string() does: 1.5, 2.0, 1.0e20, inf, nan.
func floatText(f float64) string {
	switch {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(s, ".eEn") {
		s += ".0"
	}
	return s
}

// quote quotes s for a message, cut to 40 bytes.
func quote(s string) string {
	const max = 40
	if len(s) <= max {
		return strconv.Quote(s)
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strconv.Quote(s[:cut]) + "..."
}

// argError is an argument of a handler that does not fit its parameter.
func argError(i int, err *decodeError) *decodeError {
	return err.in("argument " + strconv.Itoa(i+1))
}
