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

var copiers sync.Map // reflect.Type → *pending

// pending is a type's copier, made once.
type pending struct {
	done chan struct{} // closed once c is made
	c    copier
}

func copierOf(t reflect.Type) copier {
	if v, ok := copiers.Load(t); ok {
		return v.(*pending).copier()
	}
	p := &pending{done: make(chan struct{})}
	if v, loaded := copiers.LoadOrStore(t, p); loaded {
		return v.(*pending).copier()
	}
	p.c = makeCopier(t)
	close(p.done)
	return p.c
}

// copier returns p's copier or, while it is still being made, one that
// waits for it when it is called: a type that contains itself finds that
// stand-in while its own copier is being made (and calls it only once it
// is), and another goroutine copying the same type for the first time at
// the same moment waits rather than calling a copier not yet made.
func (p *pending) copier() copier {
	select {
	case <-p.done:
		return p.c
	default:
		return func(dst, src reflect.Value) {
			<-p.done
			p.c(dst, src)
		}
	}
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
