package classify

import "strings"

// ownIDEcho reports whether an undeclared value is this resource's own
// identity written another way — values the resource itself determines, so
// the template never has to set them:
//   - its composite physical id ("a|b") joined with "_" instead, in either
//     order ("b_a"): the id the service's own API uses for the same pair;
//   - the ARN its qualified physical id ("arn:…:name:qualifier", an alias or
//     a version) qualifies: the unqualified resource it belongs to;
//   - an identifier the template itself declares under another property (a
//     subnet, an address, an ARN written in a nested declared object):
//     the service echoes it at the top level.
//
// Both are exact: every segment must be the resource's own, so a value
// pointing at another resource, or at a changed pair, surfaces.
func (r *run) ownIDEcho(v any) bool {
	s, ok := v.(string)
	pid := r.s.Ref.PhysicalID
	if !ok || s == "" || pid == "" || s == pid {
		return false
	}
	if segs := strings.Split(pid, "|"); len(segs) >= 2 {
		if s == strings.Join(segs, "_") || s == strings.Join(reversed(segs), "_") {
			return true
		}
	}
	if unqualifiedOf(pid) == s {
		return true
	}
	return idLike(s) && declaresLeaf(r.decl, s)
}

// idLike reports whether s looks like an identifier rather than a word or
// a switch: at least 8 characters, no spaces, a digit, and a "-", ".", ":"
// or "/" separator ("subnet-0f3c…", "10.0.0.10", an ARN).
func idLike(s string) bool {
	if len(s) < 8 || strings.ContainsAny(s, " \t\n") || !strings.ContainsAny(s, "-.:/") {
		return false
	}
	return strings.ContainsAny(s, "0123456789")
}

// declaresLeaf reports whether some scalar leaf of v is the string s.
func declaresLeaf(v any, s string) bool {
	switch t := v.(type) {
	case string:
		return t == s
	case map[string]any:
		for _, e := range t {
			if declaresLeaf(e, s) {
				return true
			}
		}
	case []any:
		for _, e := range t {
			if declaresLeaf(e, s) {
				return true
			}
		}
	}
	return false
}

// unqualifiedOf returns the ARN a qualified ARN qualifies (its last ":"
// segment removed), or "" when pid is no ARN with a qualifier: the resource
// part must keep a type and a name ("stateMachine:name:qualifier").
func unqualifiedOf(pid string) string {
	if !strings.HasPrefix(pid, "arn:") {
		return ""
	}
	p := strings.SplitN(pid, ":", 6)
	if len(p) != 6 || strings.Count(p[5], ":") < 2 {
		return ""
	}
	i := strings.LastIndexByte(pid, ':')
	if i == len(pid)-1 {
		return ""
	}
	return pid[:i]
}

func reversed(s []string) []string {
	out := make([]string, len(s))
	for i, e := range s {
		out[len(s)-1-i] = e
	}
	return out
}
