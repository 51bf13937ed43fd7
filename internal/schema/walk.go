package schema

import (
	"strings"
)

// combinators are the schema keywords whose members describe the same
// value; the walk visits every member at the node's own path.
func combinators() []string { return []string{"oneOf", "anyOf", "allOf"} }

// walker visits every property node of one schema, following
// "#/definitions/..." references with a cycle guard, and collects the
// path-shaped facts.
type walker struct {
	root   map[string]any
	active map[string]bool
	// budget is the visits left; exhausted records that it ran out.
	budget    int
	exhausted bool

	defaults        map[string]any
	unorderedScalar map[string]struct{}
	unorderedObject map[string]struct{}
	freeForm        map[string]struct{}
}

// walkBudget bounds the node visits of one schema. Distinct reference
// paths can fan out combinatorially even with the cycle guard; the largest
// published schemas (QuickSight dashboards) need about 27,000 visits.
const walkBudget = 250_000

func newWalker(raw *rawSchema) *walker {
	return &walker{
		root: map[string]any{
			"properties":  raw.Properties,
			"definitions": raw.Definitions,
		},
		active:          map[string]bool{},
		budget:          walkBudget,
		defaults:        map[string]any{},
		unorderedScalar: map[string]struct{}{},
		unorderedObject: map[string]struct{}{},
		freeForm:        map[string]struct{}{},
	}
}

func (w *walker) walkProperties(props map[string]any) {
	for name, n := range props {
		w.visit(name, n)
	}
}

// visit collects the facts of the node at path and descends into it.
func (w *walker) visit(path string, n any) {
	if w.budget <= 0 {
		w.exhausted = true
		return
	}
	w.budget--
	node, release, ok := w.deref(n)
	if !ok {
		return
	}
	defer release()

	if d, ok := node["default"]; ok {
		if v, ok := coerceDefault(d, node); ok {
			w.defaults[path] = v
		}
	}
	props, _ := node["properties"].(map[string]any)
	for name, child := range props {
		w.visit(path+"."+name, child)
	}
	if items, ok := node["items"]; ok {
		if io, ok := node["insertionOrder"].(bool); ok && !io && !strings.Contains(path, "*") {
			switch w.itemShape(items) {
			case shapeScalar:
				w.unorderedScalar[path] = struct{}{}
			case shapeObject:
				if !isTags(path) {
					w.unorderedObject[path] = struct{}{}
				}
			}
		}
		w.visit(path+".*", items)
	}
	if isFreeFormMap(node, props) && !isTags(path) {
		w.freeForm[path] = struct{}{}
	}
	for _, k := range combinators() {
		members, _ := node[k].([]any)
		for _, m := range members {
			w.visit(path, m)
		}
	}
}

// deref resolves a node's $ref chain. Keywords beside a $ref override the
// referenced ones, except "default". ok is false for a non-object node, a dangling reference
// or a reference already being walked (a cycle); otherwise release must be
// called when the node's subtree is done.
func (w *walker) deref(n any) (node map[string]any, release func(), ok bool) {
	node, ok = n.(map[string]any)
	if !ok {
		return nil, nil, false
	}
	var taken []string
	release = func() {
		for _, r := range taken {
			delete(w.active, r)
		}
	}
	for {
		ref, isRef := node["$ref"].(string)
		if !isRef {
			return node, release, true
		}
		if w.active[ref] {
			release()
			return nil, nil, false
		}
		target, found := w.pointer(ref)
		if !found {
			release()
			return nil, nil, false
		}
		w.active[ref] = true
		taken = append(taken, ref)
		merged := make(map[string]any, len(target)+len(node))
		for k, v := range target {
			merged[k] = v
		}
		for k, v := range node {
			// A default written beside a $ref is not taken: the reference
			// tool's facts never carry one, and a missing default only
			// makes the classifier report more, never hide drift.
			if k != "$ref" && k != "default" {
				merged[k] = v
			}
		}
		node = merged
	}
}

// pointer resolves a local JSON pointer reference ("#/definitions/X/...").
func (w *walker) pointer(ref string) (map[string]any, bool) {
	rest, ok := strings.CutPrefix(ref, "#/")
	if !ok {
		return nil, false
	}
	var cur any = w.root
	for _, seg := range strings.Split(rest, "/") {
		seg = strings.ReplaceAll(strings.ReplaceAll(seg, "~1", "/"), "~0", "~")
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		cur, ok = m[seg]
		if !ok {
			return nil, false
		}
	}
	m, ok := cur.(map[string]any)
	return m, ok
}

type shape int

const (
	shapeUnknown shape = iota
	shapeScalar
	shapeObject
	// shapeKeyedObject is an object item with an identity field: such
	// arrays are aligned by that field, not treated as unordered sets.
	shapeKeyedObject
)

// identityFields name the properties that identify an array item.
func identityFields() []string {
	return []string{"Key", "Id", "Name", "AttributeName", "IndexName"}
}

// itemShape tells whether array items are scalars or objects, looking
// through references and combinators.
func (w *walker) itemShape(n any) shape {
	node, release, ok := w.deref(n)
	if !ok {
		return shapeUnknown
	}
	defer release()
	ts := types(node)
	switch {
	case ts["object"] || node["properties"] != nil:
		props, _ := node["properties"].(map[string]any)
		for _, id := range identityFields() {
			if _, ok := props[id]; ok {
				return shapeKeyedObject
			}
		}
		return shapeObject
	case ts["string"] || ts["number"] || ts["integer"] || ts["boolean"]:
		return shapeScalar
	case node["enum"] != nil:
		return shapeScalar
	}
	for _, k := range combinators() {
		members, _ := node[k].([]any)
		for _, m := range members {
			if s := w.itemShape(m); s != shapeUnknown {
				return s
			}
		}
	}
	return shapeUnknown
}

// isFreeFormMap reports an object node with no fixed properties whose keys
// are the user's: it has patternProperties or an object-valued
// additionalProperties. A bare {"type": "object"} (a policy document, an
// opaque blob) is not a map, nor is a node that may also be a string.
func isFreeFormMap(node, props map[string]any) bool {
	ts := types(node)
	if len(props) > 0 || !ts["object"] || ts["string"] {
		return false
	}
	if pp, ok := node["patternProperties"].(map[string]any); ok && len(pp) > 0 {
		return true
	}
	_, ok := node["additionalProperties"].(map[string]any)
	return ok
}

// types returns the node's JSON types ("type" may be a string or a list).
func types(node map[string]any) map[string]bool {
	out := map[string]bool{}
	switch t := node["type"].(type) {
	case string:
		out[t] = true
	case []any:
		for _, x := range t {
			if s, ok := x.(string); ok {
				out[s] = true
			}
		}
	}
	return out
}

// isTags reports a path naming a Tags property: tag bags are aligned by
// key wherever they are, never treated as maps or unordered sets.
func isTags(path string) bool {
	if i := strings.LastIndexByte(path, '.'); i >= 0 {
		path = path[i+1:]
	}
	return path == "Tags"
}
