package baseline

import (
	"encoding/json"
	"strconv"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/normalize"
)

// Options are the pluggable facts Apply and Record use.
type Options struct {
	// Canon canonicalises a value before two values are compared. Nil
	// means normalize.ForCompare, the classifier's order canonicalisation
	// (tag and id arrays sorted).
	Canon func(v any) any
	// Default returns the AWS default pinned for an observed-default path;
	// it becomes Desired of an "observed default deleted" finding. Nil means
	// no pin is known (Desired stays absent).
	Default func(resourceType, path string) (any, bool)
}

// Equal reports whether a recorded value and a live value are the same
// after canonicalisation. Numbers compare by value whatever their Go type;
// a Secret compares by what it holds.
func (o Options) Equal(recorded, live any) bool {
	canon := o.Canon
	if canon == nil {
		canon = normalize.ForCompare
	}
	return equalJSON(plain(canon(recorded)), plain(canon(live)))
}

// plain unwraps Secret and turns every number into float64 (or keeps an
// unparsable json.Number as its text).
func plain(v any) any {
	switch t := v.(type) {
	case drift.Secret:
		return plain(t.Value)
	case json.Number:
		if f, err := strconv.ParseFloat(string(t), 64); err == nil {
			return f
		}
		return string(t)
	case int:
		return float64(t)
	case int64:
		return float64(t)
	case float32:
		return float64(t)
	case map[string]any:
		m := make(map[string]any, len(t))
		for k, e := range t {
			m[k] = plain(e)
		}
		return m
	case []any:
		s := make([]any, len(t))
		for i, e := range t {
			s[i] = plain(e)
		}
		return s
	}
	return v
}

func equalJSON(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, e := range x {
			f, ok := y[k]
			if !ok || !equalJSON(e, f) {
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
			if !equalJSON(x[i], y[i]) {
				return false
			}
		}
		return true
	case drift.Unknown:
		return false // cannot compare: never "equal"
	case nil, bool, float64, string:
		return a == b
	}
	return false
}
