package iamauth

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/realdrift/realdrift/internal/sandbox/wire"
	"github.com/realdrift/realdrift/internal/sandbox/world"
)

// The organisation's policies beside identity policies: the SCPs of the
// caller's account (every call), a role's trust policy (sts:AssumeRole)
// and a resource's own policy (an Ask's: the central event bus's).

// SCPGoverned reports whether service control policies restrict the
// principals of account. It takes st's read lock.
func SCPGoverned(st *world.State, account string) bool {
	st.RLock()
	defer st.RUnlock()
	_, ok := st.World.Organization.SCPDecision(account, world.Request{})
	return ok
}

// scpDecision decides q, whose Caller is the principal, against the SCPs
// of its account (ok false: none restrict it). SCPs restrict every
// principal of a member account, its root and principals without
// declared policies too.
func scpDecision(st *world.State, q world.Request) (world.Decision, bool) {
	st.RLock()
	defer st.RUnlock()
	return st.World.Organization.SCPDecision(q.Caller.Account, q)
}

// SCPDenyMessage is AWS's AccessDenied message for an action a service
// control policy refuses.
func SCPDenyMessage(who world.Principal, action, resource string, d world.Decision) string {
	why := "because no service control policy allows the " + action + " action"
	if d == world.ExplicitDeny {
		why = "with an explicit deny in a service control policy"
	}
	return fmt.Sprintf("User: %s is not authorized to perform: %s on resource: %s %s", who.ARN, action, resource, why)
}

// refusal decides q (its Caller the principal) against the SCPs of the
// principal's account, then its identity policies pol (nil: none
// declared, anything allowed), and returns AWS's AccessDenied message, or
// "" when both allow it.
func refusal(st *world.State, q world.Request, pol *world.Policies) string {
	if d, ok := scpDecision(st, q); ok && d != world.Allowed {
		return SCPDenyMessage(q.Caller, q.Action, q.Resource, d)
	}
	if pol == nil {
		return ""
	}
	if d := world.Evaluate(pol.Stmts, q); d != world.Allowed {
		return DenyMessage(q.Caller, q.Action, q.Resource, d)
	}
	return ""
}

// Refuse decides an Ask of who as AWS does — the SCPs of its account, its
// identity policies and, when the Ask carries it, the resource's policy —
// and returns AWS's AccessDenied message, or "" when allowed. With a
// resource policy an explicit Deny in either refuses the call; a caller of
// another account (the Resource ARN's) needs both its identity policies
// and the resource policy to allow it, one of the resource's account
// either (a principal without declared policies counting as allowed by
// its own).
func Refuse(st *world.State, who world.Principal, region string, tls bool, a Ask) string {
	pol := PoliciesOf(st, who)
	if pol == nil && a.Policy == nil && !SCPGoverned(st, who.Account) {
		return ""
	}
	q := Request(st, who, region, tls, a)
	if a.Policy == nil {
		return refusal(st, q, pol)
	}
	if d, ok := scpDecision(st, q); ok && d != world.Allowed {
		return SCPDenyMessage(who, a.Action, a.Resource, d)
	}
	if a.KeyPolicy {
		return keyRefusal(st, q, pol, a)
	}
	rstmts, err := world.CompileResourcePolicy(a.Policy)
	if err != nil {
		// Fail closed: a policy the sandbox cannot read allows nothing.
		return fmt.Sprintf("User: %s is not authorized to perform: %s on resource: %s (the sandbox cannot evaluate its resource-based policy: %v)", who.ARN, a.Action, a.Resource, err)
	}
	id := world.Allowed
	if pol != nil {
		id = world.Evaluate(pol.Stmts, q)
	}
	rd := world.Evaluate(rstmts, q)
	f := strings.SplitN(a.Resource, ":", 6)
	cross := len(f) == 6 && f[4] != "" && f[4] != who.Account
	if world.Combine(id, rd, cross) == world.Allowed {
		return ""
	}
	switch {
	case id == world.ExplicitDeny:
		return DenyMessage(who, a.Action, a.Resource, id)
	case rd == world.ExplicitDeny:
		return fmt.Sprintf("User: %s is not authorized to perform: %s on resource: %s with an explicit deny in a resource-based policy", who.ARN, a.Action, a.Resource)
	case id != world.Allowed:
		return DenyMessage(who, a.Action, a.Resource, id)
	}
	return fmt.Sprintf("User: %s is not authorized to perform: %s on resource: %s because no resource-based policy allows the %s action", who.ARN, a.Action, a.Resource, a.Action)
}

