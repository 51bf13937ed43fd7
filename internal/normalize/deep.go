package normalize

import (
	"encoding/json"
	"sort"
	"strings"
)

// Pass runs the model-wide pipeline steps in one traversal and returns a
// normalized deep copy (the input is never modified). Each step is the same
// node-level function the stand-alone step (StripManaged, CanonicalPolicies,
// CanonicalJSONText, StripSystemTagsDeep, DropNullItems, SortIDArrays,
// SortIdentityArrays) applies; Pass only saves the repeated walks.
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
	// Skip are top-level keys left out of the copy (readOnly properties).
	Skip []string
}

// Copy returns the normalized copy of a model.
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
		if nv, ok := w.child(k, k, v); ok {
			out[k] = nv
		}
	}
	return out
}

type walker struct {
	p         *Pass
	freeForm  map[string]bool
	stackTags map[string]string
}

// child normalizes the value of key k (at schema path sp) of a map; ok is
// false when the value is to be dropped.
func (w *walker) child(k, sp string, v any) (any, bool) {
	switch t := v.(type) {
	case string:
		if len(t) > 1 && strings.Contains(k, "Policy") && strings.Contains(t, "Statement") {
			var doc map[string]any
			if err := json.Unmarshal([]byte(t), &doc); err == nil && isPolicyDoc(doc) {
				return CanonicalPolicy(w.value(sp, doc).(map[string]any), ""), true
			}
		}
		if c, ok := canonicalText(t); ok {
			return c, true
		}
		return t, true
	case map[string]any:
		nv := w.value(sp, t).(map[string]any)
		if isPolicyDoc(nv) {
			return CanonicalPolicy(nv, ""), true
		}
		return nv, true
	case []any:
		nv := w.value(sp, t).([]any)
		if w.p.Live {
			if k == "TagSpecifications" {
				nv = stripTagSpecifications(nv, w.stackTags)
			} else if isTagList(nv, w.stackTags) {
				nv = StripSystemTags(nv, w.stackTags, nil).([]any)
			}
		}
		sortArray(nv)
		return nv, true
	}
	return v, true
}

// value copies a map or array, normalizing its children.
func (w *walker) value(sp string, v any) any {
	switch t := v.(type) {
	case map[string]any:
		free := w.freeForm != nil && w.freeForm[sp]
		tagMap := w.p.Live && strings.HasSuffix(sp, "Tags")
		out := make(map[string]any, len(t))
		for k, e := range t {
			if w.p.Live && !free && isManagedKey(k) {
				continue
			}
			if tagMap {
				if s, ok := e.(string); ok && dropTag(k, s, w.stackTags) {
					continue
				}
			}
			csp := k
			if w.freeForm != nil {
				csp = sp + "." + k
			}
			if nv, ok := w.child(k, csp, e); ok {
				out[k] = nv
			}
		}
		return out
	case []any:
		out := make([]any, 0, len(t))
		isp := sp
		if w.freeForm != nil {
			isp = sp + ".*"
		}
		for i, e := range t {
			if e == nil && w.p.Live {
				continue
			}
			if s, ok := e.(string); ok {
				if c, ok := canonicalText(s); ok {
					out = append(out, c)
					continue
				}
				out = append(out, s)
				continue
			}
			nv, _ := w.child("", isp, t[i])
			out = append(out, nv)
		}
		return out
	}
	return v
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
