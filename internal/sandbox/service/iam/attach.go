package iam

import (
	"sort"
	"strings"

	"github.com/realdrift/realdrift/internal/sandbox/wire"
	"github.com/realdrift/realdrift/internal/sandbox/world"
)

// Managed-policy attachments of roles, users and groups:
// Attach{Role,User,Group}Policy, Detach…Policy and
// ListAttached…Policies.
//
// An identity's attached policies are its model's ManagedPolicyArns plus
// every AWS::IAM::ManagedPolicy whose Roles / Users / Groups name it (the
// view ListEntitiesForPolicy answers from the policy's side). Attaching
// adds the ARN to the identity's ManagedPolicyArns (attaching what is
// attached is no change, as on AWS); detaching removes it from there and
// the identity from every managed policy's list that names it (an emptied
// ManagedPolicyArns is removed). A policy is attachable when it is an AWS
// managed policy (arn:…:iam::aws:policy/…) or a managed policy of the
// account; an identity takes at most 10.

// maxAttachedPolicies is IAM's default quota of managed policies per
// identity.
const maxAttachedPolicies = 10

// iamAttachOps are the attachment handlers Service registers.
func iamAttachOps() map[string]wire.Handler {
	out := map[string]wire.Handler{}
	for _, k := range []principalKind{roleKind, userKind, groupKind} {
		noun := strings.ToUpper(k.noun[:1]) + k.noun[1:]
		out["Attach"+noun+"Policy"] = func(st *world.State, c *wire.Call) (any, error) { return attachPolicy(st, c, k) }
		out["Detach"+noun+"Policy"] = func(st *world.State, c *wire.Call) (any, error) { return detachPolicy(st, c, k) }
		out["ListAttached"+noun+"Policies"] = func(st *world.State, c *wire.Call) (any, error) { return listAttached(st, c, k) }
	}
	return out
}

// attachedPolicies returns the ARNs attached to an identity, sorted. The
// caller holds the lock.
func attachedPolicies(st *world.State, c *wire.Call, k principalKind, name string, ident *world.Resource) []string {
	seen := map[string]bool{}
	for _, a := range world.FieldStrings(ident, "ManagedPolicyArns") {
		seen[a] = true
	}
	for _, p := range st.OfType(c.Account, "", "AWS::IAM::ManagedPolicy") {
		if world.Contains(world.FieldStrings(p, k.listProp), name) {
			arn := world.FieldString(p, "PolicyArn")
			if arn == "" {
				arn = p.CCID()
			}
			seen[arn] = true
		}
	}
	return world.SortedKeys(seen)
}

// attachable checks a policy ARN: well formed, and an AWS managed policy
// or one of the account's. The caller holds the lock.
func attachable(st *world.State, c *wire.Call, arn string) error {
	parts := strings.SplitN(arn, ":", 6)
	if len(parts) != 6 || parts[0] != "arn" || parts[2] != "iam" || !strings.HasPrefix(parts[5], "policy/") {
		return wire.Errf(400, "InvalidInput", "ARN %s is not valid.", arn)
	}
	if parts[4] == "aws" {
		return nil
	}
	_, err := managedPolicy(st, c, arn)
	return err
}

func attachPolicy(st *world.State, c *wire.Call, k principalKind) (any, error) {
	name, arn := c.Str(k.nameProp), c.Str("PolicyArn")
	st.Lock()
	defer st.Unlock()
	ident, err := mustIdentity(st, c, k, name)
	if err != nil {
		return nil, err
	}
	if err := attachable(st, c, arn); err != nil {
		return nil, err
	}
	have := attachedPolicies(st, c, k, name, ident)
	if world.Contains(have, arn) {
		return nil, nil
	}
	if len(have) >= maxAttachedPolicies {
		return nil, wire.Errf(409, "LimitExceeded", "Cannot exceed quota for PoliciesPer%s: %d", strings.ToUpper(k.noun[:1])+k.noun[1:], maxAttachedPolicies)
	}
	return nil, world.SetField(ident, "ManagedPolicyArns", append(world.FieldStrings(ident, "ManagedPolicyArns"), arn))
}

func detachPolicy(st *world.State, c *wire.Call, k principalKind) (any, error) {
	name, arn := c.Str(k.nameProp), c.Str("PolicyArn")
	st.Lock()
	defer st.Unlock()
	ident, err := mustIdentity(st, c, k, name)
	if err != nil {
		return nil, err
	}
	if !world.Contains(attachedPolicies(st, c, k, name, ident), arn) {
		return nil, noEntity("Policy %s was not found.", arn)
	}
	var kept []string
	for _, a := range world.FieldStrings(ident, "ManagedPolicyArns") {
		if a != arn {
			kept = append(kept, a)
		}
	}
	if len(kept) == 0 {
		err = world.RemoveField(ident, "ManagedPolicyArns")
	} else {
		err = world.SetField(ident, "ManagedPolicyArns", kept)
	}
	if err != nil {
		return nil, err
	}
	for _, p := range st.OfType(c.Account, "", "AWS::IAM::ManagedPolicy") {
		pa := world.FieldString(p, "PolicyArn")
		if pa == "" {
			pa = p.CCID()
		}
		names := world.FieldStrings(p, k.listProp)
		if pa != arn || !world.Contains(names, name) {
			continue
		}
		var rest []string
		for _, n := range names {
			if n != name {
				rest = append(rest, n)
			}
		}
		if len(rest) == 0 {
			err = world.RemoveField(p, k.listProp)
		} else {
			err = world.SetField(p, k.listProp, rest)
		}
		if err != nil {
			return nil, err
		}
	}
	return nil, nil
}

// listAttached lists an identity's attached policies, MaxItems (1-1000,
// default 100) a page with Marker.
func listAttached(st *world.State, c *wire.Call, k principalKind) (any, error) {
	name := c.Str(k.nameProp)
	cur, err := iamPage(c)
	if err != nil {
		return nil, err
	}
	st.RLock()
	defer st.RUnlock()
	ident, err := mustIdentity(st, c, k, name)
	if err != nil {
		return nil, err
	}
	arns := attachedPolicies(st, c, k, name, ident)
	sort.Strings(arns)
	var nodes []*wire.Node
	for _, a := range arns {
		nodes = append(nodes, wire.El("", wire.Tx("PolicyName", a[strings.LastIndexByte(a, '/')+1:]), wire.Tx("PolicyArn", a)))
	}
	lo, hi, next := cur.Cut(len(nodes))
	out := wire.El("", wire.Members("AttachedPolicies", nodes[lo:hi]), wire.Bool("IsTruncated", next != ""))
	if next != "" {
		out.Kids = append(out.Kids, wire.Tx("Marker", next))
	}
	return out, nil
}

// iamPage reads an IAM list's MaxItems (1-1000, default 100) and Marker.
func iamPage(c *wire.Call) (wire.Cursor, error) {
	return wire.Paging{Prefix: "iam", Default: 100, Max: 1000,
		BadSize: func(n string) error {
			return wire.Validation("1 validation error detected: Value '%s' at 'maxItems' failed to satisfy constraint: Member must have value between 1 and 1000", n)
		},
		BadToken: wire.Validation("Invalid Marker")}.StartText(c, c.Str("MaxItems"), c.Str("Marker"))
}
