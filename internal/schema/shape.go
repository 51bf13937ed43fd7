package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// shapeKeywords are the JSON Schema keywords Shape keeps: what a value's
// structure is (types, members, items, enumerations, ranges, lengths,
// counts, combinations and references). Descriptions, handlers, path
// lists, tagging and patterns are left out (a registry pattern is often
// not an RE2 expression).
var shapeKeywords = map[string]bool{
	"type": true, "properties": true, "items": true, "additionalProperties": true,
	"patternProperties": true, "enum": true, "const": true, "oneOf": true, "anyOf": true,
	"allOf": true, "$ref": true, "definitions": true, "required": true,
	"minimum": true, "maximum": true, "minLength": true, "maxLength": true,
	"minItems": true, "maxItems": true,
}

// Shape returns the structural part of one raw registry schema document
// as a JSON Schema (draft 7) a live model can be validated against: the
// keywords shapeKeywords lists, at every depth. A Cloud Control model
// never carries write-only properties, so the names of write-only
// properties are dropped from every required list; an object property
// whose every member is write-only (Lambda's Code: ZipFile, S3Bucket, …)
// is write-only itself, as nothing of it can be read back. Property names and
// definition names are kept as they are, whatever they are called; a
// patternProperties pattern that is not an RE2 expression becomes one
// matching any name.
func Shape(doc []byte) (typeName string, shape json.RawMessage, err error) {
	var raw map[string]any
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	if err := dec.Decode(&raw); err != nil {
		return "", nil, fmt.Errorf("decode registry schema: %w", err)
	}
	name, _ := raw["typeName"].(string)
	if name == "" || raw["properties"] == nil {
		return "", nil, ErrNotRegistrySchema
	}
	writeOnly := map[string]bool{}
	paths := map[string]bool{}
	if wo, ok := raw["writeOnlyProperties"].([]any); ok {
		for _, p := range wo {
			if s, ok := p.(string); ok {
				writeOnly[s[strings.LastIndex(s, "/")+1:]] = true
				paths[s] = true
			}
		}
	}
	defs, _ := raw["definitions"].(map[string]any)
	props, _ := raw["properties"].(map[string]any)
	for name, node := range props {
		if allWriteOnly("/properties/"+name, node, paths, defs, 0) {
			writeOnly[name] = true
		}
	}
	out := keep(raw, writeOnly).(map[string]any)
	out["$schema"] = "http://json-schema.org/draft-07/schema#"
	b, err := json.Marshal(out)
	if err != nil {
		return "", nil, err
	}
	return name, b, nil
}

// allWriteOnly reports whether the property at path (a
// writeOnlyProperties pointer) is write-only: listed, or an object (after
// a local $ref) with members, every one of them write-only.
func allWriteOnly(path string, node any, paths map[string]bool, defs map[string]any, depth int) bool {
	if paths[path] {
		return true
	}
	m, ok := node.(map[string]any)
	if !ok || depth > 8 {
		return false
	}
	if ref, ok := m["$ref"].(string); ok {
		if d, ok := defs[strings.TrimPrefix(ref, "#/definitions/")]; ok && strings.HasPrefix(ref, "#/definitions/") {
			return allWriteOnly(path, d, paths, defs, depth+1)
		}
		return false
	}
	props, ok := m["properties"].(map[string]any)
	if !ok || len(props) == 0 {
		return false
	}
	for k, sub := range props {
		if !allWriteOnly(path+"/"+k, sub, paths, defs, depth+1) {
			return false
		}
	}
	return true
}

// anyName is the pattern a patternProperties key Go's regexp cannot
// compile (a look-ahead) is replaced with: the shape then accepts any
// name there, never less than the registry does.
const anyName = "^.*$"

// keep copies a schema node with only the shape keywords.
func keep(v any, writeOnly map[string]bool) any {
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	out := map[string]any{}
	for k, x := range m {
		if !shapeKeywords[k] {
			continue
		}
		switch k {
		case "properties", "patternProperties", "definitions":
			sub, ok := x.(map[string]any)
			if !ok {
				continue
			}
			kept := map[string]any{}
			for n, s := range sub {
				if k == "patternProperties" {
					if _, err := regexp.Compile(n); err != nil {
						n = anyName // not RE2 (a look-ahead): any name
					}
				}
				kept[n] = keep(s, writeOnly)
			}
			out[k] = kept
		case "items", "additionalProperties":
			out[k] = keep(x, writeOnly)
		case "oneOf", "anyOf", "allOf":
			list, ok := x.([]any)
			if !ok {
				continue
			}
			kept := make([]any, len(list))
			for i, s := range list {
				kept[i] = keep(s, writeOnly)
			}
			out[k] = kept
		case "required":
			list, _ := x.([]any)
			var kept []any
			for _, r := range list {
				if s, ok := r.(string); ok && !writeOnly[s] {
					kept = append(kept, s)
				}
			}
			if len(kept) > 0 {
				out[k] = kept
			}
		default:
			out[k] = x
		}
	}
	return out
}
