package sandbox

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/realdrift/realdrift/internal/sandbox/iamauth"
	"github.com/realdrift/realdrift/internal/sandbox/wire"
)

// Guard puts the sandbox's IAM in front of a stand-in for a service it
// does not serve — DynamoDB Local, a test double of Secrets Manager, Step
// Functions or EventBridge — so a caller with a role the world declares
// policies for is refused there exactly as it is by the sandbox's own
// services: the caller's principal from the access key of its SigV4
// credential, every Ask of the request decided by iamauth.Refuse (the SCPs
// of its account, its identity policies and the Ask's resource policy)
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
	svc := iamauth.StandIn(signingName)
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
		restricted := iamauth.PoliciesOf(s.st, who) != nil || iamauth.SCPGoverned(s.st, who.Account)
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
			msg := iamauth.Refuse(s.st, who, sc.region, r.TLS != nil, a)
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
	return iamauth.Refuse(s.st, who, region, true, a) == ""
}
