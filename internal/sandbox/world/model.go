package world

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// The service APIs read and write the same live models Cloud Control
// serves. These helpers address one top-level field of a model while
// keeping the other fields' bytes and order.

// field returns a top-level field's JSON, or nil.
func Field(res *Resource, name string) json.RawMessage {
	if res == nil || len(res.Properties) == 0 {
		return nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(res.Properties, &m); err != nil {
		return nil
	}
	return m[name]
}

// fieldString returns a top-level string field ("" when absent or not a
// string).
func FieldString(res *Resource, name string) string {
	var s string
	if b := Field(res, name); b != nil {
		_ = json.Unmarshal(b, &s)
	}
	return s
}

// fieldStrings returns a top-level field that is a string or a list of
// strings.
func FieldStrings(res *Resource, name string) []string {
	b := Field(res, name)
	if b == nil {
		return nil
	}
	var one string
	if json.Unmarshal(b, &one) == nil {
		return []string{one}
	}
	var many []any
	if json.Unmarshal(b, &many) != nil {
		return nil
	}
	var out []string
	for _, e := range many {
		if s, ok := e.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// fieldValue decodes a top-level field (nil when absent).
func FieldValue(res *Resource, name string) any {
	b := Field(res, name)
	if b == nil {
		return nil
	}
	var v any
	_ = json.Unmarshal(b, &v)
	return v
}

// setField sets a top-level field to v (a Go value or json.RawMessage).
func SetField(res *Resource, name string, v any) error {
	b, ok := v.(json.RawMessage)
	if !ok {
		var err error
		if b, err = MarshalNoEscape(v); err != nil {
			return err
		}
	}
	ptr := ToPointer(name)
	out, err := PatchOne(res.Properties, "replace", ptr, b)
	if err != nil {
		out, err = PatchOne(res.Properties, "add", ptr, b)
	}
	if err != nil {
		return fmt.Errorf("set %s: %w", name, err)
	}
	m, err := Compact(out)
	if err != nil {
		return err
	}
	res.Properties = m
	return nil
}

// removeField removes a top-level field; an absent field is no error.
func RemoveField(res *Resource, name string) error {
	if Field(res, name) == nil {
		return nil
	}
	out, err := PatchOne(res.Properties, "remove", ToPointer(name), nil)
	if err != nil {
		return fmt.Errorf("remove %s: %w", name, err)
	}
	m, err := Compact(out)
	if err != nil {
		return err
	}
	res.Properties = m
	return nil
}

// compactJSON returns JSON text without insignificant space.
func CompactJSON(b []byte) string {
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		return string(b)
	}
	return buf.String()
}

// contains reports whether list holds s.
func Contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

// arnTail returns what follows the last occurrence of marker in s, or s.
func ARNTail(s, marker string) string {
	if i := strings.LastIndex(s, marker); i >= 0 {
		return s[i+len(marker):]
	}
	return s
}
