package scan

import (
	"sort"
	"strings"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/schema"
)

// StackFacts are the stack-level facts the classifier may use.
type StackFacts struct {
	AccountID string
	Region    string
	StackName string
	// StackTags are subtracted from live tags (CloudFormation propagates them).
	StackTags map[string]string
	// KMSAliasTargets maps a managed alias (alias/aws/...) to its key id;
	// nil when not looked up.
	KMSAliasTargets map[string]string
	// DefaultSecurityGroups are the account-region's default security
	// groups; nil when not asked.
	DefaultSecurityGroups []string
	// Sibling holds per-type facts derived from the stack's other
	// resources, keyed by the classifier's option names (siblings.go).
	Sibling map[string]any
}

// Subject is one read resource handed to the classifier.
type Subject struct {
	Ref drift.ResourceRef
	// Declared holds the resolved template properties.
	Declared map[string]any
	// SiblingPolicyNames are the PolicyNames of the stack's AWS::IAM::Policy
	// resources attached to this role (roles only); "" stands for a name or
	// attachment that is not resolved.
	SiblingPolicyNames []string
}

// ClassifyFunc classifies one resource: the pure classifier, the same
// function the corpus replay calls.
type ClassifyFunc func(s Subject, liveModel map[string]any, facts *schema.Facts, stack StackFacts) []drift.Finding

// Facts returns the stack-level classifier facts of d.
func (d *Desired) Facts() StackFacts {
	return StackFacts{AccountID: d.Stack.Account, Region: d.Stack.Region, StackName: d.Stack.Name, StackTags: d.StackTags, KMSAliasTargets: d.KMSAliasTargets, DefaultSecurityGroups: d.DefaultSecurityGroups}
}

// stackSecrets are the plaintexts the live models hold at the places the
// template declares a secret (drift.Withhold), across the stack: the
// classifier scrubs them from a resource's own findings, ClassifyStack from
// every other resource's and child's too (a secret copied into a sibling's
// description, an added child's policy).
func stackSecrets(d *Desired, lives map[string]live.Result) []string {
	var out []string
	for _, r := range d.Resources {
		res, ok := lives[r.LogicalID]
		if !ok || res.Status != live.Found || !drift.ContainsSecret(r.Declared) {
			continue
		}
		_, found := drift.Withhold(r.Declared, res.Model)
		out = append(out, found...)
	}
	return out
}

// ClassifyStack turns the gathered state of one stack into findings:
// deleted for a resource that is gone, skipped (with the reason) for one
// that could not be read or whose children could not be enumerated, added
// for each out-of-band child, and whatever classify returns for each read
// resource. lives is keyed by logical id; a resource missing from it is
// skipped as unread. Every secret plaintext found in the stack is scrubbed
// from every finding (stackSecrets). The result is sorted by logical id,
// tier and path.
func ClassifyStack(d *Desired, lives map[string]live.Result, children []Children, facts FactsFunc, classify ClassifyFunc) []drift.Finding {
	var out []drift.Finding
	sf := d.Facts()
	sf.Sibling = SiblingFacts(d, lives)
	sf.Sibling = withNestedParameters(sf.Sibling, d)
	for _, r := range d.Resources {
		res, ok := lives[r.LogicalID]
		if !ok {
			res = live.Result{Status: live.Skipped, Reason: "not read"}
		}
		switch {
		case res.Status == live.Found && r.Unresolved != "":
			f := finding(r.Ref(), drift.Unresolved, "")
			f.Note = r.Unresolved
			out = append(out, f)
			continue
		}
		switch res.Status {
		case live.NotFound:
			out = append(out, finding(r.Ref(), drift.Deleted, res.Reason))
		case live.NothingToRead:
			out = append(out, finding(r.Ref(), drift.NothingToRead, res.Reason))
		case live.Found:
			var f *schema.Facts
			if facts != nil {
				f, _ = facts(r.Type)
			}
			f = live.ReadableFacts(r.Type, res, f) // write-only values an override read back are compared
			s := Subject{Ref: r.Ref(), Declared: r.Declared}
			if r.Type == "AWS::IAM::Role" {
				s.SiblingPolicyNames = siblingPolicyNames(d, r)
			}
			fs := classify(s, res.Model, f, sf)
			out = append(out, fs...)
			out = append(out, unreadGaps(r.Ref(), res.Unread, fs)...)
		default:
			reason := res.Reason
			if reason == "" {
				reason = "not read"
			}
			out = append(out, finding(r.Ref(), drift.Skipped, reason))
		}
	}
	for _, ch := range children {
		parent, ok := d.resource(ch.Parent)
		if !ok {
			continue
		}
		if ch.Reason != "" {
			out = append(out, finding(parent.Ref(), drift.Skipped, ch.Reason))
			continue
		}
		for _, c := range ch.Added {
			out = append(out, addedFinding(parent, c))
		}
	}
	drift.ScrubFindings(out, stackSecrets(d, lives))
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.LogicalID != b.LogicalID {
			return a.LogicalID < b.LogicalID
		}
		if a.PhysicalID != b.PhysicalID {
			return a.PhysicalID < b.PhysicalID
		}
		if a.Tier != b.Tier {
			return a.Tier < b.Tier
		}
		return a.Path < b.Path
	})
	return out
}

