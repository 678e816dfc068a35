package wire

import "reflect"

// FixInterfaces walks the value that v points to and replaces each value
// held in an interface (an element of an []any, a field or map value of
// type any, at any depth) with fix(value). Codecs use it to give numbers
// decoded into interfaces the documented Go types. It does nothing when the
// type cannot hold an interface.
func FixInterfaces(v any, fix func(any) any) {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() || !hasInterface(rv.Type().Elem(), nil) {
		return
	}
	walk(rv.Elem(), fix)
}

// hasInterface reports whether values of t can hold an interface value.
func hasInterface(t reflect.Type, seen map[reflect.Type]bool) bool {
	if seen[t] {
		return false
	}
	switch t.Kind() {
	case reflect.Interface:
		return true
	case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
		return hasInterface(t.Elem(), mark(seen, t))
	case reflect.Struct:
		seen = mark(seen, t)
		for i := 0; i < t.NumField(); i++ {
			if t.Field(i).IsExported() && hasInterface(t.Field(i).Type, seen) {
				return true
			}
		}
	}
	return false
}

func mark(seen map[reflect.Type]bool, t reflect.Type) map[reflect.Type]bool {
	if seen == nil {
		seen = make(map[reflect.Type]bool)
	}
	seen[t] = true
	return seen
}

func walk(v reflect.Value, fix func(any) any) {
	switch v.Kind() {
	case reflect.Interface:
		if !v.IsNil() && v.CanSet() {
			v.Set(valueOf(fix(v.Elem().Interface()), v.Type()))
		}
	case reflect.Pointer:
		if !v.IsNil() {
			walk(v.Elem(), fix)
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			walk(v.Index(i), fix)
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				walk(v.Field(i), fix)
			}
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			e := reflect.New(v.Type().Elem()).Elem()
			e.Set(v.MapIndex(k))
			walk(e, fix)
			v.SetMapIndex(k, e)
		}
	}
}

func valueOf(x any, t reflect.Type) reflect.Value {
	if x == nil {
		return reflect.Zero(t)
	}
	return reflect.ValueOf(x)
}
