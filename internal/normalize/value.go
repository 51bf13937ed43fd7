package normalize

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/realdrift/realdrift/internal/drift"
)

// Clone deep-copies a JSON-shaped value.
func Clone(v any) any {
	switch t := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(t))
		for k, e := range t {
			m[k] = Clone(e)
		}
		return m
	case []any:
		s := make([]any, len(t))
		for i, e := range t {
			s[i] = Clone(e)
		}
		return s
	}
	return v
}

// Number returns v as a float64 when it is a JSON number.
func Number(v any) (float64, bool) {
	switch t := v.(type) {
	case float64:
		return t, true
	case int:
		return float64(t), true
	case int64:
		return float64(t), true
	case json.Number:
		f, err := t.Float64()
		return f, err == nil
	}
	return 0, false
}

// Equal reports whether two JSON-shaped values are identical (arrays in
// order, maps by key). Unknown is never equal to anything.
func Equal(a, b any) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case string:
		y, ok := b.(string)
		return ok && x == y
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, e := range x {
			f, ok := y[k]
			if !ok || !Equal(e, f) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !Equal(x[i], y[i]) {
				return false
			}
		}
		return true
	case drift.Unknown:
		return false
	case drift.Secret:
		y, ok := b.(drift.Secret)
		return ok && Equal(x.Value, y.Value)
	}
	if fa, ok := Number(a); ok {
		fb, ok := Number(b)
		return ok && fa == fb
	}
	return false
}

// TriviallyEmpty reports whether v carries no setting: absent, false, "",
// [], or an object whose every value is itself trivially empty.
func TriviallyEmpty(v any) bool {
	switch t := v.(type) {
	case nil:
		return true
	case bool:
		return !t
	case string:
		return t == ""
	case []any:
		return len(t) == 0
	case map[string]any:
		for _, e := range t {
			if !TriviallyEmpty(e) {
				return false
			}
		}
		return true
	}
	return false
}

// Canonical writes v as compact JSON with sorted object keys; it is the sort
// key for unordered object arrays and the identity of a value in tables.
func Canonical(v any) string {
	switch t := v.(type) {
	case bool:
		if t {
			return "true"
		}
		return "false"
	case string:
		var b strings.Builder
		b.Grow(len(t) + 2)
		writeQuoted(&b, t)
		return b.String()
	case nil:
		return "null"
	}
	var b strings.Builder
	b.Grow(64)
	writeCanonical(&b, v)
	return b.String()
}

// writeQuoted writes s as strconv.Quote would, without its per-rune work
// for the common all-printable-ASCII string.
func writeQuoted(b *strings.Builder, s string) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			var buf [64]byte
			b.Write(strconv.AppendQuote(buf[:0], s))
			return
		}
	}
	b.WriteByte('"')
	b.WriteString(s)
	b.WriteByte('"')
}

func writeCanonical(b *strings.Builder, v any) {
	switch t := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		if t {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case string:
		writeQuoted(b, t)
	case map[string]any:
		var small [16]string
		keys := small[:0]
		for k := range t {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			writeQuoted(b, k)
			b.WriteByte(':')
			writeCanonical(b, t[k])
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, e := range t {
			if i > 0 {
				b.WriteByte(',')
			}
			writeCanonical(b, e)
		}
		b.WriteByte(']')
	case drift.Unknown:
		b.WriteString(`"<unresolved>"`)
	case drift.Secret:
		b.WriteString(`"` + drift.Redacted + `"`)
	default:
		if f, ok := Number(v); ok {
			b.WriteString(FormatNumber(f))
			return
		}
		b.WriteString(`"?"`)
	}
}

// FormatNumber renders a JSON number the way the corpus writes it: integers
// without a fraction.
func FormatNumber(f float64) string {
	if f == math.Trunc(f) && math.Abs(f) < 1e15 {
		return strconv.FormatInt(int64(f), 10)
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// ScalarString renders a scalar as the string a stringly-typed API would
// return; ok is false for objects, arrays, nil and sentinels.
func ScalarString(v any) (string, bool) {
	switch t := v.(type) {
	case string:
		return t, true
	case bool:
		return strconv.FormatBool(t), true
	}
	if f, ok := Number(v); ok {
		return FormatNumber(f), true
	}
	return "", false
}

// LookupDotted returns the value at a dotted path (index segments for
// arrays) in m.
func LookupDotted(m map[string]any, path string) (any, bool) {
	var cur any = m
	for _, seg := range strings.Split(path, ".") {
		switch t := cur.(type) {
		case map[string]any:
			v, ok := t[seg]
			if !ok {
				return nil, false
			}
			cur = v
		case []any:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(t) {
				return nil, false
			}
			cur = t[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

// DropNullItems removes null elements from every array of a live model: a
// null item is a reader's placeholder for "nothing", never a value.
func DropNullItems(v any) {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			if a, ok := e.([]any); ok && hasNull(a) {
				t[k] = withoutNulls(a)
				e = t[k]
			}
			DropNullItems(e)
		}
	case []any:
		for _, e := range t {
			DropNullItems(e)
		}
	}
}

func hasNull(a []any) bool {
	for _, e := range a {
		if e == nil {
			return true
		}
	}
	return false
}

func withoutNulls(a []any) []any {
	out := make([]any, 0, len(a))
	for _, e := range a {
		if e != nil {
			out = append(out, e)
		}
	}
	return out
}
