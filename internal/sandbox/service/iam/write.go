package iam

import (
	"encoding/json"

	"github.com/realdrift/realdrift/internal/sandbox/wire"
	"github.com/realdrift/realdrift/internal/sandbox/world"
)

// putInline is Put{Role,User,Group}Policy: the identity's own Policies list
// carries the policy when the world has the identity; the resources that
// declared a policy of that name on it follow.
func putInline(st *world.State, c *wire.Call, k principalKind, nameParam string) (any, error) {
	name, pname := c.Str(nameParam), c.Str("PolicyName")
	doc, err := decodePolicy(c.Str("PolicyDocument"))
	if err != nil {
		return nil, err
	}
	if pname == "" {
		return nil, wire.Validation("1 validation error detected: Value null at 'policyName' failed to satisfy constraint: Member must not be null")
	}
	st.Lock()
	defer st.Unlock()
	ident := identity(st, c, k, name)
	pols, _ := inlinePolicies(st, c, k, name, ident)
	if ident == nil && (k.declared || pols[pname] == nil) {
		return nil, noIdentity(k, name)
	}
	if ident != nil {
		list := inlineEntries(ident)
		found := false
		for _, p := range list {
			if entryName(p) == pname {
				p["PolicyDocument"] = doc
				found = true
			}
		}
		if !found {
			nameJSON, _ := json.Marshal(pname)
			list = append(list, map[string]json.RawMessage{"PolicyName": nameJSON, "PolicyDocument": doc})
		}
		if err := world.SetField(ident, "Policies", orderedPolicies(list)); err != nil {
			return nil, err
		}
	}
	if ref := pols[pname]; ref != nil {
		for _, h := range ref.holders {
			if h != ident {
				if err := world.SetField(h, "PolicyDocument", doc); err != nil {
					return nil, err
				}
			}
		}
	}
	return nil, nil
}

// deleteInline is Delete{Role,User,Group}Policy: the policy leaves the
// identity's list and every resource that attached it; an AWS::IAM::Policy
// attached to nothing any more is gone.
func deleteInline(st *world.State, c *wire.Call, k principalKind, nameParam string) (any, error) {
	name, pname := c.Str(nameParam), c.Str("PolicyName")
	st.Lock()
	defer st.Unlock()
	ident := identity(st, c, k, name)
	if ident == nil && k.declared {
		return nil, noIdentity(k, name)
	}
	pols, _ := inlinePolicies(st, c, k, name, ident)
	ref := pols[pname]
	if ref == nil {
		if ident == nil {
			return nil, noIdentity(k, name)
		}
		return nil, noEntity("The %s policy with name %s cannot be found.", k.noun, pname)
	}
	if ident != nil {
		list := inlineEntries(ident)
		kept := list[:0]
		for _, p := range list {
			if entryName(p) != pname {
				kept = append(kept, p)
			}
		}
		var err error
		switch {
		case len(kept) == len(list):
			// Not in the identity's own list: its model keeps its bytes.
		case len(kept) == 0:
			err = world.RemoveField(ident, "Policies")
		default:
			err = world.SetField(ident, "Policies", orderedPolicies(kept))
		}
		if err != nil {
			return nil, err
		}
	}
	for _, h := range ref.holders {
		if h == ident {
			continue
		}
		if h.Type == k.policyType {
			st.Remove(c.Account, "", h)
			continue
		}
		var left []string
		for _, m := range world.FieldStrings(h, k.listProp) {
			if m != name {
				left = append(left, m)
			}
		}
		total := len(left)
		for _, other := range []principalKind{roleKind, userKind, groupKind} {
			if other.listProp != k.listProp {
				total += len(world.FieldStrings(h, other.listProp))
			}
		}
		if total == 0 {
			st.Remove(c.Account, "", h)
		} else if err := world.SetField(h, k.listProp, left); err != nil {
			return nil, err
		}
	}
	return nil, nil
}

// iamDeletePolicyVersion deletes a non-default version of a managed policy
// (DeleteConflict for the default one, NoSuchEntity for an unknown one).
func iamDeletePolicyVersion(st *world.State, c *wire.Call) (any, error) {
	arn, id := c.Str("PolicyArn"), c.Str("VersionId")
	st.Lock()
	defer st.Unlock()
	p, err := managedPolicy(st, c, arn)
	if err != nil {
		return nil, err
	}
	vs := world.PolicyVersionsOf(p)
	var kept []world.PolicyVersion
	for _, v := range vs {
		if v.VersionID != id {
			kept = append(kept, v)
			continue
		}
		if v.Default {
			return nil, wire.Errf(409, "DeleteConflict", "Cannot delete the default version of a policy.")
		}
	}
	if len(kept) == len(vs) {
		return nil, noEntity("Policy %s version %s does not exist or is not attachable.", arn, id)
	}
	p.PolicyVersions = kept
	return nil, nil
}
