package sandbox

import (
	"fmt"
	"strings"
)

// authorize evaluates the identity policies of the call's principal, when
// its account declares any for it, and returns AccessDenied in the
// service's shape (its deny error) with AWS's message, or nil.
//
// Only identity policies are evaluated: no SCPs, resource policies,
// permission boundaries or session policies, and no role trust policies
// (any role of a world account can still be assumed). DynamoDB is not
// served here (DynamoDB Local ignores IAM), so dynamodb:LeadingKeys and the
// other table conditions are never evaluated locally.
func (s *Server) authorize(c *call) *apiError {
	action := IAMAction(c.svc.name, c.action)
	if unauthenticated[action] {
		return nil
	}
	stmts, ok := s.policiesOf(c.who)
	if !ok {
		return nil
	}
	res := s.iamResource(c)
	q := request{action: action, resource: res, keys: s.conditionKeys(c.who, c.region, c.r.TLS != nil, res)}
	d := evaluate(stmts, q)
	if d == allowed {
		return nil
	}
	e := c.svc.deny
	e.Message = denyMessage(c.who, action, q.resource, d)
	if c.svc.protocol == protoEC2 {
		e.Message = "You are not authorized to perform this operation. " + e.Message
	}
	return &e
}

// denyMessage is AWS's AccessDenied message for a refused action.
func denyMessage(who principal, action, resource string, d decision) string {
	why := "because no identity-based policy allows the " + action + " action"
	if d == explicitDeny {
		why = "with an explicit deny in an identity-based policy"
	}
	return fmt.Sprintf("User: %s is not authorized to perform: %s on resource: %s %s", who.arn, action, resource, why)
}

// policiesOf returns the compiled statements of a principal and whether
// its account declares policies for it.
func (s *Server) policiesOf(p principal) ([]statement, bool) {
	pol := s.principalPolicies(p)
	if pol == nil {
		return nil, false
	}
	return pol.stmts, true
}

// principalPolicies returns the Policies its account declares for p, nil
// for none (or the account root).
func (s *Server) principalPolicies(p principal) *Policies {
	role, user := p.role, ""
	if role == "" {
		_, user, _ = strings.Cut(p.arn, ":user/")
		if user == "" {
			return nil // the account root
		}
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	a := s.st.account(p.account)
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
func (s *Server) conditionKeys(who principal, region string, tls bool, resource string) map[string][]string {
	keys := map[string][]string{
		"aws:principalaccount": {who.account},
		"aws:requestedregion":  {region},
		"aws:userid":           {who.userID},
		"aws:securetransport":  {fmt.Sprint(tls)},
		// A call the principal makes itself; a service calling on its
		// behalf (forward access sessions) says true (handlerDenied).
		"aws:viaawsservice": {"false"},
	}
	if who.role != "" {
		keys["aws:principalarn"] = []string{"arn:aws:iam::" + who.account + ":role/" + who.role}
		keys["aws:principaltype"] = []string{"AssumedRole"}
	} else {
		keys["aws:principalarn"] = []string{who.arn}
		keys["aws:principaltype"] = []string{"User"}
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if o := s.st.world.Organization; o != nil {
		keys["aws:principalorgid"] = []string{o.ID}
		if f := strings.SplitN(resource, ":", 6); len(f) == 6 && f[4] != "" && s.st.account(f[4]) != nil {
			keys["aws:resourceorgid"] = []string{o.ID}
		}
	}
	return keys
}
