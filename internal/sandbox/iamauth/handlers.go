package iamauth

import (
	"strings"

	"github.com/realdrift/realdrift/internal/sandbox/wire"
	"github.com/realdrift/realdrift/internal/sandbox/world"
	"github.com/realdrift/realdrift/internal/schema"
)

// CloudControlCalledVia is the aws:CalledVia (and aws:CalledViaFirst,
// aws:CalledViaLast) value the sandbox gives the service calls of Cloud
// Control's handlers. It is not confirmed against AWS: no AWS data
// installed offline names the value Cloud Control's forward access
// sessions carry (infra/doc.go lists what was searched). The sandbox uses
// CloudFormation's service principal, the value the CDK's servicecatalog
// README conditions a role on for calls CloudFormation makes on a
// caller's behalf, since Cloud Control runs CloudFormation's registry
// handlers; scripts/aws-acceptance.sh probes it in a real account.
const CloudControlCalledVia = "cloudformation.amazonaws.com"

// Cloud Control runs a type's handler with the caller's own credentials
// (forward access sessions): each service call the handler makes is
// authorized against the caller's policies, with aws:ViaAWSService true
// and aws:CalledVia naming CloudFormation. So a policy that explicitly
// denies an action the handler needs (the read role's NeverReadData, say,
// without a condition sparing service calls) makes Cloud Control reads of
// that type fail on AWS, whatever cloudformation:GetResource grants; and a
// caller no policy allows the handler's actions (a revert role granted
// cloudformation:UpdateResource alone) cannot write through it.
//
// HandlerRefused models it: each permission the pinned registry schema
// lists for the handler is evaluated as such a service call. An explicit
// Deny refuses the operation. No Allow refuses it too when the caller's
// Policies are Complete; otherwise not, since what the AWS managed
// policies a role attaches grant is not known here (their committed
// excerpts are partial). Permissions that name no single IAM action
// (schema.IAMAction: wildcards, the names IAM does not know) cannot be
// granted and are not required. Schemas over-list (a handler naming an
// action it does not call on every request), so requiring all of them is
// stricter than AWS; realdrift's grants give a handler all it lists.
//
// It returns the AccessDenied message of the first refused permission.
// It takes st's read lock: call it without holding the write lock.
func HandlerRefused(st *world.State, c *wire.Call, typ, handler string) (string, bool) {
	snap, err := schema.Embedded()
	if err != nil {
		return "", false
	}
	f, ok := snap.Lookup(typ)
	if !ok {
		return "", false
	}
	pol := PoliciesOf(st, c.Who)
	if pol == nil {
		return "", false
	}
	keys := ConditionKeys(st, c.Who, c.Region, true, "*")
	keys["aws:viaawsservice"] = []string{"true"}
	keys["aws:calledvia"] = []string{CloudControlCalledVia}
	keys["aws:calledviafirst"] = []string{CloudControlCalledVia}
	keys["aws:calledvialast"] = []string{CloudControlCalledVia}
	for _, perm := range f.HandlerPermissions[handler] {
		d := world.Evaluate(pol.Stmts, world.Request{Action: perm, Resource: "*", Keys: keys})
		if d == world.ExplicitDeny || (d == world.ImplicitDeny && pol.Complete && schema.IAMAction(perm)) {
			return DenyMessage(c.Who, perm, "*", d) +
				" (called by the " + strings.ToUpper(handler) + " handler of " + typ + " through Cloud Control, with the caller's credentials)", true
		}
	}
	return "", false
}
