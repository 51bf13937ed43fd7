package sandbox

import (
	"fmt"
	"strings"

	"github.com/realdrift/realdrift/internal/sandbox/wire"
	"github.com/realdrift/realdrift/internal/sandbox/world"
)

// authorize evaluates the SCPs of the call's principal's account and its
// identity policies, when its account declares any for it, and returns
// AccessDenied in the service's shape (its deny error) with AWS's message,
// or nil.
//
// The organization's SCPs for the principal's account are evaluated first
// (an explicit deny, or no Allow, in them refuses the call whatever the
// identity policies say), then the identity policies; a role's trust
// policy is evaluated by sts:AssumeRole itself. Not evaluated: resource
// policies, permission boundaries and session policies. DynamoDB is not
// served here (DynamoDB Local ignores IAM), so dynamodb:LeadingKeys and the
// other table conditions are never evaluated locally.
func (s *Server) authorize(c *wire.Call) *wire.Error {
	action := IAMAction(c.Service.Name, c.Action)
	if unauthenticated[action] {
		return nil
	}
	stmts, governed := s.policiesOf(c.Who)
	scp := s.scpGoverned(c.Who.Account)
	if !governed && !scp {
		return nil
	}
	res := s.iamResource(c)
	q := world.Request{Action: action, Resource: res, Keys: s.conditionKeys(c.Who, c.Region, c.HTTP.TLS != nil, res), Caller: c.Who}
	msg := s.refusal(q, stmts, governed)
	if msg == "" {
		return nil
	}
	e := c.Service.Deny
	e.Message = msg
	if c.Service.Protocol == wire.ProtoEC2 {
		e.Message = "You are not authorized to perform this operation. " + e.Message
	}
	return &e
}

// denyMessage is AWS's AccessDenied message for a refused action.
func denyMessage(who world.Principal, action, resource string, d world.Decision) string {
	why := "because no identity-based policy allows the " + action + " action"
	if d == world.ExplicitDeny {
		why = "with an explicit deny in an identity-based policy"
	}
	return fmt.Sprintf("User: %s is not authorized to perform: %s on resource: %s %s", who.ARN, action, resource, why)
}

// refusal decides q (its Caller the principal) against the SCPs of the
// principal's account, then, when governed, its identity policies stmts,
// and returns AWS's AccessDenied message, or "" when both allow it.
func (s *Server) refusal(q world.Request, stmts []world.Statement, governed bool) string {
	if d, ok := s.scpDecision(q); ok && d != world.Allowed {
		return scpDenyMessage(q.Caller, q.Action, q.Resource, d)
	}
	if d := world.Evaluate(stmts, q); governed && d != world.Allowed {
		return denyMessage(q.Caller, q.Action, q.Resource, d)
	}
	return ""
}

// scpDenyMessage is AWS's AccessDenied message for an action a service
// control policy refuses.
func scpDenyMessage(who world.Principal, action, resource string, d world.Decision) string {
	why := "because no service control policy allows the " + action + " action"
	if d == world.ExplicitDeny {
		why = "with an explicit deny in a service control policy"
	}
	return fmt.Sprintf("User: %s is not authorized to perform: %s on resource: %s %s", who.ARN, action, resource, why)
}

// scpGoverned reports whether service control policies restrict the
// principals of account.
func (s *Server) scpGoverned(account string) bool {
	s.st.RLock()
	defer s.st.RUnlock()
	_, ok := s.st.World.Organization.SCPDecision(account, world.Request{})
	return ok
}

// scpDecision decides q, whose Caller is the principal, against the SCPs
// of its account (ok false: none restrict it). SCPs restrict every
// principal of a member account, its root and principals without
// declared policies too.
func (s *Server) scpDecision(q world.Request) (world.Decision, bool) {
	s.st.RLock()
	defer s.st.RUnlock()
	return s.st.World.Organization.SCPDecision(q.Caller.Account, q)
}

// policiesOf returns the compiled statements of a principal and whether
// its account declares policies for it.
func (s *Server) policiesOf(p world.Principal) ([]world.Statement, bool) {
	pol := s.principalPolicies(p)
	if pol == nil {
		return nil, false
	}
	return pol.Stmts, true
}

// principalPolicies returns the Policies its account declares for p, nil
// for none (or the account root).
func (s *Server) principalPolicies(p world.Principal) *world.Policies {
	role, user := p.Role, ""
	if role == "" {
		_, user, _ = strings.Cut(p.ARN, ":user/")
		if user == "" {
			return nil // the account root
		}
	}
	s.st.RLock()
	defer s.st.RUnlock()
	a := s.st.Account(p.Account)
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

// conditionKeys are the global condition keys of a request context: the
// principal's, the region's and, when the resource's account (the fifth
// field of its ARN) belongs to the organization, aws:ResourceOrgID.
func (s *Server) conditionKeys(who world.Principal, region string, tls bool, resource string) map[string][]string {
	keys := map[string][]string{
		"aws:principalaccount": {who.Account},
		"aws:requestedregion":  {region},
		"aws:userid":           {who.UserID},
		"aws:securetransport":  {fmt.Sprint(tls)},
		// A call the principal makes itself; a service calling on its
		// behalf (forward access sessions) says true (handlerDenied).
		"aws:viaawsservice": {"false"},
	}
	if who.Role != "" {
		keys["aws:principalarn"] = []string{"arn:aws:iam::" + who.Account + ":role/" + who.Role}
		keys["aws:principaltype"] = []string{"AssumedRole"}
	} else {
		keys["aws:principalarn"] = []string{who.ARN}
		keys["aws:principaltype"] = []string{"User"}
	}
	s.st.RLock()
	defer s.st.RUnlock()
	if o := s.st.World.Organization; o != nil {
		keys["aws:principalorgid"] = []string{o.ID}
		if f := strings.SplitN(resource, ":", 6); len(f) == 6 && f[4] != "" && s.st.Account(f[4]) != nil {
			keys["aws:resourceorgid"] = []string{o.ID}
		}
	}
	return keys
}
