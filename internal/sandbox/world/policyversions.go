package world

import (
	"strconv"
	"strings"
	"time"
)

// A managed policy's versions live beside its model (Resource.PolicyVersions)
// and its default version's document is its PolicyDocument: IAM's
// version operations, Cloud Control and the admin API keep the two in step.

// PolicyVersionsOf returns a managed policy's versions; a policy the
// world gives none has v1, its current document.
func PolicyVersionsOf(p *Resource) []PolicyVersion {
	if len(p.PolicyVersions) > 0 {
		return p.PolicyVersions
	}
	return []PolicyVersion{{VersionID: "v1", Document: Field(p, "PolicyDocument"), Default: true, Created: DefaultTime}}
}

// SyncPolicyVersions records a changed PolicyDocument of an
// AWS::IAM::ManagedPolicy (written through Cloud Control or out of band)
// as a new default version, at most five kept; other types are left
// alone. The caller holds the write lock.
func SyncPolicyVersions(p *Resource, now time.Time) {
	if p.Type != "AWS::IAM::ManagedPolicy" {
		return
	}
	doc := Field(p, "PolicyDocument")
	vs := PolicyVersionsOf(p)
	for _, v := range vs {
		if v.Default && CompactJSON(v.Document) == CompactJSON(doc) {
			p.PolicyVersions = vs
			return
		}
	}
	vs = append([]PolicyVersion(nil), vs...)
	for i := range vs {
		vs[i].Default = false
	}
	vs = append(vs, PolicyVersion{VersionID: NextPolicyVersion(vs), Document: doc, Default: true, Created: now})
	if len(vs) > 5 {
		vs = vs[len(vs)-5:]
	}
	p.PolicyVersions = vs
}

// NextPolicyVersion is the id of the version that follows vs (v1, v2, …).
func NextPolicyVersion(vs []PolicyVersion) string {
	n := 0
	for _, v := range vs {
		if k, err := strconv.Atoi(strings.TrimPrefix(v.VersionID, "v")); err == nil && k > n {
			n = k
		}
	}
	return "v" + strconv.Itoa(n+1)
}
