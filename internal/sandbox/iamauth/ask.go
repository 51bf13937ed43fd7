package iamauth

import (
	"net/http"
	"strings"

	"github.com/realdrift/realdrift/internal/sandbox/wire"
	"github.com/realdrift/realdrift/internal/sandbox/world"
)

// Ask is one question a request puts to IAM (wire.Ask): an action on a
// resource, with the service condition keys the request carries
// (dynamodb:LeadingKeys) and the resource's own policy, if any.
type Ask = wire.Ask

// Asker maps a request of a stand-in service to the questions it puts to
// IAM. account and region are the caller's (the credential's account, the
// SigV4 scope's region): the stand-in's resources live there. An error
// means the request cannot be read, and the guard refuses it.
type Asker func(r *http.Request, body []byte, account, region string) ([]Ask, error)

// Request is an Ask as IAM evaluates it for who: with the global condition
// keys of the principal's request (ConditionKeys) beside the Ask's own.
func Request(st *world.State, who world.Principal, region string, tls bool, a Ask) world.Request {
	q := world.Request{Action: a.Action, Resource: a.Resource, Keys: ConditionKeys(st, who, region, tls, a.Resource), Caller: who}
	for k, v := range a.Keys {
		q.Keys[strings.ToLower(k)] = v
	}
	return q
}

// StandIn is the wire shape (its AccessDenied answer) of a service the
// sandbox does not serve but guards, by SigV4 signing name; nil for a
// service it knows no shape of (the server then uses its own service's).
func StandIn(signingName string) *wire.Service {
	shapes := map[string]*wire.Service{
		"dynamodb": {Name: "dynamodb", Protocol: wire.ProtoJSON, JSONNamespace: "com.amazonaws.dynamodb.v20120810#", JSONVersion: "1.0",
			Deny: wire.Error{Status: 400, Code: "AccessDeniedException"}},
		"states": {Name: "states", Protocol: wire.ProtoJSON, JSONNamespace: "", JSONVersion: "1.0",
			Deny: wire.Error{Status: 400, Code: "AccessDeniedException"}},
	}
	return shapes[signingName]
}
