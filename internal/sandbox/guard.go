package sandbox

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/realdrift/realdrift/internal/sandbox/wire"
	"github.com/realdrift/realdrift/internal/sandbox/world"
)

// Ask is one question a request puts to IAM: an action on a resource, with
// the service condition keys the request carries (dynamodb:LeadingKeys;
// the global keys are added by the guard).
type Ask struct {
	Action   string
	Resource string
	Keys     map[string][]string
	// Policy is the resource's own policy (an event bus's), nil for none.
	// With one, the call is decided as AWS decides it: an explicit Deny in
	// either policy refuses it; a caller of another account (the
	// Resource ARN's) needs both its identity policies and Policy to allow
	// it, one of the resource's account either (a principal without
	// declared policies counting as allowed by its own).
	Policy json.RawMessage
}

// Asker maps a request of a stand-in service to the questions it puts to
// IAM. account and region are the caller's (the credential's account, the
// SigV4 scope's region): the stand-in's resources live there. An error
// means the request cannot be read, and the guard refuses it.
type Asker func(r *http.Request, body []byte, account, region string) ([]Ask, error)

// guardServices are the wire shapes of the services the sandbox does not
// serve but guards: their AccessDenied answers.
var guardServices = map[string]*wire.Service{
	"dynamodb": {Name: "dynamodb", Protocol: wire.ProtoJSON, JSONNamespace: "com.amazonaws.dynamodb.v20120810#", JSONVersion: "1.0",
		Deny: wire.Error{Status: 400, Code: "AccessDeniedException"}},
	"states": {Name: "states", Protocol: wire.ProtoJSON, JSONNamespace: "", JSONVersion: "1.0",
		Deny: wire.Error{Status: 400, Code: "AccessDeniedException"}},
}

