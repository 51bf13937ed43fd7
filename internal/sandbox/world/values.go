package world

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"time"
)

// Objects returns the objects of a decoded JSON list.
func Objects(v any) []map[string]any {
	l, _ := v.([]any)
	var out []map[string]any
	for _, e := range l {
		if m, ok := e.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

func Object(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

// FieldObject decodes a resource's whole model, numbers as json.Number
// (their text kept).
func FieldObject(res *Resource) (map[string]any, error) {
	var m map[string]any
	d := json.NewDecoder(bytes.NewReader(res.Properties))
	d.UseNumber()
	err := d.Decode(&m)
	return m, err
}

// UUIDFrom returns a UUID-shaped id derived from s.
func UUIDFrom(s string) string {
	sum := sha256.Sum256([]byte(s))
	h := hex.EncodeToString(sum[:16])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}

// DefaultTime stands in for a stack time the world leaves out.
var DefaultTime = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// AttrKind is how a queue or topic attribute maps to its property.
type AttrKind int

const (
	AttrString AttrKind = iota
	AttrNumber
	AttrBool
	AttrJSON // a JSON object property sent as JSON text
)

// AttrText renders a property value as its attribute string.
func AttrText(v any, kind AttrKind) string {
	switch t := v.(type) {
	case string:
		return t
	case bool:
		return strconv.FormatBool(t)
	case float64:
		return strconv.FormatFloat(t, 'f', -1, 64)
	case nil:
		return ""
	}
	b, _ := MarshalNoEscape(v)
	return string(b)
}

// AttrValue parses an attribute string into its property value.
func AttrValue(text string, kind AttrKind) (any, bool) {
	switch kind {
	case AttrNumber:
		n, err := strconv.ParseFloat(text, 64)
		return n, err == nil
	case AttrBool:
		b, err := strconv.ParseBool(text)
		return b, err == nil
	case AttrJSON:
		var v map[string]any
		return v, json.Unmarshal([]byte(text), &v) == nil
	}
	return text, true
}

// SortedByID orders resources by their Cloud Control identifier.
func SortedByID(rs []*Resource) []*Resource {
	byID := map[string]*Resource{}
	for _, r := range rs {
		byID[r.CCID()] = r
	}
	out := make([]*Resource, 0, len(rs))
	for _, id := range SortedKeys(byID) {
		out = append(out, byID[id])
	}
	return out
}

// ScalarString is a scalar parameter value as the parameter APIs answer
// it: a string as it is, any other value as its JSON text.
func ScalarString(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, _ := json.Marshal(v)
	return string(b)
}
