package diff

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"

	"github.com/realdrift/realdrift/internal/drift"
)

// PropertyChange is one changed (sub-)property of a resource.
type PropertyChange struct {
	// Path is dotted from the top of Properties, with list indices
	// (Tags.1.Value); the resource attributes DeletionPolicy and
	// UpdateReplacePolicy and the resource Type are paths of their own.
	Path string `json:"path"`
	// Old and New are the resolved values; nil with OldAbsent / NewAbsent
	// set means the key is not there. A drift.Secret writes as redacted; a
	// drift.Unknown (a value known only after the deploy) as a marker.
	Old       any  `json:"old,omitempty"`
	New       any  `json:"new,omitempty"`
	OldAbsent bool `json:"oldAbsent,omitempty"`
	NewAbsent bool `json:"newAbsent,omitempty"`
	// Replacement is whether this change replaces the resource.
	Replacement Replacement `json:"replacement"`
	// Propagated is set on a property whose template value did not change
	// but whose resolved value will (its referenced resource moves).
	Propagated Propagation `json:"propagated,omitempty"`
	// Via names the referenced resource of a propagated change.
	Via string `json:"via,omitempty"`
	// Attribute marks a change of a resource attribute (DependsOn,
	// Metadata, DeletionPolicy, UpdateReplacePolicy) rather than of a
	// property: CloudFormation records it without updating the resource.
	Attribute bool `json:"attribute,omitempty"`
}

// knownAfterDeploy stands for a value only the deploy will know.
var knownAfterDeploy = drift.Unknown{Reason: "known after deploy"}

// comparison collects the leaf changes between two resolved values.
type comparison struct {
	changes []PropertyChange
	// unknown lists the paths whose value could not be compared (either
	// side drift.Unknown): they are not changes.
	unknown []string
}

// compare walks old and new (resolved, JSON-shaped) and records every
// changed leaf under path. Maps recurse by key, lists of equal length by
// index; a list whose length changed is one change. Scalars compare by their
// CloudFormation text, so 80 and "80" are one value.
func (c *comparison) compare(path string, old, new any, depth int) {
	if depth > maxDepth || drift.IsUnknown(old) || drift.IsUnknown(new) {
		c.unknown = append(c.unknown, path)
		return
	}
	o, n := unwrap(old), unwrap(new)
	switch nt := n.(type) {
	case map[string]any:
		ot, ok := o.(map[string]any)
		if !ok {
			break
		}
		for _, k := range unionKeys(ot, nt) {
			ov, oh := ot[k]
			nv, nh := nt[k]
			p := join(path, k)
			switch {
			case oh && nh:
				c.compare(p, ov, nv, depth+1)
			case nh:
				c.changes = append(c.changes, PropertyChange{Path: p, New: nv, OldAbsent: true})
			default:
				c.changes = append(c.changes, PropertyChange{Path: p, Old: ov, NewAbsent: true})
			}
		}
		return
	case []any:
		ot, ok := o.([]any)
		if !ok {
			break
		}
		if len(ot) == len(nt) {
			for i := range nt {
				c.compare(join(path, strconv.Itoa(i)), ot[i], nt[i], depth+1)
			}
			return
		}
	default:
		if equalScalar(o, n) {
			return
		}
	}
	if drift.ContainsUnknown(o) && drift.ContainsUnknown(n) && sameShape(o, n) {
		c.unknown = append(c.unknown, path)
		return
	}
	c.changes = append(c.changes, PropertyChange{Path: path, Old: old, New: new})
}

// sameShape reports whether two containers could be one value once their
// unknown leaves are known (same kind, same length or keys).
func sameShape(a, b any) bool {
	switch at := a.(type) {
	case []any:
		bt, ok := b.([]any)
		return ok && len(at) == len(bt)
	case map[string]any:
		bt, ok := b.(map[string]any)
		return ok && len(unionKeys(at, bt)) == len(at) && len(at) == len(bt)
	}
	return false
}

// unwrap looks inside a drift.Secret: comparison may, display may not.
func unwrap(v any) any {
	if s, ok := v.(drift.Secret); ok {
		return s.Value
	}
	return v
}

func equalScalar(a, b any) bool {
	at, aok := scalarText(a)
	bt, bok := scalarText(b)
	if aok && bok {
		return at == bt
	}
	if a == nil && b == nil {
		return true
	}
	if aok != bok {
		return false
	}
	aj, _ := json.Marshal(a)
	bj, _ := json.Marshal(b)
	return string(aj) == string(bj)
}

// scalarText renders a scalar as CloudFormation does where a string is
// needed.
func scalarText(v any) (string, bool) {
	switch t := v.(type) {
	case string:
		return t, true
	case float64:
		return strconv.FormatFloat(t, 'f', -1, 64), true
	case bool:
		return strconv.FormatBool(t), true
	case int:
		return strconv.Itoa(t), true
	}
	return "", false
}

func unionKeys(a, b map[string]any) []string {
	keys := make([]string, 0, len(a)+len(b))
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys
}

func join(path, k string) string {
	if path == "" {
		return k
	}
	return path + "." + k
}

// equalRaw reports whether two raw template values are the same tree.
func equalRaw(a, b any) bool {
	aj, err1 := json.Marshal(a)
	bj, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(aj) == string(bj)
}

// rawAt is the raw template value at path (dotted, list indices) under
// props: the walk stops at an intrinsic function, which then stands for
// everything under it; ok is false when the path is not there.
func rawAt(props map[string]any, path string) (any, bool) {
	var cur any = props
	for _, seg := range strings.Split(path, ".") {
		if isIntrinsic(cur) {
			return cur, true
		}
		v, ok := step(cur, seg)
		if !ok {
			return nil, false
		}
		cur = v
	}
	return cur, true
}

// valueAt is the resolved value at path under props (nil when absent).
func valueAt(props map[string]any, path string) any {
	var cur any = props
	for _, seg := range strings.Split(path, ".") {
		v, ok := step(unwrap(cur), seg)
		if !ok {
			return nil
		}
		cur = v
	}
	return cur
}

// step is one segment of a dotted path: a key of an object or an index
// of a list; ok is false when cur has no such member.
func step(cur any, seg string) (any, bool) {
	switch t := cur.(type) {
	case map[string]any:
		v, ok := t[seg]
		return v, ok
	case []any:
		i, err := strconv.Atoi(seg)
		if err != nil || i < 0 || i >= len(t) {
			return nil, false
		}
		return t[i], true
	}
	return nil, false
}

// isIntrinsic reports a raw value that is one intrinsic function call
// (a one-key map whose key is Ref, Condition or Fn::…).
func isIntrinsic(v any) bool {
	m, ok := v.(map[string]any)
	if !ok || len(m) != 1 {
		return false
	}
	for k := range m {
		return k == "Ref" || k == "Condition" || strings.HasPrefix(k, "Fn::")
	}
	return false
}