// Trusts reports whether the trust policy of the role of account lets
// the call's principal assume it (sts:AssumeRole, with sts:ExternalId,
// sts:RoleSessionName and sts:SourceIdentity from the request beside the
// global keys); true when the account declares none for it. The caller's
// identity policies are Authorize's: AWS requires both. It takes st's
// read lock: call it without holding the write lock.
func Trusts(st *world.State, c *wire.Call, account, role string) bool {
	arn := "arn:aws:iam::" + account + ":role/" + role
	q := world.Request{Action: "sts:AssumeRole", Resource: arn, Caller: c.Who, Keys: ConditionKeys(st, c.Who, c.Region, c.HTTP.TLS != nil, arn)}
	for k, v := range map[string]string{"sts:externalid": c.Str("ExternalId"), "sts:rolesessionname": c.Str("RoleSessionName"), "sts:sourceidentity": c.Str("SourceIdentity")} {
		if v != "" {
			q.Keys[k] = []string{v}
		}
	}
	st.RLock()
	defer st.RUnlock()
	a := st.Account(account)
	if a == nil {
		return false
	}
	d, ok := a.TrustDecision(role, q)
	return !ok || d == world.Allowed
}

// keyRefusal decides q on a KMS key as KMS does: the key policy a.Policy
// must allow it — a statement naming the caller (its role, user or a
// service) allows it itself; one naming the key's account (its root, or
// its id) only delegates, letting the account's identity policies decide —
// and an explicit Deny in the key policy or the caller's identity
// policies refuses it. A caller of another account needs both the key
// policy and its own identity policies to allow it. An unreadable key
// policy allows nothing.
func keyRefusal(st *world.State, q world.Request, pol *world.Policies, a Ask) string {
	f := strings.SplitN(a.Resource, ":", 6)
	keyAccount := ""
	if len(f) == 6 {
		keyAccount = f[4]
	}
	own, delegating, err := splitKeyPolicy(a.Policy, keyAccount)
	var kd, dd world.Decision = world.ImplicitDeny, world.ImplicitDeny
	if err == nil {
		kd, err = decideDoc(own, q)
	}
	if err == nil {
		dd, err = decideDoc(delegating, q)
	}
	if err != nil {
		return fmt.Sprintf("User: %s is not authorized to perform: %s on resource: %s (the sandbox cannot evaluate the key policy: %v)", q.Caller.ARN, a.Action, a.Resource, err)
	}
	id := world.Allowed
	if pol != nil {
		id = world.Evaluate(pol.Stmts, q)
	}
	cross := keyAccount != "" && keyAccount != q.Caller.Account
	switch {
	case kd == world.ExplicitDeny || dd == world.ExplicitDeny:
		return fmt.Sprintf("User: %s is not authorized to perform: %s on resource: %s with an explicit deny in a resource-based policy", q.Caller.ARN, a.Action, a.Resource)
	case id == world.ExplicitDeny:
		return DenyMessage(q.Caller, a.Action, a.Resource, id)
	case kd == world.Allowed && (!cross || id == world.Allowed):
		return ""
	case dd == world.Allowed && id == world.Allowed:
		return ""
	case kd != world.Allowed && dd != world.Allowed:
		return fmt.Sprintf("User: %s is not authorized to perform: %s on resource: %s because no resource-based policy allows the %s action", q.Caller.ARN, a.Action, a.Resource, a.Action)
	}
	return DenyMessage(q.Caller, a.Action, a.Resource, id)
}

// splitKeyPolicy splits a key policy's statements into those that decide
// themselves and the Allow statements whose only principal is the key's
// account (arn:aws:iam::ACCOUNT:root or ACCOUNT), which delegate to IAM.
func splitKeyPolicy(doc json.RawMessage, account string) (own, delegating []json.RawMessage, err error) {
	var d struct {
		Statement json.RawMessage
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		return nil, nil, fmt.Errorf("key policy: %w", err)
	}
	var stmts []json.RawMessage
	if err := json.Unmarshal(d.Statement, &stmts); err != nil {
		stmts = []json.RawMessage{d.Statement}
	}
	for _, raw := range stmts {
		var st struct {
			Effect    string
			Principal struct{ AWS json.RawMessage }
		}
		if err := json.Unmarshal(raw, &st); err != nil {
			return nil, nil, fmt.Errorf("key policy statement: %w", err)
		}
		var names []string
		if json.Unmarshal(st.Principal.AWS, &names) != nil {
			var one string
			if json.Unmarshal(st.Principal.AWS, &one) == nil {
				names = []string{one}
			}
		}
		root := account != "" && st.Effect == "Allow" && len(names) > 0
		for _, n := range names {
			root = root && (n == account || n == "arn:aws:iam::"+account+":root")
		}
		if root {
			delegating = append(delegating, raw)
		} else {
			own = append(own, raw)
		}
	}
	return own, delegating, nil
}

// decideDoc evaluates q against resource-policy statements (none: an
// implicit deny).
func decideDoc(stmts []json.RawMessage, q world.Request) (world.Decision, error) {
	if len(stmts) == 0 {
		return world.ImplicitDeny, nil
	}
	doc, err := json.Marshal(map[string]any{"Version": "2012-10-17", "Statement": stmts})
	if err != nil {
		return world.ImplicitDeny, err
	}
	compiled, err := world.CompileResourcePolicy(doc)
	if err != nil {
		return world.ImplicitDeny, err
	}
	return world.Evaluate(compiled, q), nil
}
