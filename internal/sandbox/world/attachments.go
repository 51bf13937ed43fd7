package world

import "encoding/json"

// Managed-policy attachments as either side reads them. IAM keeps one
// attachment per (managed policy, identity) pair, whichever side declared
// it: a role's, user's or group's ManagedPolicyArns or a managed policy's
// Roles / Users / Groups. The world stores each on the side that declared
// it; Cloud Control reads both sides whole, as AWS's handlers do
// (ListAttachedRolePolicies, ListEntitiesForPolicy): an identity's
// ManagedPolicyArns are every policy attached to it, a managed policy's
// lists every identity it is attached to (AttachmentView).

// attachmentSides are the identity types a managed policy attaches to:
// the identity's name property and the policy's list naming it.
var attachmentSides = []struct{ typ, nameProp, listProp string }{
	{"AWS::IAM::Role", "RoleName", "Roles"},
	{"AWS::IAM::User", "UserName", "Users"},
	{"AWS::IAM::Group", "GroupName", "Groups"},
}

const managedPolicyType = "AWS::IAM::ManagedPolicy"

// PolicyARN is a managed policy's ARN: its PolicyArn, else its identifier.
func PolicyARN(p *Resource) string {
	if arn := FieldString(p, "PolicyArn"); arn != "" {
		return arn
	}
	return p.CCID()
}

// identityName is an identity's name: its name property, else its
// physical id (an identity's physical id is its name).
func identityName(ident *Resource, nameProp string) string {
	if n := FieldString(ident, nameProp); n != "" {
		return n
	}
	return ident.PhysicalID
}

// AttachmentView returns the model Cloud Control reads for res in
// account: an IAM role's, user's or group's model with every managed
// policy of the account whose list names it added to ManagedPolicyArns,
// a managed policy's with every identity whose ManagedPolicyArns holds
// its ARN added to its Roles / Users / Groups; members are added after
// the stored ones, in order, and any other model is as stored. The
// caller holds the read lock.
func AttachmentView(st *State, account string, res *Resource) json.RawMessage {
	view := *res
	for _, side := range attachmentSides {
		switch res.Type {
		case side.typ:
			name := identityName(res, side.nameProp)
			var arns []string
			for _, p := range st.OfType(account, "", managedPolicyType) {
				if Contains(FieldStrings(p, side.listProp), name) {
					arns = append(arns, PolicyARN(p))
				}
			}
			addMembers(&view, "ManagedPolicyArns", arns)
		case managedPolicyType:
			arn := PolicyARN(res)
			var names []string
			for _, ident := range st.OfType(account, "", side.typ) {
				if Contains(FieldStrings(ident, "ManagedPolicyArns"), arn) {
					names = append(names, identityName(ident, side.nameProp))
				}
			}
			addMembers(&view, side.listProp, names)
		}
	}
	return view.Properties
}

// addMembers adds to view's list field the members it lacks, sorted, after
// the stored ones; view's Properties are replaced, never written through.
func addMembers(view *Resource, field string, members []string) {
	have := FieldStrings(view, field)
	add := map[string]bool{}
	for _, m := range members {
		if m != "" && !Contains(have, m) {
			add[m] = true
		}
	}
	if len(add) == 0 {
		return
	}
	list := append(append([]string(nil), have...), SortedKeys(add)...)
	cp := &Resource{Properties: append(json.RawMessage(nil), view.Properties...)}
	if SetField(cp, field, list) == nil {
		view.Properties = cp.Properties
	}
}
