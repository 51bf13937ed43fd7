package wire

import (
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/realdrift/realdrift/internal/sandbox/world"
)

// Ops maps each operation a service serves to its handler.
type Ops = map[string]Handler

// Router names the operation of a REST request and fills its path
// parameters ("" when the request is none of the service's).
type Router = func(r *http.Request) (action string, params map[string]string)

// The constructors below give a service the error codes most services of
// its protocol answer; a service whose model names others says so with
// Throttles and Denies (or sets the fields).

// JSON is a JSON 1.0/1.1 service: its signing name, protocol version
// ("1.0" or "1.1"), X-Amz-Target prefix (with the dot) and operations.
// Errors carry the namespace com.amazonaws.NAME# (NAME without dashes);
// throttling is ThrottlingException and denial AccessDeniedException,
// both 400.
func JSON(name, version, target string, ops Ops) *Service {
	return &Service{
		Name: name, Protocol: ProtoJSON, JSONVersion: version, TargetPrefix: target,
		JSONNamespace: "com.amazonaws." + strings.ReplaceAll(name, "-", "") + "#",
		Throttle:      Error{Status: 400, Code: "ThrottlingException"},
		Deny:          Error{Status: 400, Code: "AccessDeniedException"},
		Ops:           ops,
	}
}

// Query is a query/XML service with its XML namespace: throttling is
// Throttling (400), denial AccessDenied (403).
func Query(name, xmlns string, ops Ops) *Service {
	return &Service{
		Name: name, Protocol: ProtoQuery, XMLNS: xmlns,
		Throttle: Error{Status: 400, Code: "Throttling"},
		Deny:     Error{Status: 403, Code: "AccessDenied"},
		Ops:      ops,
	}
}

// RESTJSON is a REST-JSON service routed by route: throttling is
// TooManyRequestsException (429), denial AccessDeniedException (403).
func RESTJSON(name string, route Router, ops Ops) *Service {
	return &Service{
		Name: name, Protocol: ProtoRESTJSON, Route: route,
		Throttle: Error{Status: 429, Code: "TooManyRequestsException"},
		Deny:     Error{Status: 403, Code: "AccessDeniedException"},
		Ops:      ops,
	}
}

// RESTXML is a REST-XML service with its XML namespace, routed by route:
// throttling is Throttling (400), denial AccessDenied (403).
func RESTXML(name, xmlns string, route Router, ops Ops) *Service {
	return &Service{
		Name: name, Protocol: ProtoRESTXML, XMLNS: xmlns, Route: route,
		Throttle: Error{Status: 400, Code: "Throttling"},
		Deny:     Error{Status: 403, Code: "AccessDenied"},
		Ops:      ops,
	}
}

// Throttles sets the error a throttled call answers.
func (svc *Service) Throttles(status int, code string) *Service {
	svc.Throttle = Error{Status: status, Code: code}
	return svc
}

// Eventually marks writes whose effect AWS documents as eventually
// consistent (Service.Eventual).
func (svc *Service) Eventually(ops ...string) *Service {
	if svc.Eventual == nil {
		svc.Eventual = map[string]bool{}
	}
	for _, op := range ops {
		svc.Eventual[op] = true
	}
	return svc
}

// TokensExpire sets how long page tokens stay valid
// (Service.TokenLifetimes): those the ops issue, or with no op every
// operation's without its own. Only a lifetime AWS documents is set,
// with where it says so.
func (svc *Service) TokensExpire(life time.Duration, ops ...string) *Service {
	if svc.TokenLifetimes == nil {
		svc.TokenLifetimes = map[string]time.Duration{}
	}
	if len(ops) == 0 {
		ops = []string{""}
	}
	for _, op := range ops {
		svc.TokenLifetimes[op] = life
	}
	return svc
}

// ThrottlesOp sets the error a throttled call of one operation answers,
// where the operation's model names its own.
func (svc *Service) ThrottlesOp(op string, status int, code string) *Service {
	if svc.OpThrottle == nil {
		svc.OpThrottle = map[string]Error{}
	}
	svc.OpThrottle[op] = Error{Status: status, Code: code}
	return svc
}

// ThrottleFor is the error a throttled call of op answers: the
// operation's own (OpThrottle), else the service's (Throttle), with its
// message or AWS's usual "Rate exceeded".
func (svc *Service) ThrottleFor(op string) *Error {
	e, ok := svc.OpThrottle[op]
	if !ok {
		e = svc.Throttle
	}
	if e.Message == "" {
		e.Message = "Rate exceeded"
	}
	return &e
}

// Scoped sets the resource a call is authorized against (IAM.Resource).
func (svc *Service) Scoped(resource func(st *world.State, c *Call) string) *Service {
	svc.IAM.Resource = resource
	return svc
}

// RejectsKeys sets the error a request signed with an access key AWS does
// not know answers, for a service whose own differs from its protocol's.
func (svc *Service) RejectsKeys(status int, code, message string) *Service {
	svc.BadKey = Error{Status: status, Code: code, Message: message}
	return svc
}

