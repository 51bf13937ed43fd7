package sandbox

import (
	"sort"
	"time"
)

// Operation is one operation the sandbox serves: the service's SigV4
// signing name and the operation's name in AWS's model.
type Operation struct {
	Service, Name string
}

func (o Operation) String() string { return o.Service + ":" + o.Name }

// ServedOperations lists every operation a sandbox serves (as
// Server.Operations), without a world: for generators.
func ServedOperations() []Operation {
	return (&Server{services: services(&Server{})}).Operations()
}

// Operations lists every operation s serves, from the one registration
// table (services.go), sorted by service then name. The conformance tests
// and the AWS CLI check's generated list are built from it, so an
// operation added to a service is checked or the tests fail.
func (s *Server) Operations() []Operation {
	var out []Operation
	for name, svc := range s.services {
		for op := range svc.Ops {
			out = append(out, Operation{Service: name, Name: op})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Service != out[j].Service {
			return out[i].Service < out[j].Service
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// ThrottleError is what a throttled call of an operation answers: the
// HTTP status and the error code its SDK reads (a query-compatible JSON
// service's query code, which aws-sdk-go-v2 takes from
// x-amzn-query-error).
type ThrottleError struct {
	Status int
	Code   string
}

// ServedThrottles gives every served operation's throttling error, as
// the router answers it (wire.Service.ThrottleFor), without a world: for
// the conformance test that holds them to AWS's models.
func ServedThrottles() map[Operation]ThrottleError {
	out := map[Operation]ThrottleError{}
	for name, svc := range services(&Server{}) {
		for op := range svc.Ops {
			e := svc.ThrottleFor(op)
			code := e.Code
			if e.QueryCode != "" {
				code = e.QueryCode
			}
			out[Operation{Service: name, Name: op}] = ThrottleError{Status: e.Status, Code: code}
		}
	}
	return out
}

// ServedTokenLifetimes gives how long the page tokens of every served
// operation hold (wire.Service.TokenLifetime; 0: they do not expire),
// without a world: for the conformance test that holds them to what AWS's
// models document.
func ServedTokenLifetimes() map[Operation]time.Duration {
	out := map[Operation]time.Duration{}
	for name, svc := range services(&Server{}) {
		for op := range svc.Ops {
			out[Operation{Service: name, Name: op}] = svc.TokenLifetime(op)
		}
	}
	return out
}