// Guard puts the sandbox's IAM in front of a stand-in for a service it
// does not serve — DynamoDB Local, a test double of Secrets Manager, Step
// Functions or EventBridge — so a caller with a role the world declares
// policies for is refused there exactly as it is by the sandbox's own
// services: the caller's principal from the access key of its SigV4
// credential, every Ask of the request evaluated against the SCPs of its
// account, its identity policies and the Ask's resource policy (Policy)
// with the global condition keys, and AccessDenied answered in the
// service's own error shape with AWS's message. Allowed requests reach next
// with their body intact. A request signed with a key no principal owns
// is refused as the service refuses it (wire.Service's UnknownKey:
// DynamoDB's UnrecognizedClientException). A denial lands in the call log (service:action:
// AccessDeniedException); allowed calls do not, so the log still counts
// only what the sandbox itself serves.
//
// signingName is the service's SigV4 signing name (dynamodb, states,
// secretsmanager, events).
func (s *Server) Guard(signingName string, ask Asker, next http.Handler) http.Handler {
	svc := guardServices[signingName]
	if svc == nil {
		svc = s.services[signingName]
	}
	if svc == nil {
		panic(fmt.Sprintf("sandbox.Guard: no wire shape for service %q", signingName))
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reqID := wire.NewRequestID()
		sc, err := parseScope(r)
		if err != nil {
			wire.WriteError(w, svc, reqID, wire.Errf(403, "MissingAuthenticationToken", "%v", err))
			return
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, wire.MaxBody+1))
		if err != nil || len(body) > wire.MaxBody {
			wire.WriteError(w, svc, reqID, wire.Errf(400, "InvalidRequest", "cannot read the request body"))
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		who, known := s.principalFor(sc.accessKey)
		if !known {
			e := svc.UnknownKey(sc.accessKey)
			done := s.calls.begin("", sc.region, signingName, requestAction(r, body), sdkAttempt(r.Header))
			wire.WriteError(w, svc, reqID, e)
			done(e.Status, e.Code)
			return
		}
		stmts, governed := s.policiesOf(who)
		restricted := governed || s.scpGoverned(who.Account)
		asks, err := ask(r, body, who.Account, sc.region)
		if err != nil {
			if !restricted {
				next.ServeHTTP(w, r) // nothing to decide for an unrestricted caller
				return
			}
			wire.WriteError(w, svc, reqID, wire.Errf(400, "ValidationException", "the sandbox's guard cannot read the request: %v", err))
			return
		}
		for _, a := range asks {
			if !restricted && a.Policy == nil {
				continue
			}
			msg := s.askRefusal(who, sc.region, r.TLS != nil, a, stmts, governed)
			if msg == "" {
				continue
			}
			e := svc.Deny
			e.Message = msg
			_, op, _ := strings.Cut(a.Action, ":")
			done := s.calls.begin(who.Account, sc.region, signingName, op, sdkAttempt(r.Header))
			wire.WriteError(w, svc, reqID, &e)
			done(e.Status, e.Code)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// askRefusal decides one Ask of who: the SCPs of its account, its identity
// policies stmts (when governed) and the Ask's resource policy; AWS's
// AccessDenied message, or "" when allowed.
func (s *Server) askRefusal(who world.Principal, region string, tls bool, a Ask, stmts []world.Statement, governed bool) string {
	q := s.askRequest(who, region, tls, a)
	if a.Policy == nil {
		return s.refusal(q, stmts, governed)
	}
	if d, ok := s.scpDecision(q); ok && d != world.Allowed {
		return scpDenyMessage(who, a.Action, a.Resource, d)
	}
	rstmts, err := world.CompileResourcePolicy(a.Policy)
	if err != nil {
		// Fail closed: a policy the sandbox cannot read allows nothing.
		return fmt.Sprintf("User: %s is not authorized to perform: %s on resource: %s (the sandbox cannot evaluate its resource-based policy: %v)", who.ARN, a.Action, a.Resource, err)
	}
	id := world.Allowed
	if governed {
		id = world.Evaluate(stmts, q)
	}
	rd := world.Evaluate(rstmts, q)
	f := strings.SplitN(a.Resource, ":", 6)
	cross := len(f) == 6 && f[4] != "" && f[4] != who.Account
	if world.Combine(id, rd, cross) == world.Allowed {
		return ""
	}
	switch {
	case id == world.ExplicitDeny:
		return denyMessage(who, a.Action, a.Resource, id)
	case rd == world.ExplicitDeny:
		return fmt.Sprintf("User: %s is not authorized to perform: %s on resource: %s with an explicit deny in a resource-based policy", who.ARN, a.Action, a.Resource)
	case id != world.Allowed:
		return denyMessage(who, a.Action, a.Resource, id)
	}
	return fmt.Sprintf("User: %s is not authorized to perform: %s on resource: %s because no resource-based policy allows the %s action", who.ARN, a.Action, a.Resource, a.Action)
}

// askRequest is an Ask as IAM evaluates it: with the global condition keys
// of the principal's request beside the Ask's own.
func (s *Server) askRequest(who world.Principal, region string, tls bool, a Ask) world.Request {
	q := world.Request{Action: a.Action, Resource: a.Resource, Keys: s.conditionKeys(who, region, tls, a.Resource), Caller: who}
	for k, v := range a.Keys {
		q.Keys[strings.ToLower(k)] = v
	}
	return q
}

// Allows reports whether the identity policies of the principal an access
// key names allow a, evaluated as Guard evaluates a stand-in's requests
// (the global condition keys of an HTTPS request in region beside the
// Ask's), for a stand-in that answers its own refusals: a Lambda function
// URL with AuthType AWS_IAM asks it lambda:InvokeFunctionUrl on the
// function with lambda:FunctionUrlAuthType (lambdarouter.FunctionURL's
// Authorize). A principal without declared policies may do anything, as
// everywhere in the sandbox; a key no principal owns is allowed nothing.
func (s *Server) Allows(accessKeyID, region string, a Ask) bool {
	who, known := s.principalFor(accessKeyID)
	if !known {
		return false
	}
	stmts, governed := s.policiesOf(who)
	if !governed && a.Policy == nil && !s.scpGoverned(who.Account) {
		return true
	}
	return s.askRefusal(who, region, true, a, stmts, governed) == ""
}
