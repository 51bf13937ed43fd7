package intrinsic

import (
	"strconv"

	"github.com/realdrift/realdrift/internal/drift"
)

// noValue is what Ref AWS::NoValue resolves to. Maps and lists drop it; it
// never leaves the package.
type noValue struct{}

func unknown(reason string) drift.Unknown { return drift.Unknown{Reason: reason} }

// findUnknown reports whether v holds an Unknown at any depth (inside
// Secrets too), returning the first one found with Secret set if any of
// them is secret-bearing.
func findUnknown(v any) (drift.Unknown, bool) {
	var (
		first drift.Unknown
		found bool
	)
	var walk func(any)
	walk = func(v any) {
		switch t := v.(type) {
		case drift.Unknown:
			if !found {
				first, found = t, true
			}
			first.Secret = first.Secret || t.Secret
		case drift.Secret:
			walk(t.Value)
		case map[string]any:
			for _, e := range t {
				walk(e)
			}
		case []any:
			for _, e := range t {
				walk(e)
			}
		}
	}
	walk(v)
	return first, found
}

// strip returns v with every Secret wrapper removed, and whether there was
// one. The result does not alias v's maps and lists.
func strip(v any) (any, bool) {
	switch t := v.(type) {
	case drift.Secret:
		inner, _ := strip(t.Value)
		return inner, true
	case map[string]any:
		out := make(map[string]any, len(t))
		secret := false
		for k, e := range t {
			s, sec := strip(e)
			out[k] = s
			secret = secret || sec
		}
		return out, secret
	case []any:
		out := make([]any, len(t))
		secret := false
		for i, e := range t {
			s, sec := strip(e)
			out[i] = s
			secret = secret || sec
		}
		return out, secret
	}
	return v, false
}

// taint marks a result computed from a secret input.
func taint(v any, secret bool) any {
	if !secret {
		return v
	}
	switch t := v.(type) {
	case drift.Unknown:
		t.Secret = true
		return t
	case drift.Secret:
		return t
	}
	return drift.Secret{Value: v}
}

// clone deep-copies a JSON-shaped value.
func clone(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[k] = clone(e)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = clone(e)
		}
		return out
	}
	return v
}

// literal copies plain template data (a mapping value), turning strings
// that hold a dynamic reference into Unknown.
func literal(v any) any {
	switch t := v.(type) {
	case string:
		if u, ok := dynamicRef(t); ok {
			return u
		}
		return t
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[k] = literal(e)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = literal(e)
		}
		return out
	}
	return v
}

// text renders a scalar as CloudFormation does where a string is needed.
func text(v any) (string, bool) {
	switch t := v.(type) {
	case string:
		return t, true
	case float64:
		return strconv.FormatFloat(t, 'f', -1, 64), true
	case bool:
		return strconv.FormatBool(t), true
	}
	return "", false
}

// integer reads a list index or count written as a number or numeric text.
func integer(v any) (int, bool) {
	switch t := v.(type) {
	case float64:
		if t != float64(int(t)) || t < 0 || t > 1<<30 {
			return 0, false
		}
		return int(t), true
	case string:
		n, err := strconv.Atoi(t)
		if err != nil || n < 0 || n > 1<<30 {
			return 0, false
		}
		return n, true
	}
	return 0, false
}

// CountUnknown counts the drift.Unknown leaves in v (the UNRESOLVED leaves).
func CountUnknown(v any) int {
	switch t := v.(type) {
	case drift.Unknown:
		return 1
	case drift.Secret:
		return CountUnknown(t.Value)
	case map[string]any:
		n := 0
		for _, e := range t {
			n += CountUnknown(e)
		}
		return n
	case []any:
		n := 0
		for _, e := range t {
			n += CountUnknown(e)
		}
		return n
	}
	return 0
}
