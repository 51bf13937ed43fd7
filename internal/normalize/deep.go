package normalize

import (
	"encoding/json"
	"sort"
	"strings"
)

// Pass runs the model-wide pipeline steps in one traversal. Each step is
// the same node-level function the stand-alone step (StripManaged,
// CanonicalPolicies, CanonicalJSONText, StripSystemTagsDeep, DropNullItems,
// SortIDArrays, SortIdentityArrays) applies; Pass only saves the repeated
// walks and the copying: it is copy-on-write.
type Pass struct {
	// Live enables the live-only steps: managed-field strip, system-tag
	// strip and null-item drop.
	Live bool
	// StackTags are stripped from tag collections (with aws:* tags),
	// except under the top-level keys in KeepStackTags.
	StackTags     map[string]string
	KeepStackTags map[string]any
	// FreeForm are schema paths of user maps the managed-field strip never
	// enters.
	FreeForm []string
	// KeepManaged are top-level keys whose managed-looking name is a
	// declared property.
	KeepManaged map[string]any
	// Skip are top-level keys left out of the result (readOnly properties).
	Skip []string
}

// Copy returns the normalized model. The returned top-level map is new;
// below it, a container a step changed is new and every other container is
// shared with the input, which is never modified. A caller that changes the
// result in place below the top level first takes the path with Own.
func (p *Pass) Copy(model map[string]any) map[string]any {
	w := walker{p: p}
	if len(p.FreeForm) > 0 {
		w.freeForm = make(map[string]bool, len(p.FreeForm))
		for _, f := range p.FreeForm {
			w.freeForm[f] = true
		}
	}
	out := make(map[string]any, len(model))
	for k, v := range model {
		if skipped(p.Skip, k) {
			continue
		}
		if p.Live && isManagedKey(k) {
			if _, keep := p.KeepManaged[k]; !keep {
				continue
			}
		}
		tags := p.StackTags
		if _, keep := p.KeepStackTags[k]; keep {
			tags = nil
		}
		w.stackTags = tags
		out[k], _ = w.child(k, k, v)
	}
	return out
}

type walker struct {
	p         *Pass
	freeForm  map[string]bool
	stackTags map[string]string
}

// child normalizes the value of key k (at schema path sp); changed
// reports whether the result differs from v.
func (w *walker) child(k, sp string, v any) (any, bool) {
	switch t := v.(type) {
	case string:
		if len(t) > 1 && strings.Contains(k, "Policy") && strings.Contains(t, "Statement") {
			var doc map[string]any
			if err := json.Unmarshal([]byte(t), &doc); err == nil && isPolicyDoc(doc) {
				nd, _ := w.mapValue(sp, doc)
				return CanonicalPolicy(nd, ""), true
			}
		}
		if c, ok := canonicalText(t); ok && c != t {
			return c, true
		}
	case map[string]any:
		nv, changed := w.mapValue(sp, t)
		if isPolicyDoc(nv) {
			return CanonicalPolicy(nv, ""), true
		}
		if k == "Statement" && isStatement(nv) {
			// A property that is one policy statement (an event bus
			// policy's Statement) takes the statement's canonical form.
			return canonicalStatement(nv, ""), true
		}
		if changed {
			return nv, true
		}
	case []any:
		if nv, changed := w.arrayValue(k, sp, t); changed {
			return nv, true
		}
	}
	// Unchanged: the caller's interface value, so no leaf is boxed again.
	return v, false
}

type change struct {
	key  string
	val  any
	drop bool
}

// mapValue normalizes a map, returning it unchanged (and shared) when no
// step touched it.
func (w *walker) mapValue(sp string, t map[string]any) (map[string]any, bool) {
	free := w.freeForm != nil && w.freeForm[sp]
	tagMap := w.p.Live && strings.HasSuffix(sp, "Tags")
	var changes []change
	for k, e := range t {
		if w.p.Live && !free && isManagedKey(k) {
			changes = append(changes, change{key: k, drop: true})
			continue
		}
		if tagMap {
			if s, ok := e.(string); ok && dropTag(k, s, w.stackTags) {
				changes = append(changes, change{key: k, drop: true})
				continue
			}
		}
		csp := k
		if w.freeForm != nil {
			csp = sp + "." + k
		}
		if nv, ch := w.child(k, csp, e); ch {
			changes = append(changes, change{key: k, val: nv})
		}
	}
	if len(changes) == 0 {
		return t, false
	}
	out := make(map[string]any, len(t))
	for k, e := range t {
		out[k] = e
	}
	for _, c := range changes {
		if c.drop {
			delete(out, c.key)
		} else {
			out[c.key] = c.val
		}
	}
	return out, true
}

