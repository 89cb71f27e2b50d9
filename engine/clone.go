package engine

import (
	"reflect"
	"sync"
)

// plainTypes remembers which types [plain] found free of references.
var plainTypes sync.Map

// Copy returns a deep copy of v that shares nothing with it: every slice,
// map and pointer reachable through exported fields is copied, so that a
// change to the copy anywhere leaves v as it was. Unexported fields are
// copied as values; a game state keeps none that hold references, since
// what a snapshot does not write is not part of the state. A rule
// system's State.Clone is Copy.
func Copy[T any](v T) T {
	src := reflect.ValueOf(&v).Elem()
	dst := reflect.New(src.Type()).Elem()
	deepCopy(dst, src)
	return dst.Interface().(T)
}

// deepCopy sets dst, a settable value of src's type, to a deep copy of src.
func deepCopy(dst, src reflect.Value) {
	switch src.Kind() {
	case reflect.Pointer:
		if src.IsNil() {
			return
		}
		p := reflect.New(src.Type().Elem())
		deepCopy(p.Elem(), src.Elem())
		dst.Set(p)
	case reflect.Interface:
		if src.IsNil() {
			return
		}
		inner := src.Elem()
		c := reflect.New(inner.Type()).Elem()
		deepCopy(c, inner)
		dst.Set(c)
	case reflect.Slice:
		if src.IsNil() {
			return
		}
		s := reflect.MakeSlice(src.Type(), src.Len(), src.Len())
		if plain(src.Type().Elem()) {
			reflect.Copy(s, src)
		} else {
			for i := range src.Len() {
				deepCopy(s.Index(i), src.Index(i))
			}
		}
		dst.Set(s)
	case reflect.Array:
		if plain(src.Type().Elem()) {
			dst.Set(src)
			return
		}
		for i := range src.Len() {
			deepCopy(dst.Index(i), src.Index(i))
		}
	case reflect.Map:
		if src.IsNil() {
			return
		}
		m := reflect.MakeMapWithSize(src.Type(), src.Len())
		kt, vt := src.Type().Key(), src.Type().Elem()
		iter := src.MapRange()
		for iter.Next() {
			k := reflect.New(kt).Elem()
			deepCopy(k, iter.Key())
			v := reflect.New(vt).Elem()
			deepCopy(v, iter.Value())
			m.SetMapIndex(k, v)
		}
		dst.Set(m)
	case reflect.Struct:
		dst.Set(src) // every field as a value, unexported ones too
		if plain(src.Type()) {
			return
		}
		t := src.Type()
		for i := range src.NumField() {
			if t.Field(i).IsExported() && !plain(t.Field(i).Type) {
				deepCopy(dst.Field(i), src.Field(i))
			}
		}
	default:
		dst.Set(src)
	}
}

// plain reports whether values of t hold no reference (no pointer, slice,
// map, interface, channel or function), so that assigning one copies it
// whole.
func plain(t reflect.Type) bool {
	if p, ok := plainTypes.Load(t); ok {
		return p.(bool)
	}
	var p bool
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface, reflect.Chan, reflect.Func, reflect.UnsafePointer:
		p = false
	case reflect.Array:
		p = plain(t.Elem())
	case reflect.Struct:
		p = true
		for i := range t.NumField() {
			if !plain(t.Field(i).Type) {
				p = false
				break
			}
		}
	default:
		p = true
	}
	plainTypes.Store(t, p)
	return p
}
