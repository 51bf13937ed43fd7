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
		out := make(map[string]any, len(t))
		for k, e := range t {
			if !drop(k, e) {
				out[k] = e
			}
		}
		return out
	}
	return v
}

// StripSystemTagsDeep applies StripSystemTags to every tag collection in a
// model: {Key,Value}[] lists anywhere, and maps only under a key ending in
// "Tags" (so IAM condition keys such as aws:SecureTransport are never
// touched).
func StripSystemTagsDeep(v any, stackTags map[string]string) {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			switch ev := e.(type) {
			case []any:
				if isTagList(ev, stackTags) {
					t[k] = StripSystemTags(ev, stackTags, nil)
					continue
				}
				if k == "TagSpecifications" {
					t[k], _ = stripTagSpecifications(ev, stackTags)
					continue
				}
			case map[string]any:
				if strings.HasSuffix(k, "Tags") {
					t[k] = StripSystemTags(ev, stackTags, nil)
					continue
				}
			}
			StripSystemTagsDeep(e, stackTags)
		}
	case []any:
		for _, e := range t {
			StripSystemTagsDeep(e, stackTags)
		}
	}
}

// isTagList reports whether every element is a {Key, Value, ...} object
// with a string Key, and some key is an aws:* tag.
func isTagList(a []any, stackTags map[string]string) bool {
	sys := false
	for _, e := range a {
		m, ok := e.(map[string]any)
		if !ok {
			return false
		}
		k, ok := m["Key"].(string)
		if !ok {
			return false
		}
		if _, ok := m["Value"]; !ok {
			return false
		}
		if _, ok := stackTags[k]; ok || strings.HasPrefix(k, "aws:") {
			sys = true
		}
	}
	return sys
}

// stripTagSpecifications strips system tags inside EC2-style
// TagSpecifications and drops a specification left with no tags; changed
// reports whether anything was stripped (the input is not modified).
func stripTagSpecifications(a []any, stackTags map[string]string) ([]any, bool) {
	out := make([]any, 0, len(a))
	changed := false
	for _, e := range a {
		m, ok := e.(map[string]any)
		if !ok {
			out = append(out, e)
			continue
		}
		if tags, ok := m["Tags"].([]any); ok {
			kept := StripSystemTags(tags, stackTags, nil).([]any)
			if len(kept) == 0 {
				changed = true
				continue
			}
			if len(kept) != len(tags) {
				cp := make(map[string]any, len(m))
				for k, v := range m {
					cp[k] = v
				}
				cp["Tags"] = kept
				m = cp
				changed = true
			}
		}
		out = append(out, m)
	}
	return out, changed
}
