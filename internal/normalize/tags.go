package normalize

import "strings"

// StripSystemTags removes the tags that are never drift from a live tag
// list ({Key,Value}[]) or tag map: aws:* tags, and the stack's propagated
// tags (same key and value) unless the template declares that key.
func StripSystemTags(v any, stackTags map[string]string, declaredKeys map[string]bool) any {
	drop := func(k string, val any) bool {
		if strings.HasPrefix(k, "aws:") {
			return true
		}
		if declaredKeys[k] {
			return false
		}
		sv, ok := stackTags[k]
		if !ok {
			return false
		}
		s, _ := ScalarString(val)
		return s == sv
	}
	switch t := v.(type) {
	case []any:
		out := make([]any, 0, len(t))
		for _, e := range t {
			m, ok := e.(map[string]any)
			if ok {
				k, _ := m["Key"].(string)
				if drop(k, m["Value"]) {
					continue
				}
			}
			out = append(out, e)
		}
		return out
	case map[string]any:
		for k, e := range t {
			if drop(k, e) {
				delete(t, k)
			}
		}
		return t
	}
	return v
}
