package sandbox

import "time"
import "strings"
import "encoding/json"
import "fmt"
import "net/url"
import "github.com/realdrift/realdrift/internal/sandbox/world"
import "net/http"

// call is one API request being served.
type call struct {
	r       *http.Request
	svc     *service
	action  string
	region  string
	account string
	who     world.Principal
	reqID   string
	form    url.Values
	body    []byte
	// params are REST path parameters.
	params map[string]string
	// pageSize, operationDelay and now are the server's options a
	// handler reads: list page size, how long an asynchronous change
	// stays pending, the clock.
	pageSize       int
	operationDelay time.Duration
	now            func() time.Time
}

// str returns a query parameter.
func (c *call) str(name string) string { return c.form.Get(name) }

// list reads a query list parameter (Name.member.1, Name.member.2, ...).
func (c *call) list(name string) []string {
	var out []string
	for i := 1; ; i++ {
		v, ok := c.form[fmt.Sprintf("%s.member.%d", name, i)]
		if !ok {
			return out
		}
		out = append(out, v[0])
	}
}

// decode reads a JSON body into v.
func (c *call) decode(v any) error {
	if len(c.body) == 0 {
		return nil
	}
	if err := json.Unmarshal(c.body, v); err != nil {
		return errf(400, "SerializationException", "cannot read the request body: %v", err)
	}
	return nil
}

// handler serves one operation. It returns the reply: *xnode (query result
// contents), raw, or a value to encode as JSON.
type handler func(st *world.State, c *call) (any, error)

// service is one AWS service's wire facts and operations.
type service struct {
	name          string // SigV4 signing name
	protocol      protocol
	xmlns         string // query namespace
	jsonNamespace string // JSON error __type prefix
	jsonVersion   string // "1.0" or "1.1"
	targetPrefix  string // X-Amz-Target prefix, with the dot
	throttle      apiError
	deny          apiError
	// queryXMLNS, when set, is the namespace of the query protocol the
	// service also accepts (SQS before its move to JSON): a request with
	// no X-Amz-Target is served as query.
	queryXMLNS string
	// wrapErrors marks a REST-XML service whose errors are wrapped in
	// <ErrorResponse xmlns=...> (Route 53), unlike S3's bare <Error>.
	wrapErrors bool
	// route names the operation of a REST request and fills path params.
	route func(r *http.Request) (action string, params map[string]string)
	ops   map[string]handler
}

// maxBody bounds request bodies.
const maxBody = 16 << 20

// operation names the operation of r for svc.
func (svc *service) operation(r *http.Request, body []byte) (action string, form url.Values, params map[string]string, err error) {
	switch svc.protocol {
	case protoQuery, protoEC2:
		form = r.URL.Query()
		if r.Method == http.MethodPost {
			bf, perr := url.ParseQuery(string(body))
			if perr != nil {
				return "", nil, nil, errf(400, "MalformedQueryString", "cannot parse the form body: %v", perr)
			}
			for k, v := range bf {
				form[k] = v
			}
		}
		action = form.Get("Action")
		if action == "" {
			return "", nil, nil, errf(400, "MissingAction", "the request has no Action")
		}
	case protoJSON:
		t := r.Header.Get("X-Amz-Target")
		a, ok := strings.CutPrefix(t, svc.targetPrefix)
		if !ok {
			return "", nil, nil, errf(400, NotEmulated, "X-Amz-Target %q is not an operation the sandbox emulates for %s", t, svc.name)
		}
		action = a
	default:
		action, params = svc.route(r)
		form = r.URL.Query()
		if action == "" {
			return "", nil, nil, errf(400, NotEmulated, "%s %s is not an operation the sandbox emulates for %s", r.Method, r.URL.Path, svc.name)
		}
	}
	if svc.ops[action] == nil {
		return "", nil, nil, errf(400, NotEmulated, "%s is not an operation the sandbox emulates for %s", action, svc.name)
	}
	return action, form, params, nil
}

// serverOp adapts an operation that needs the server itself, not only the
// world (Cloud Control's requests, STS's sessions, Security Hub's
// findings, the schema facts).
func serverOp(h func(c *call) (any, error)) handler {
	return func(_ *world.State, c *call) (any, error) { return h(c) }
}
