package classify

import (
	"strings"

	"github.com/realdrift/realdrift/internal/normalize"
)

// generated reports whether a live value the template never set is this
// resource's own minted identity: a name segment of its physical id, a
// CloudFormation auto-name (stack name / logical id + random suffix), a
// segment of a declared write-only composite id, or a per-type generated
// path whose value has the minted shape. A reference to another resource
// never qualifies, except through a per-type fact.
func (r *run) generated(rp string, v any) bool {
	if re, ok := r.tf.generatedShapes[KeyPath(rp)]; ok {
		if s, ok := normalize.ScalarString(v); ok && re.MatchString(s) {
			return true
		}
		if normalize.Canonical(v) != "" && re.MatchString(normalize.Canonical(v)) {
			return true
		}
	}
	s, ok := v.(string)
	if !ok || len(s) < 3 {
		return false
	}
	if r.physicalIDSegment(s) {
		return true
	}
	if r.nameInPhysicalID(s) {
		// The physical id carries this resource's minted name: only that
		// exact name is generated (checked above), any other is not.
		return false
	}
	if isAutoName(s, r.stackName, r.s.Ref.LogicalID) {
		return true
	}
	return r.writeOnlyCompositeSegment(s)
}

// physicalIDSegment reports whether s is a name segment of the physical id:
// a "|" part, the resource part of an ARN split on "/" and ":" (or a run of
// "/"-joined segments), a URL's last path segment, or a Secrets-Manager
// style name with its 6-character suffix removed.
func (r *run) physicalIDSegment(s string) bool {
	pid := r.s.Ref.PhysicalID
	if pid == "" || s == pid {
		return false
	}
	for _, part := range strings.Split(pid, "|") {
		if part == s {
			return true
		}
		res := part
		if a, ok := normalize.ParseARN(part); ok {
			res = a.Resource
		} else if strings.HasPrefix(part, "https://") {
			res = part[strings.LastIndexByte(part, '/')+1:]
		}
		if res == s {
			return true
		}
		for _, colon := range strings.Split(res, ":") {
			if colon == s {
				return true
			}
			segs := strings.Split(colon, "/")
			for i := range segs {
				if segs[i] == s || suffixed(segs[i], s) {
					return true
				}
				for j := i + 1; j < len(segs); j++ {
					if strings.Join(segs[i:j+1], "/") == s {
						return true
					}
				}
			}
		}
	}
	return false
}

// nameInPhysicalID reports whether the physical id carries a minted name
// with the same prefix as s (everything before its random suffix), so the
// exact name can be checked against it instead of its shape.
func (r *run) nameInPhysicalID(s string) bool {
	i := strings.LastIndexAny(s, "-_")
	if i <= 0 {
		return false
	}
	prefix := s[:i+1]
	return strings.Contains(r.s.Ref.PhysicalID, prefix)
}

// suffixed reports whether seg is name plus a "-XXXXXX" random suffix.
func suffixed(seg, name string) bool {
	if len(seg) != len(name)+7 || !strings.HasPrefix(seg, name) || seg[len(name)] != '-' {
		return false
	}
	return isAlnum(seg[len(name)+1:])
}

func isAlnum(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return s != ""
}

// isAutoName reports whether s has the shape of a CloudFormation-generated
// name: a prefix drawn from the stack name and/or the logical id, then "-"
// or "_", then a 12–16 character random suffix. The prefix must be tied to
// the stack name or the logical id, so an arbitrary name never matches.
func isAutoName(s, stack, logicalID string) bool {
	i := strings.LastIndexAny(s, "-_")
	if i <= 0 {
		return false
	}
	suffix, prefix := s[i+1:], s[:i]
	if len(suffix) < 12 || len(suffix) > 16 || !isAlnum(suffix) {
		return false
	}
	lp := strings.ToLower(prefix)
	ll := strings.ToLower(logicalID)
	ls := strings.ToLower(stack)
	if ll != "" && (lp == ll || (len(lp) >= 4 && strings.HasPrefix(ll, lp))) {
		return true
	}
	if ls == "" {
		return false
	}
	// stack-logical forms, each side possibly truncated.
	j := strings.IndexByte(lp, '-')
	if j <= 0 {
		return false
	}
	sp, rest := lp[:j], lp[j+1:]
	if !strings.HasPrefix(ls, sp) || len(sp) < 4 && sp != ls {
		return false
	}
	if rest == "" {
		return false
	}
	if strings.HasPrefix(lp, ls+"-") && len(lp) > len(ls)+1 && isAlnum(lp[len(ls)+1:]) {
		// The full stack name, one resource name, a random suffix: a name
		// CloudFormation minted in this stack.
		return true
	}
	return ll != "" && (strings.HasPrefix(ll, rest) || strings.HasPrefix(rest, ll))
}

// writeOnlyCompositeSegment reports whether s is one "|" segment of a
// declared write-only composite identifier (ScalingTargetId's resource id,
// dimension and namespace): live echoes what the template wrote.
func (r *run) writeOnlyCompositeSegment(s string) bool {
	for k := range r.writeOnlyTop {
		d, ok := r.decl[k].(string)
		if !ok || !strings.Contains(d, "|") {
			continue
		}
		for _, seg := range strings.Split(d, "|") {
			if seg == s {
				return true
			}
		}
	}
	return false
}