// unreadGaps is one readGap for each property a failed SDK supplement left
// unread (res.Unread) that fs does not already show as a readGap at or
// under it (a declared write-only one is already a readGap): the property
// is unknown, never drift, and never silently absent.
func unreadGaps(ref drift.ResourceRef, unread map[string]string, fs []drift.Finding) []drift.Finding {
	props := make([]string, 0, len(unread))
	for p := range unread {
		props = append(props, p)
	}
	sort.Strings(props)
	var out []drift.Finding
	for _, p := range props {
		shown := false
		for _, f := range fs {
			shown = shown || f.Tier == drift.ReadGap && (f.Path == p || strings.HasPrefix(f.Path, p+".") || strings.HasPrefix(f.Path, p+"["))
		}
		if shown {
			continue
		}
		f := finding(ref, drift.ReadGap, "")
		f.Path, f.Note = p, "not read: "+unread[p]
		out = append(out, f)
	}
	return out
}

func finding(ref drift.ResourceRef, tier drift.Tier, reason string) drift.Finding {
	return drift.Finding{
		Tier: tier, LogicalID: ref.LogicalID, ResourceType: ref.Type, PhysicalID: ref.PhysicalID,
		ConstructPath: ref.ConstructPath, Reason: reason,
	}
}

// AddedLogicalID is the synthesized logical id of an added child: the
// parent's logical id and the child type's last name segment, e.g.
// "AlertsTopic/Subscription". The child's identifier is its physical id.
func AddedLogicalID(parentLogicalID, childType string) string {
	return parentLogicalID + "/" + childType[strings.LastIndex(childType, ":")+1:]
}

func addedFinding(parent Resource, c live.Child) drift.Finding {
	f := drift.Finding{
		Tier:         drift.Added,
		LogicalID:    AddedLogicalID(parent.LogicalID, c.Type),
		ResourceType: c.Type,
		PhysicalID:   c.Identifier,
		Note:         "not in the template: a live child of " + parent.LogicalID + " (" + parent.Type + ")",
	}
	if c.Model != nil {
		f.Actual = c.Model
	}
	if c.Reason != "" {
		f.Note += "; its full read failed: " + c.Reason
	}
	return f
}

// siblingPolicyNames lists the PolicyNames of the stack's AWS::IAM::Policy
// resources attached to role (by role name = physical id). An unresolved
// name or attachment list contributes "".
func siblingPolicyNames(d *Desired, role Resource) []string {
	var names []string
	for _, p := range d.Resources {
		if p.Type != "AWS::IAM::Policy" {
			continue
		}
		roles, known := p.Declared["Roles"]
		if drift.ContainsUnknown(roles) {
			names = append(names, "")
			continue
		}
		list, _ := roles.([]any)
		attached := false
		for _, e := range list {
			if s, _ := e.(string); s != "" && s == role.PhysicalID {
				attached = true
			}
		}
		if !known || !attached {
			continue
		}
		name, _ := p.Declared["PolicyName"].(string)
		names = append(names, name)
	}
	return names
}