// The answers AWS gives a request signed with an access key it does not
// know, by protocol family.
const (
	invalidToken   = "The security token included in the request is invalid."
	ec2AuthFailure = "AWS was not able to validate the provided access credentials"
)

// UnknownKey is the error svc answers a request signed with accessKey when
// no principal owns the key: svc.BadKey when the service sets one, else its
// protocol's — InvalidClientTokenId (403) for query/XML and REST-XML
// services (STS, IAM, SNS, CloudFormation, SQS over query, Route 53),
// AuthFailure (401) for EC2's query protocol, UnrecognizedClientException
// for JSON 1.0/1.1 and RPCv2 CBOR (400, as DynamoDB's error table gives
// it) and REST-JSON (403, Lambda), all with the message "The security
// token included in the request is invalid." A JSON or CBOR service that
// also speaks query (SQS, CloudWatch) sends InvalidClientTokenId as its
// query-compatible code, the code its query clients know. A REST-XML
// error carries the key (AWSAccessKeyId), as S3's does.
func (svc *Service) UnknownKey(accessKey string) *Error {
	e := svc.BadKey
	if e.Code == "" {
		switch svc.Protocol {
		case ProtoEC2:
			e = Error{Status: 401, Code: "AuthFailure", Message: ec2AuthFailure}
		case ProtoJSON, ProtoCBOR:
			e = Error{Status: 400, Code: "UnrecognizedClientException", Message: invalidToken}
			if svc.QueryXMLNS != "" {
				e.QueryCode = "InvalidClientTokenId"
			}
		case ProtoRESTJSON:
			e = Error{Status: 403, Code: "UnrecognizedClientException", Message: invalidToken}
		default:
			e = Error{Status: 403, Code: "InvalidClientTokenId", Message: invalidToken}
		}
	}
	if svc.Protocol == ProtoRESTXML && !svc.WrapErrors {
		e.Extra = map[string]string{"AWSAccessKeyId": accessKey}
	}
	return &e
}

// Denies sets the error a call IAM denies answers.
func (svc *Service) Denies(status int, code string) *Service {
	svc.Deny = Error{Status: status, Code: code}
	return svc
}

// Refuses sets the error a request breaking the model's input
// constraints answers.
func (svc *Service) Refuses(status int, code string) *Service {
	svc.Invalid = Error{Status: status, Code: code}
	return svc
}

// InvalidError is the error a request breaking the model's input
// constraints answers: the service's own (Invalid), else its protocol's
// usual one — ValidationException for JSON and REST-JSON, ValidationError
// for query, InvalidParameterValue for EC2, InvalidArgument for REST-XML.
func (svc *Service) InvalidError() Error {
	if svc.Invalid.Code != "" {
		return svc.Invalid
	}
	switch svc.Protocol {
	case ProtoQuery:
		return Error{Status: 400, Code: "ValidationError"}
	case ProtoEC2:
		return Error{Status: 400, Code: "InvalidParameterValue"}
	case ProtoRESTXML:
		return Error{Status: 400, Code: "InvalidArgument"}
	}
	return Error{Status: 400, Code: "ValidationException"}
}

// Paths routes REST requests by method and path pattern:
// {"GET /v1/apis/{api}/apikeys": "ListApiKeys"} names ListApiKeys for a
// GET of that path, with its third segment, unescaped, as the parameter
// api. A {name} matches one whole segment; the request path's leading and
// trailing slashes do not count; where two patterns match, the one with
// more literal segments wins. A segment that cannot be unescaped matches
// nothing.
func Paths(routes map[string]string) Router {
	type route struct {
		method   string
		segs     []string
		literals int
		op       string
	}
	var table []route
	for pat, op := range routes {
		method, path, _ := strings.Cut(pat, " ")
		rt := route{method: method, segs: strings.Split(strings.Trim(path, "/"), "/"), op: op}
		for _, s := range rt.segs {
			if !strings.HasPrefix(s, "{") {
				rt.literals++
			}
		}
		table = append(table, rt)
	}
	return func(r *http.Request) (string, map[string]string) {
		segs := strings.Split(strings.Trim(r.URL.EscapedPath(), "/"), "/")
		best, bestParams := -1, map[string]string(nil)
		for i, rt := range table {
			if rt.method != r.Method || len(rt.segs) != len(segs) || (best >= 0 && rt.literals <= table[best].literals) {
				continue
			}
			if params, ok := matchSegments(rt.segs, segs); ok {
				best, bestParams = i, params
			}
		}
		if best < 0 {
			return "", nil
		}
		return table[best].op, bestParams
	}
}

// matchSegments matches escaped request segments against a pattern's.
func matchSegments(pattern, segs []string) (map[string]string, bool) {
	params := map[string]string{}
	for i, p := range pattern {
		v, err := url.PathUnescape(segs[i])
		if err != nil {
			return nil, false
		}
		if name, ok := strings.CutPrefix(p, "{"); ok {
			params[strings.TrimSuffix(name, "}")] = v
		} else if v != p {
			return nil, false
		}
	}
	return params, true
}
