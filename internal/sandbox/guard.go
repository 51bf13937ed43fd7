package sandbox

import (
	"bytes"
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
// credential, every Ask of the request evaluated against its identity
// policies with the global condition keys, and AccessDenied answered in the
// service's own error shape with AWS's message. Allowed requests reach next
// with their body intact. A denial lands in the call log (service:action:
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
		who := s.principalFor(sc.accessKey)
		stmts, governed := s.policiesOf(who)
		if !governed {
			next.ServeHTTP(w, r)
			return
		}
		asks, err := ask(r, body, who.Account, sc.region)
		if err != nil {
			wire.WriteError(w, svc, reqID, wire.Errf(400, "ValidationException", "the sandbox's guard cannot read the request: %v", err))
			return
		}
		for _, a := range asks {
			q := s.askRequest(who, sc.region, r.TLS != nil, a)
			d := world.Evaluate(stmts, q)
			if d == world.Allowed {
				continue
			}
			e := svc.Deny
			e.Message = denyMessage(who, a.Action, a.Resource, d)
			_, op, _ := strings.Cut(a.Action, ":")
			done := s.calls.begin(who.Account, sc.region, signingName, op, sdkAttempt(r.Header))
			wire.WriteError(w, svc, reqID, &e)
			done(e.Status, e.Code)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// askRequest is an Ask as IAM evaluates it: with the global condition keys
// of the principal's request beside the Ask's own.
func (s *Server) askRequest(who world.Principal, region string, tls bool, a Ask) world.Request {
	q := world.Request{Action: a.Action, Resource: a.Resource, Keys: s.conditionKeys(who, region, tls, a.Resource)}
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
// everywhere in the sandbox.
func (s *Server) Allows(accessKeyID, region string, a Ask) bool {
	who := s.principalFor(accessKeyID)
	stmts, governed := s.policiesOf(who)
	if !governed {
		return true
	}
	return world.Evaluate(stmts, s.askRequest(who, region, true, a)) == world.Allowed
}
