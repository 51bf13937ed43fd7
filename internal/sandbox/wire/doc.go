// Package wire is what the sandbox's services share to speak AWS's
// protocols: the protocols themselves (query/XML, EC2 query, JSON 1.0/1.1,
// REST-JSON, REST-XML, Smithy RPCv2 CBOR), the Service descriptor a service
// registers (signing name, protocol, error shapes, REST routing, its
// operations), the Call a handler serves (request, account, region,
// principal, form, body, path parameters, page size, clock), the Error
// answered in each protocol's shape (Errf, Validation), the replies
// (*Node for query and REST-XML results, Raw for a body the handler shaped,
// any other value encoded as JSON) and paging (Paging: a list's bounds and
// errors; its tokens are bound to the listing that issued them, Listing,
// and to their issue time, refused past a lifetime the service documents,
// TokensExpire). A service is built
// with its protocol's constructor (JSON, Query, RESTJSON, RESTXML), which
// gives the protocol's usual throttling and denial errors (Throttles and
// Denies set others; ThrottlesOp an operation's own throttling error,
// which ThrottleFor answers), the error a request signed with an unknown access
// key gets is its protocol's unless RejectsKeys names the service's own
// (Service.UnknownKey), and a REST service is routed by a table of method
// and path patterns (Paths).
//
// Rules:
//   - A Handler gets the world state and the call, and returns a reply or
//     an error; it takes the state's lock itself. It never writes to the
//     response: the router writes every reply and error, so the call log,
//     latency, faults, throttling and IAM authorization apply to every
//     served operation alike.
//   - Services use this package; they do not reach into the router or
//     into another service.
//   - The package never panics on input, prints or exits.
package wire
