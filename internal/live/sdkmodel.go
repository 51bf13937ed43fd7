package live

import (
	"reflect"
	"strings"
	"time"
)

// sdkModel projects an aws-sdk-go-v2 output structure into a model keyed
// by the SDK's Go field names, which for many services are the
// CloudFormation property names too: a nil pointer, nil slice, nil map
// and an empty enum string are absent (the API did not answer them); an
// empty but present list stays an empty list; numbers are float64, as
// JSON decodes them; times, documents, unions, blobs and unexported fields are left out
// (no template declares them). Renames and drops per type are the
// caller's, on the result.
func sdkModel(v any) map[string]any {
	m, _ := sdkValue(reflect.ValueOf(v)).(map[string]any)
	return m
}

var timeType = reflect.TypeOf(time.Time{})

// sdkValue converts one value; nil means absent.
func sdkValue(v reflect.Value) any {
	switch v.Kind() {
	case reflect.Interface:
		return nil // documents and unions: no template shape to give them
	case reflect.Pointer:
		if v.IsNil() {
			return nil
		}
		return sdkValue(v.Elem())
	case reflect.Struct:
		if v.Type() == timeType {
			return nil
		}
		m := map[string]any{}
		t := v.Type()
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if !f.IsExported() || strings.HasPrefix(f.Type.PkgPath(), "github.com/aws/smithy-go") {
				continue // unexported, and the operation's ResultMetadata
			}
			if x := sdkValue(v.Field(i)); x != nil {
				m[f.Name] = x
			}
		}
		return m
	case reflect.Slice:
		if v.IsNil() {
			return nil
		}
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return nil // blobs
		}
		out := make([]any, 0, v.Len())
		for i := 0; i < v.Len(); i++ {
			if x := sdkValue(v.Index(i)); x != nil {
				out = append(out, x)
			}
		}
		return out
	case reflect.Map:
		if v.IsNil() {
			return nil
		}
		out := map[string]any{}
		for _, k := range v.MapKeys() {
			if k.Kind() != reflect.String {
				return nil
			}
			if x := sdkValue(v.MapIndex(k)); x != nil {
				out[k.String()] = x
			}
		}
		return out
	case reflect.String:
		if v.String() == "" {
			return nil
		}
		return v.String()
	case reflect.Bool:
		return v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return float64(v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return float64(v.Uint())
	case reflect.Float32, reflect.Float64:
		return v.Float()
	}
	return nil
}

// renameKey moves m[from] to m[to] when present.
func renameKey(m map[string]any, from, to string) {
	if v, ok := m[from]; ok {
		delete(m, from)
		m[to] = v
	}
}

// dropKeys removes keys from m.
func dropKeys(m map[string]any, keys ...string) {
	for _, k := range keys {
		delete(m, k)
	}
}

// objectAt returns m[k] when it is an object.
func objectAt(m map[string]any, k string) map[string]any {
	o, _ := m[k].(map[string]any)
	return o
}

// objectsAt returns the objects of the list m[k].
func objectsAt(m map[string]any, k string) []map[string]any {
	l, _ := m[k].([]any)
	var out []map[string]any
	for _, e := range l {
		if o, ok := e.(map[string]any); ok {
			out = append(out, o)
		}
	}
	return out
}