// arrayValue normalizes an array (key k of its parent), copying it only
// when a step changes it.
func (w *walker) arrayValue(k, sp string, t []any) ([]any, bool) {
	isp := sp
	if w.freeForm != nil {
		isp = sp + ".*"
	}
	var out []any // nil until the first change
	for i, e := range t {
		if e == nil && w.p.Live {
			if out == nil {
				out = append(make([]any, 0, len(t)), t[:i]...)
			}
			continue
		}
		nv, ch := w.child("", isp, e)
		if ch && out == nil {
			out = append(make([]any, 0, len(t)), t[:i]...)
		}
		if out != nil {
			out = append(out, nv)
		}
	}
	changed := out != nil
	if !changed {
		out = t
	}
	if w.p.Live {
		if k == "TagSpecifications" {
			if ns, ch := stripTagSpecifications(out, w.stackTags); ch {
				out, changed = ns, true
			}
		} else if isTagList(out, w.stackTags) {
			out, changed = StripSystemTags(out, w.stackTags, nil).([]any), true
		}
	}
	if needsSort(out) {
		if !changed {
			cp := make([]any, len(out))
			copy(cp, out)
			out = cp
		}
		sortArray(out)
		changed = true
	}
	return out, changed
}

func dropTag(k, v string, stackTags map[string]string) bool {
	if strings.HasPrefix(k, "aws:") {
		return true
	}
	sv, ok := stackTags[k]
	return ok && sv == v
}

func isManagedKey(k string) bool {
	if len(k) < 9 || (k[0] != 'C' && k[0] != 'L' && k[0] != 'U' && k[0] != 'R') {
		return false
	}
	for _, m := range managedKeys {
		if m == k {
			return true
		}
	}
	return false
}

// needsSort reports whether sortArray would reorder t.
func needsSort(t []any) bool {
	if isIDArray(t) {
		return !sort.SliceIsSorted(t, func(i, j int) bool { return t[i].(string) < t[j].(string) })
	}
	if f := IdentityField(t); f != "" {
		return !sort.SliceIsSorted(t, func(i, j int) bool {
			return t[i].(map[string]any)[f].(string) < t[j].(map[string]any)[f].(string)
		})
	}
	return false
}

// sortArray applies the order canonicalizations to one array: id / ARN /
// method / AZ sets, then identity-keyed object sets.
func sortArray(t []any) {
	if isIDArray(t) {
		sort.SliceStable(t, func(i, j int) bool { return t[i].(string) < t[j].(string) })
		return
	}
	if f := IdentityField(t); f != "" {
		sort.SliceStable(t, func(i, j int) bool {
			return t[i].(map[string]any)[f].(string) < t[j].(map[string]any)[f].(string)
		})
	}
}

func skipped(keys []string, k string) bool {
	for _, s := range keys {
		if s == k {
			return true
		}
	}
	return false
}

// Own makes every container on a dotted path of root ("*" for any array
// item or map key; arrays are also crossed transparently, as StripPaths and
// SortUnordered cross them) a private shallow copy, including the container
// at the path's end, so an in-place step at that path never changes data
// root shares with the model it was normalized from.
func Own(root map[string]any, path string) {
	if Absent(root, path) {
		return
	}
	ownMap(root, strings.Split(path, "."))
}

func ownMap(m map[string]any, segs []string) {
	if len(segs) == 0 {
		return
	}
	if segs[0] == "*" {
		for k := range m {
			m[k] = ownValue(m[k], segs[1:])
		}
		return
	}
	if v, ok := m[segs[0]]; ok {
		m[segs[0]] = ownValue(v, segs[1:])
	}
}

// ownValue returns a private copy of v (when it is a container) with the
// rest of the path owned below it.
func ownValue(v any, rest []string) any {
	switch t := v.(type) {
	case map[string]any:
		cp := make(map[string]any, len(t))
		for k, e := range t {
			cp[k] = e
		}
		ownMap(cp, rest)
		return cp
	case []any:
		cp := make([]any, len(t))
		copy(cp, t)
		if len(rest) == 0 {
			return cp // the array is the path's end
		}
		items := rest
		if items[0] == "*" {
			items = items[1:] // the items are (or lead to) the path's end
		}
		for i, e := range cp {
			cp[i] = ownValue(e, items)
		}
		return cp
	}
	return v
}
