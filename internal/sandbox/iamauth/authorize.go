package iamauth

import (
	"fmt"
	"strings"

	"github.com/realdrift/realdrift/internal/sandbox/wire"
	"github.com/realdrift/realdrift/internal/sandbox/world"
)

// Authorize evaluates the SCPs of the call's principal's account and its
// identity policies, when its account declares any for it, and returns
// AccessDenied in the service's shape (its deny error) with AWS's message,
// or nil. The server runs it on every served call before the handler.
//
// The SCPs are evaluated first (an explicit deny, or no Allow, in them
// refuses the call whatever the identity policies say); a role's trust
// policy is decided by STS itself (Trusts). A resource's own policy is
// decided with them when the service names it (wire.IAM.Policy: a
// topic's), and the further Asks a call puts (wire.IAM.Asks: the KMS key
// a publish to an encrypted topic uses) each after it, the first refusal
// answering in its own error when the Ask names one. Not evaluated:
// other resource policies, permission boundaries and session policies. DynamoDB is not
// served here (DynamoDB Local ignores IAM), so dynamodb:LeadingKeys and the
// other table conditions are evaluated only by the server's guard.
func Authorize(st *world.State, c *wire.Call) *wire.Error {
	if c.Service.IAM.Public[c.Action] {
		return nil
	}
	action := c.Service.IAMAction(c.Action)
	tls := c.HTTP.TLS != nil
	var asks []Ask
	if c.Service.IAM.Asks != nil {
		asks = c.Service.IAM.Asks(st, c)
	}
	var doc []byte
	res := "*"
	if c.Service.IAM.Policy != nil {
		res = c.Service.IAMResource(st, c)
		doc = c.Service.IAM.Policy(st, c, res)
	}
	pol := PoliciesOf(st, c.Who)
	if pol == nil && doc == nil && len(asks) == 0 && !SCPGoverned(st, c.Who.Account) {
		return nil
	}
	if c.Service.IAM.Policy == nil {
		res = c.Service.IAMResource(st, c)
	}
	msg := Refuse(st, c.Who, c.Region, tls, Ask{Action: action, Resource: res, Policy: doc})
	e := c.Service.Deny
	for _, a := range asks {
		if msg != "" {
			break
		}
		if msg = Refuse(st, c.Who, c.Region, tls, a); msg != "" && a.Deny != nil {
			e = *a.Deny
		}
	}
	if msg == "" {
		return nil
	}
	e.Message = msg
	if c.Service.Protocol == wire.ProtoEC2 {
		e.Message = "You are not authorized to perform this operation. " + e.Message
	}
	return &e
}

// DenyMessage is AWS's AccessDenied message for a refused action.
func DenyMessage(who world.Principal, action, resource string, d world.Decision) string {
	why := "because no identity-based policy allows the " + action + " action"
	if d == world.ExplicitDeny {
		why = "with an explicit deny in an identity-based policy"
	}
	return fmt.Sprintf("User: %s is not authorized to perform: %s on resource: %s %s", who.ARN, action, resource, why)
}

// PoliciesOf returns the Policies its account declares for p: nil for
// none, and for the account root (whom identity policies never restrict).
// It takes st's read lock.
func PoliciesOf(st *world.State, p world.Principal) *world.Policies {
	role, user := p.Role, ""
	if role == "" {
		_, user, _ = strings.Cut(p.ARN, ":user/")
		if user == "" {
			return nil // the account root
		}
	}
	st.RLock()
	defer st.RUnlock()
	a := st.Account(p.Account)
	if a == nil {
		return nil
	}
	for _, pol := range a.Policies {
		if pol != nil && pol.Role == role && pol.User == user {
			return pol
		}
	}
	return nil
}

// ConditionKeys are the global condition keys of a request context (keys
// lower-cased): the principal's, the region's and, when the resource's
// account (the fifth field of its ARN) belongs to the organization,
// aws:ResourceOrgID. It takes st's read lock.
func ConditionKeys(st *world.State, who world.Principal, region string, tls bool, resource string) map[string][]string {
	keys := map[string][]string{
		"aws:principalaccount": {who.Account},
		"aws:requestedregion":  {region},
		"aws:userid":           {who.UserID},
		"aws:securetransport":  {fmt.Sprint(tls)},
		// A call the principal makes itself; a service calling on its
		// behalf (forward access sessions) says true (Cloud Control's
		// handler checks).
		"aws:viaawsservice": {"false"},
	}
	if who.Role != "" {
		keys["aws:principalarn"] = []string{"arn:aws:iam::" + who.Account + ":role/" + who.Role}
		keys["aws:principaltype"] = []string{"AssumedRole"}
	} else {
		keys["aws:principalarn"] = []string{who.ARN}
		keys["aws:principaltype"] = []string{"User"}
	}
	st.RLock()
	defer st.RUnlock()
	if o := st.World.Organization; o != nil {
		keys["aws:principalorgid"] = []string{o.ID}
		if f := strings.SplitN(resource, ":", 6); len(f) == 6 && f[4] != "" && st.Account(f[4]) != nil {
			keys["aws:resourceorgid"] = []string{o.ID}
		}
	}
	return keys
}
