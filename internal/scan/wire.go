package scan

import (
	"encoding/json"

	"github.com/realdrift/realdrift/internal/drift"
)

// unknownKey marks a drift.Unknown in the JSON form of declared values: the
// object {"__realdrift_unknown__": {"reason": "...", "secret": true}}.
const unknownKey = "__realdrift_unknown__"

type wireUnknown struct {
	Reason string `json:"reason,omitempty"`
	Secret bool   `json:"secret,omitempty"`
}

// toWire returns v with every drift.Unknown replaced by its marker object
// and every drift.Secret by a secret Unknown marker: a secret value is never
// serialised, and reading it back yields an Unknown (fail closed).
func toWire(v any) any {
	switch t := v.(type) {
	case drift.Unknown:
		reason := t.Reason
		if t.Secret {
			reason = ""
		}
		return map[string]any{unknownKey: wireUnknown{Reason: reason, Secret: t.Secret}}
	case drift.Secret:
		return map[string]any{unknownKey: wireUnknown{Reason: "secret value withheld from storage", Secret: true}}
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[k] = toWire(e)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = toWire(e)
		}
		return out
	}
	return v
}

// fromWire reverses toWire on a value decoded by encoding/json.
func fromWire(v any) any {
	switch t := v.(type) {
	case map[string]any:
		if m, ok := t[unknownKey].(map[string]any); ok && len(t) == 1 {
			u := drift.Unknown{}
			u.Reason, _ = m["reason"].(string)
			u.Secret, _ = m["secret"].(bool)
			return u
		}
		for k, e := range t {
			t[k] = fromWire(e)
		}
		return t
	case []any:
		for i, e := range t {
			t[i] = fromWire(e)
		}
		return t
	}
	return v
}

// declaredJSON is the JSON form of a declared property map.
type declaredJSON map[string]any

// MarshalJSON writes the map with Unknown markers.
func (d declaredJSON) MarshalJSON() ([]byte, error) {
	if d == nil {
		return []byte("null"), nil
	}
	return json.Marshal(toWire(map[string]any(d)))
}

// UnmarshalJSON reads the map back, restoring Unknown values.
func (d *declaredJSON) UnmarshalJSON(b []byte) error {
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	if m == nil {
		*d = nil
		return nil
	}
	*d = fromWire(m).(map[string]any)
	return nil
}
