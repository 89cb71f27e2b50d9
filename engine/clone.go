package engine

import (
	"reflect"
	"sync"
)

// Copy returns a deep copy of v that shares nothing with it: every slice,
// map and pointer reachable through exported fields is copied, so that a
// change to the copy anywhere leaves v as it was. Unexported fields are
// copied as values; a game state keeps none that hold references, since
// what a snapshot does not write is not part of the state. A rule
// system's State.Clone is Copy.
func Copy[T any](v T) T {
	var out T
	src := reflect.ValueOf(&v).Elem()
	copierOf(src.Type())(reflect.ValueOf(&out).Elem(), src)
	return out
}

// A copier sets dst, a settable value, to a deep copy of src, a value of
// the same type. Each type's copier is made once and kept.
type copier func(dst, src reflect.Value)

var copiers sync.Map // reflect.Type → copier

func copierOf(t reflect.Type) copier {
	if c, ok := copiers.Load(t); ok {
		return c.(copier)
	}
	// A type that contains itself finds this stand-in while its own
	// copier is being made.
	var made copier
	stand := copier(func(dst, src reflect.Value) { made(dst, src) })
	if c, loaded := copiers.LoadOrStore(t, stand); loaded {
		return c.(copier)
	}
	made = makeCopier(t)
	copiers.Store(t, made)
	return made
}

func setPlain(dst, src reflect.Value) { dst.Set(src) }

func makeCopier(t reflect.Type) copier {
	if plain(t) {
		return setPlain
	}
	switch t.Kind() {
	case reflect.Pointer:
		elem := copierOf(t.Elem())
		return func(dst, src reflect.Value) {
			if src.IsNil() {
				return
			}
			p := reflect.New(t.Elem())
			elem(p.Elem(), src.Elem())
			dst.Set(p)
		}
	case reflect.Interface:
		return func(dst, src reflect.Value) {
			if src.IsNil() {
				return
			}
			inner := src.Elem()
			c := reflect.New(inner.Type()).Elem()
			copierOf(inner.Type())(c, inner)
			dst.Set(c)
		}
	case reflect.Slice:
		if plain(t.Elem()) {
			return func(dst, src reflect.Value) {
				if src.IsNil() {
					return
				}
				s := reflect.MakeSlice(t, src.Len(), src.Len())
				reflect.Copy(s, src)
				dst.Set(s)
			}
		}
		elem := copierOf(t.Elem())
		return func(dst, src reflect.Value) {
			if src.IsNil() {
				return
			}
			n := src.Len()
			s := reflect.MakeSlice(t, n, n)
			for i := range n {
				elem(s.Index(i), src.Index(i))
			}
			dst.Set(s)
		}
	case reflect.Array:
		elem := copierOf(t.Elem())
		return func(dst, src reflect.Value) {
			for i := range src.Len() {
				elem(dst.Index(i), src.Index(i))
			}
		}
	case reflect.Map:
		key, elem := copierOf(t.Key()), copierOf(t.Elem())
		return func(dst, src reflect.Value) {
			if src.IsNil() {
				return
			}
			m := reflect.MakeMapWithSize(t, src.Len())
			iter := src.MapRange()
			k, v := reflect.New(t.Key()).Elem(), reflect.New(t.Elem()).Elem()
			for iter.Next() {
				key(k, iter.Key())
				elem(v, iter.Value())
				m.SetMapIndex(k, v)
			}
			dst.Set(m)
		}
	case reflect.Struct:
		// The whole struct is assigned first (unexported fields too), then
		// each exported field that holds references is copied deep.
		type field struct {
			i    int
			copy copier
		}
		var deep []field
		for i := range t.NumField() {
			if f := t.Field(i); f.IsExported() && !plain(f.Type) {
				deep = append(deep, field{i, copierOf(f.Type)})
			}
		}
		return func(dst, src reflect.Value) {
			dst.Set(src)
			for _, f := range deep {
				f.copy(dst.Field(f.i), src.Field(f.i))
			}
		}
	}
	return setPlain // channels and functions are shared, as values
}

// plainTypes remembers which types [plain] found free of references.
var plainTypes sync.Map

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
