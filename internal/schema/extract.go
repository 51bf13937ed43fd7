package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// ErrNotRegistrySchema reports a document that is not a CloudFormation
// registry resource schema (no typeName or no properties).
var ErrNotRegistrySchema = errors.New("not a registry resource schema")

// ErrTooComplex reports a schema whose property tree is too large to walk;
// its facts would be incomplete, so none are given.
var ErrTooComplex = errors.New("registry schema too complex to walk")

// handlerOrder is the canonical order of Facts.Handlers.
func handlerOrder() []string { return []string{"create", "read", "update", "delete", "list"} }

// rawSchema is the part of a registry provider schema the extraction reads.
type rawSchema struct {
	TypeName                        string            `json:"typeName"`
	Properties                      map[string]any    `json:"properties"`
	Definitions                     map[string]any    `json:"definitions"`
	ReadOnlyProperties              []string          `json:"readOnlyProperties"`
	WriteOnlyProperties             []string          `json:"writeOnlyProperties"`
	CreateOnlyProperties            []string          `json:"createOnlyProperties"`
	ConditionalCreateOnlyProperties []string          `json:"conditionalCreateOnlyProperties"`
	PrimaryIdentifier               []string          `json:"primaryIdentifier"`
	AdditionalIdentifiers           [][]string        `json:"additionalIdentifiers"`
	PropertyTransform               map[string]string `json:"propertyTransform"`
	Handlers                        map[string]struct {
		Permissions []string `json:"permissions"`
	} `json:"handlers"`
	Tagging  *rawTagging `json:"tagging"`
	Taggable *bool       `json:"taggable"`
}

type rawTagging struct {
	Taggable    *bool  `json:"taggable"`
	TagProperty string `json:"tagProperty"`
}

// FromRegistry extracts the facts of one raw registry schema document (the
// JSON CloudFormation DescribeType returns in Schema).
func FromRegistry(doc []byte) (Facts, error) {
	_, f, err := ParseRegistry(doc)
	return f, err
}

// ParseRegistry is FromRegistry that also returns the schema's typeName.
func ParseRegistry(doc []byte) (typeName string, f Facts, err error) {
	var raw rawSchema
	dec := json.NewDecoder(bytes.NewReader(doc))
	if err := dec.Decode(&raw); err != nil {
		return "", Facts{}, fmt.Errorf("decode registry schema: %w", err)
	}
	if raw.TypeName == "" || raw.Properties == nil {
		return "", Facts{}, ErrNotRegistrySchema
	}
	f, err = extract(&raw)
	if err != nil {
		return "", Facts{}, fmt.Errorf("%s: %w", raw.TypeName, err)
	}
	return raw.TypeName, f, nil
}

func extract(raw *rawSchema) (Facts, error) {
	f := Facts{
		ReadOnlyPaths:              pointerPaths(raw.ReadOnlyProperties),
		WriteOnlyPaths:             pointerPaths(raw.WriteOnlyProperties),
		CreateOnlyPaths:            pointerPaths(raw.CreateOnlyProperties),
		ConditionalCreateOnlyPaths: pointerPaths(raw.ConditionalCreateOnlyProperties),
		Defaults:                   map[string]any{},
	}
	f.ReadOnly = topLevel(f.ReadOnlyPaths)
	f.WriteOnly = topLevel(f.WriteOnlyPaths)
	f.CreateOnly = topLevel(f.CreateOnlyPaths)
	if len(f.ConditionalCreateOnlyPaths) == 0 {
		f.ConditionalCreateOnlyPaths = nil
	}

	f.PrimaryIdentifier = identifierPaths(raw.PrimaryIdentifier)
	for _, ids := range raw.AdditionalIdentifiers {
		if p := identifierPaths(ids); len(p) > 0 {
			f.AdditionalIdentifiers = append(f.AdditionalIdentifiers, p)
		}
	}
	for ptr, expr := range raw.PropertyTransform {
		p, ok := pointerPath(ptr)
		if !ok {
			continue
		}
		if f.PropertyTransforms == nil {
			f.PropertyTransforms = map[string]string{}
		}
		f.PropertyTransforms[p] = expr
	}
	for _, h := range handlerOrder() {
		if hd, ok := raw.Handlers[h]; ok {
			f.Handlers = append(f.Handlers, h)
			if len(hd.Permissions) > 0 {
				if f.HandlerPermissions == nil {
					f.HandlerPermissions = map[string][]string{}
				}
				f.HandlerPermissions[h] = slices.Compact(slices.Sorted(slices.Values(hd.Permissions)))
			}
		}
	}
	f.Taggable = true
	switch {
	case raw.Tagging != nil && raw.Tagging.Taggable != nil:
		f.Taggable = *raw.Tagging.Taggable
	case raw.Tagging == nil && raw.Taggable != nil:
		f.Taggable = *raw.Taggable
	}
	if f.Taggable {
		if raw.Tagging != nil && raw.Tagging.TagProperty != "" {
			if p, ok := pointerPath(raw.Tagging.TagProperty); ok {
				f.TagProperty = p
			}
		} else if _, ok := raw.Properties["Tags"]; ok {
			f.TagProperty = "Tags"
		}
	}

	w := newWalker(raw)
	w.walkProperties(raw.Properties)
	if w.exhausted {
		return Facts{}, ErrTooComplex
	}
	f.DefaultPaths = w.defaults
	for p, v := range w.defaults {
		if !strings.Contains(p, ".") {
			f.Defaults[p] = v
		}
	}
	if len(f.DefaultPaths) == 0 {
		f.DefaultPaths = nil
	}
	f.UnorderedScalarPaths = sortedKeys(w.unorderedScalar)
	f.UnorderedObjectArrayPaths = sortedKeys(w.unorderedObject)
	f.FreeFormMapPaths = sortedKeys(w.freeForm)
	return f, nil
}

// pointerPath turns a schema JSON pointer ("/properties/A/B/*/C") into a
// dotted path ("A.B.*.C"). Pointers outside /properties are rejected.
func pointerPath(ptr string) (string, bool) {
	s := strings.TrimPrefix(ptr, "/")
	s, ok := strings.CutPrefix(s, "properties/")
	if !ok || s == "" {
		return "", false
	}
	segs := strings.Split(s, "/")
	for i, seg := range segs {
		segs[i] = strings.ReplaceAll(strings.ReplaceAll(seg, "~1", "/"), "~0", "~")
	}
	return strings.Join(segs, "."), true
}

// pointerPaths converts, de-duplicates and sorts; never nil.
func pointerPaths(ptrs []string) []string {
	set := map[string]struct{}{}
	for _, ptr := range ptrs {
		if p, ok := pointerPath(ptr); ok {
			set[p] = struct{}{}
		}
	}
	out := sortedKeys(set)
	if out == nil {
		out = []string{}
	}
	return out
}

// identifierPaths converts an identifier in schema order (order is
// meaningful: it is the order of a composite Cloud Control identifier).
func identifierPaths(ptrs []string) []string {
	var out []string
	for _, ptr := range ptrs {
		if p, ok := pointerPath(ptr); ok {
			out = append(out, p)
		}
	}
	return out
}

// topLevel returns the paths that name a top-level property; never nil.
func topLevel(paths []string) []string {
	out := []string{}
	for _, p := range paths {
		if !strings.Contains(p, ".") {
			out = append(out, p)
		}
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	if len(m) == 0 {
		return nil
	}
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
