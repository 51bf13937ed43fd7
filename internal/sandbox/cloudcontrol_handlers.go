package sandbox

import (
	"strings"

	"github.com/realdrift/realdrift/internal/schema"
)

// Cloud Control runs a type's handler with the caller's own credentials
// (forward access sessions): each service call the handler makes is
// authorized against the caller's policies, with aws:ViaAWSService true
// and aws:CalledVia naming CloudFormation. So a policy that explicitly
// denies an action the handler needs (the read role's NeverReadData, say,
// without a condition sparing service calls) makes Cloud Control reads of
// that type fail on AWS, whatever cloudformation:GetResource grants.
//
// handlerDenied models that half of it: each permission the pinned
// registry schema lists for the handler is evaluated as such a service
// call, and an explicit Deny refuses the operation. A permission no
// statement allows is not refused: what the AWS managed policies a role
// attaches grant is not known here (their committed excerpts are partial),
// so requiring an Allow would refuse what AWS permits. Schemas over-list
// (a read handler naming a write action it does not call on a read), so
// an implicit deny would not be faithful either.
//
// The error a synchronous Cloud Control call answers when its handler is
// refused is not documented; the sandbox answers AccessDeniedException
// with the downstream action in the message, which the readers report as
// skipped (AccessDenied), never as drift.
func (s *Server) handlerDenied(c *call, typ, handler string) error {
	snap, err := schema.Embedded()
	if err != nil {
		return nil
	}
	f, ok := snap.Lookup(typ)
	if !ok {
		return nil
	}
	stmts, ok := s.policiesOf(c.who)
	if !ok {
		return nil
	}
	keys := s.conditionKeys(c.who, c.region, true, "*")
	keys["aws:viaawsservice"] = []string{"true"}
	keys["aws:calledvia"] = []string{"cloudformation.amazonaws.com"}
	keys["aws:calledviafirst"] = []string{"cloudformation.amazonaws.com"}
	keys["aws:calledvialast"] = []string{"cloudformation.amazonaws.com"}
	for _, perm := range f.HandlerPermissions[handler] {
		if evaluate(stmts, request{action: perm, resource: "*", keys: keys}) != explicitDeny {
			continue
		}
		e := c.svc.deny
		e.Message = denyMessage(c.who, perm, "*", explicitDeny) +
			" (called by the " + strings.ToUpper(handler) + " handler of " + typ + " through Cloud Control, with the caller's credentials)"
		return &e
	}
	return nil
}
