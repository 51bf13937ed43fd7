package ignore

import (
	"strings"

	"github.com/realdrift/realdrift/internal/drift"
)

// Targets lists the strings a rule's path is matched against for finding f
// of stack stackName: <logicalId>.<path> (its keyed path: an attribute
// key or attachment member in brackets, drift.Finding.KeyedPath), and
// when the resource has a construct path, the within-stack <constructPath>.<path> and the full
// <stack>/<constructPath>.<path>. A whole-resource finding (empty path) has
// no ".<path>" suffix. An added child also has <logicalId>#<physicalId>,
// which picks one child among siblings that share a synthesized logical id.
func Targets(stackName string, f drift.Finding) []string {
	suffix := ""
	if f.Path != "" {
		suffix = "." + f.KeyedPath()
	}
	out := []string{f.LogicalID + suffix}
	add := func(s string) {
		for _, o := range out {
			if o == s {
				return
			}
		}
		out = append(out, s)
	}
	if f.Tier == drift.Added && f.PhysicalID != "" {
		add(f.LogicalID + "#" + f.PhysicalID) // one child among siblings
	}
	if f.ConstructPath != "" {
		within := WithinStackPath(stackName, f.ConstructPath)
		add(within + suffix)
		add(strings.TrimSuffix(f.ConstructPath, "/Resource") + suffix)
		add(f.ConstructPath + suffix)
		if stackName != "" {
			add(stackName + "/" + within + suffix)
		}
	}
	return out
}

// DisplayPath is how the report names a finding, and so what a copied rule
// matches: the within-stack construct path (else the logical id), then
// ".<path>" when the finding has one (its keyed path: one attachment
// member or attribute key, never the whole list).
func DisplayPath(stackName string, f drift.Finding) string {
	id := f.LogicalID
	if f.ConstructPath != "" {
		id = WithinStackPath(stackName, f.ConstructPath)
	}
	if f.Path == "" {
		return id
	}
	return id + "." + f.KeyedPath()
}

// WithinStackPath strips the stack (or Stage/stack) prefix and a trailing
// /Resource from a CDK construct path: "MyStack/ApiRole/Resource" becomes
// "ApiRole", and a Stage's "prod/Api/Fn" of stack "prod-Api" becomes "Fn".
func WithinStackPath(stackName, constructPath string) string {
	segs := strings.Split(strings.TrimSuffix(constructPath, "/Resource"), "/")
	if len(segs) < 2 {
		return strings.Join(segs, "/")
	}
	for k := 1; k < len(segs); k++ {
		if stackName != "" && (strings.Join(segs[:k], "-") == stackName || strings.Join(segs[:k], "/") == stackName) {
			return strings.Join(segs[k:], "/")
		}
	}
	return strings.Join(segs[1:], "/")
}
