package enginetest

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/rhapsode/rhapsode/engine"
)

// CloneIndependent clones st, changes the clone everywhere it can reach
// (every number, text and flag, every element of every list and map,
// through every pointer), and fails the test if the original changed or
// if the clone did not. st must be a pointer, as every game state is.
func CloneIndependent(t testing.TB, st engine.State) {
	t.Helper()
	before, err := json.Marshal(st)
	if err != nil {
		t.Fatal(err)
	}
	c := st.Clone()
	if reflect.ValueOf(c).Kind() != reflect.Pointer {
		t.Fatalf("%T.Clone returns no pointer", st)
	}
	scramble(reflect.ValueOf(c).Elem(), 0)
	after, _ := json.Marshal(st)
	if string(before) != string(after) {
		t.Fatalf("changing the clone of a %T changed the original:\nbefore %s\nafter  %s", st, before, after)
	}
	if changed, _ := json.Marshal(c); string(changed) == string(before) {
		t.Fatalf("the clone of a %T did not change: the test proves nothing", st)
	}
}

// Filled returns st with every exported field reachable from it set: two
// elements in every list, an entry in every map, a value behind every
// pointer, so that a clone has everything to share.
func Filled[S engine.State](st S) S {
	fill(reflect.ValueOf(st).Elem(), 0)
	return st
}

// maxDepth bounds the walk through a state, against types that contain
// themselves.
const maxDepth = 12

// scramble changes every settable value reachable from v.
func scramble(v reflect.Value, depth int) {
	if depth > maxDepth {
		return
	}
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(!v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(v.Int() + 1)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(v.Uint() + 1)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(v.Float() + 0.5)
	case reflect.String:
		v.SetString(v.String() + "~")
	case reflect.Pointer:
		if !v.IsNil() {
			scramble(v.Elem(), depth+1)
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			scramble(v.Index(i), depth+1)
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			e := reflect.New(v.Type().Elem()).Elem()
			e.Set(v.MapIndex(k))
			scramble(e, depth+1)
			v.SetMapIndex(k, e)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				scramble(v.Field(i), depth+1)
			}
		}
	}
}

// fill sets every zero value reachable from v to something.
func fill(v reflect.Value, depth int) {
	if depth > maxDepth {
		return
	}
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if v.Int() == 0 {
			v.SetInt(1)
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if v.Uint() == 0 {
			v.SetUint(1)
		}
	case reflect.Float32, reflect.Float64:
		if v.Float() == 0 {
			v.SetFloat(1.5)
		}
	case reflect.String:
		if v.String() == "" {
			v.SetString("x")
		}
	case reflect.Pointer:
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		fill(v.Elem(), depth+1)
	case reflect.Slice:
		if v.Len() == 0 {
			v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		}
		for i := range v.Len() {
			fill(v.Index(i), depth+1)
		}
	case reflect.Array:
		for i := range v.Len() {
			fill(v.Index(i), depth+1)
		}
	case reflect.Map:
		if v.IsNil() {
			v.Set(reflect.MakeMap(v.Type()))
		}
		if v.Len() == 0 {
			k := reflect.New(v.Type().Key()).Elem()
			fill(k, depth+1)
			e := reflect.New(v.Type().Elem()).Elem()
			fill(e, depth+1)
			v.SetMapIndex(k, e)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), depth+1)
			}
		}
	}
}
