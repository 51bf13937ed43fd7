package cloudformation

import (
	"strings"

	"github.com/realdrift/realdrift/internal/sandbox/world"
	"github.com/realdrift/realdrift/internal/schema"
)

// sandboxHandlers are the Cloud Control handlers this sandbox serves for a
// readable type whose facts list none.
var sandboxHandlers = []string{"read", "update", "delete", "list"}

// handlersOf returns the handlers a type has here: its facts' list when
// known — the pinned schema's, whether or not the world serves the type's
// reads, as AWS answers DescribeType — else what the sandbox serves (no
// read or list handler for a type the world cannot read).
func handlersOf(f *schema.Facts, readable bool) []string {
	if len(f.Handlers) > 0 {
		return f.Handlers
	}
	var out []string
	for _, h := range sandboxHandlers {
		if !readable && (h == "read" || h == "list") {
			continue
		}
		out = append(out, h)
	}
	return out
}

func provisioningType(f *schema.Facts) string {
	if len(f.Handlers) == 0 {
		return "FULLY_MUTABLE"
	}
	switch {
	case !f.Provisionable():
		return "NON_PROVISIONABLE"
	case !f.Updatable():
		return "IMMUTABLE"
	}
	return "FULLY_MUTABLE"
}

// registrySchema synthesizes a registry-format schema document from schema
// facts only: property skeletons for every path the facts name (with
// defaults and insertionOrder), the identifier and read-only / write-only /
// create-only pointer lists, handlers and tagging. It invents no property
// the facts do not name.
func registrySchema(typeName string, f *schema.Facts, readable bool) ([]byte, error) {
	root := map[string]any{}
	node := func(path string) map[string]any {
		cur := root
		for i, seg := range strings.Split(path, ".") {
			if seg == "*" {
				cur["type"] = "array"
				items, _ := cur["items"].(map[string]any)
				if items == nil {
					items = map[string]any{}
					cur["items"] = items
				}
				cur = items
				continue
			}
			ps, _ := cur["properties"].(map[string]any)
			if ps == nil {
				ps = map[string]any{}
				cur["properties"] = ps
				if _, ok := cur["type"]; !ok && i > 0 {
					cur["type"] = "object"
				}
			}
			next, _ := ps[seg].(map[string]any)
			if next == nil {
				next = map[string]any{}
				ps[seg] = next
			}
			cur = next
		}
		return cur
	}
	lists := [][]string{f.ReadOnly, f.WriteOnly, f.CreateOnly, f.ReadOnlyPaths, f.WriteOnlyPaths, f.CreateOnlyPaths, f.ConditionalCreateOnlyPaths, f.PrimaryIdentifier}
	lists = append(lists, f.AdditionalIdentifiers...)
	for _, l := range lists {
		for _, p := range l {
			node(p)
		}
	}
	for k, v := range f.Defaults {
		node(k)["default"] = v
	}
	for k, v := range f.DefaultPaths {
		node(k)["default"] = v
	}
	for _, p := range append(append([]string(nil), f.UnorderedScalarPaths...), f.UnorderedObjectArrayPaths...) {
		n := node(p)
		n["type"] = "array"
		n["insertionOrder"] = false
	}
	for _, p := range f.FreeFormMapPaths {
		n := node(p)
		if _, ok := n["properties"]; !ok {
			n["type"] = "object"
		}
	}
	if f.TagProperty != "" {
		node(f.TagProperty)
	}
	props, _ := root["properties"].(map[string]any)
	if props == nil {
		props = map[string]any{}
	}
	doc := map[string]any{
		"typeName":             typeName,
		"description":          "Schema facts of " + typeName + " as served by the realdrift sandbox.",
		"additionalProperties": false,
		"properties":           props,
	}
	ptrs := func(key string, paths ...[]string) {
		seen := map[string]bool{}
		var out []string
		for _, l := range paths {
			for _, p := range l {
				ptr := "/properties/" + strings.ReplaceAll(p, ".", "/")
				if !seen[ptr] {
					seen[ptr] = true
					out = append(out, ptr)
				}
			}
		}
		if len(out) > 0 {
			doc[key] = out
		}
	}
	ptrs("readOnlyProperties", f.ReadOnly, f.ReadOnlyPaths)
	ptrs("writeOnlyProperties", f.WriteOnly, f.WriteOnlyPaths)
	ptrs("createOnlyProperties", f.CreateOnly, f.CreateOnlyPaths)
	ptrs("conditionalCreateOnlyProperties", f.ConditionalCreateOnlyPaths)
	ptrs("primaryIdentifier", f.PrimaryIdentifier)
	var adds [][]string
	for _, ids := range f.AdditionalIdentifiers {
		var l []string
		for _, p := range ids {
			l = append(l, "/properties/"+strings.ReplaceAll(p, ".", "/"))
		}
		adds = append(adds, l)
	}
	if len(adds) > 0 {
		doc["additionalIdentifiers"] = adds
	}
	hs := map[string]any{}
	for _, h := range handlersOf(f, readable) {
		hs[h] = map[string]any{"permissions": []string{}}
	}
	if len(hs) > 0 {
		doc["handlers"] = hs
	}
	if len(f.PropertyTransforms) > 0 {
		pt := map[string]string{}
		for k, v := range f.PropertyTransforms {
			pt["/properties/"+strings.ReplaceAll(k, ".", "/")] = v
		}
		doc["propertyTransform"] = pt
	}
	if f.Taggable || f.TagProperty != "" {
		tagging := map[string]any{"taggable": f.Taggable}
		if f.TagProperty != "" {
			tagging["tagProperty"] = "/properties/" + strings.ReplaceAll(f.TagProperty, ".", "/")
		}
		doc["tagging"] = tagging
	}
	return world.MarshalNoEscape(doc)
}
