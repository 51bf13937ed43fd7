package classify

import (
	"strings"
)

// Report paths are dotted (A.B), with index segments (A.0.B) and
// identity-keyed elements (A[key].B). Three derived forms are used for
// lookups:
//   - schemaPath: indices and identity keys become "*" segments
//     (A.*.B), the registry schema's own path form;
//   - genericPath: indices become "*", identity keys stay (A[key].B), so
//     per-key facts (an attribute bag's defaults) can be looked up;
//   - KeyPath (template.go): the known-values table's key form.

func schemaPath(rp string) string {
	if !strings.ContainsAny(rp, "[0123456789") {
		return rp
	}
	var buf [8]pathSeg
	segs := appendSegs(buf[:0], rp)
	var b strings.Builder
	b.Grow(len(rp))
	for i, s := range segs {
		if i > 0 {
			b.WriteByte('.')
		}
		if s.index {
			b.WriteByte('*')
			continue
		}
		if s.key != "" {
			if s.name != "" {
				b.WriteString(s.name)
				b.WriteByte('.')
			}
			b.WriteByte('*')
			continue
		}
		b.WriteString(s.name)
	}
	return b.String()
}

func genericPath(rp string) string {
	if !strings.ContainsAny(rp, "0123456789") {
		return rp
	}
	var buf [8]pathSeg
	var b strings.Builder
	b.Grow(len(rp))
	for i, s := range appendSegs(buf[:0], rp) {
		if i > 0 {
			b.WriteByte('.')
		}
		switch {
		case s.index:
			b.WriteByte('*')
		case s.key != "":
			b.WriteString(s.name)
			b.WriteByte('[')
			b.WriteString(s.key)
			b.WriteByte(']')
		default:
			b.WriteString(s.name)
		}
	}
	return b.String()
}

type pathSeg struct {
	name  string
	key   string
	index bool
}

// splitPath splits a report path into segments; identity keys may contain
// dots, so brackets are scanned, not split.
func splitPath(rp string) []pathSeg {
	return appendSegs(nil, rp)
}

// appendSegs appends rp's segments to segs; callers on the hot path pass a
// stack buffer.
func appendSegs(segs []pathSeg, rp string) []pathSeg {
	i := 0
	for i < len(rp) {
		j := i
		for j < len(rp) && rp[j] != '.' && rp[j] != '[' {
			j++
		}
		seg := pathSeg{name: rp[i:j]}
		if j < len(rp) && rp[j] == '[' {
			end := strings.IndexByte(rp[j:], ']')
			if end < 0 {
				seg.key = rp[j+1:]
				j = len(rp)
			} else {
				seg.key = rp[j+1 : j+end]
				j += end + 1
			}
			if seg.key == "" {
				seg.key = "*"
			}
		} else if isIndex(seg.name) {
			seg.index = true
		}
		segs = append(segs, seg)
		if j < len(rp) && rp[j] == '.' {
			j++
		}
		i = j
	}
	return segs
}

func isIndex(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// getPath reads a plain dotted path (no indices) from a model.
func getPath(m map[string]any, p string) (any, bool) {
	var cur any = m
	for rest, more := p, true; more; {
		var s string
		s, rest, more = strings.Cut(rest, ".")
		mm, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		cur, ok = mm[s]
		if !ok {
			return nil, false
		}
	}
	return cur, true
}

func getPathOr(m map[string]any, p string) any {
	v, _ := getPath(m, p)
	return v
}

// setPath writes v at a plain dotted path whose parents exist.
func setPath(m map[string]any, p string, v any) {
	cur := m
	for {
		s, rest, more := strings.Cut(p, ".")
		if !more {
			cur[s] = v
			return
		}
		next, ok := cur[s].(map[string]any)
		if !ok {
			return
		}
		cur, p = next, rest
	}
}

// stackNameFromTags finds the aws:cloudformation:stack-name tag in a live
// tag list or map.
func stackNameFromTags(v any) string {
	switch t := v.(type) {
	case []any:
		for _, e := range t {
			m, ok := e.(map[string]any)
			if !ok {
				continue
			}
			if m["Key"] == "aws:cloudformation:stack-name" {
				s, _ := m["Value"].(string)
				return s
			}
		}
	case map[string]any:
		s, _ := t["aws:cloudformation:stack-name"].(string)
		return s
	}
	return ""
}

// declaredTagKeys lists the keys of a declared tag list or map.
func declaredTagKeys(v any) map[string]bool {
	out := map[string]bool{}
	switch t := v.(type) {
	case []any:
		for _, e := range t {
			if m, ok := e.(map[string]any); ok {
				if k, ok := m["Key"].(string); ok {
					out[k] = true
				}
			}
		}
	case map[string]any:
		for k := range t {
			out[k] = true
		}
	}
	return out
}
