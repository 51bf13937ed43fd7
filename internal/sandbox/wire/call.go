package wire

import "time"
import "strings"
import "encoding/json"
import "fmt"
import "net/url"
import "github.com/realdrift/realdrift/internal/sandbox/world"
import "net/http"

// call is one API request being served.
type Call struct {
	HTTP      *http.Request
	Service   *Service
	Action    string
	Region    string
	Account   string
	Who       world.Principal
	RequestID string
	Form      url.Values
	Body      []byte
	// params are REST path parameters.
	Params map[string]string
	// pageSize, operationDelay and now are the server's options a
	// handler reads: list page size, how long an asynchronous change
	// stays pending, the clock.
	PageSize       int
	OperationDelay time.Duration
	Now            func() time.Time
}

// now is the call's time on the server's clock (the zero time when the
// call has none).
func (c *Call) now() time.Time {
	if c.Now == nil {
		return time.Time{}
	}
	return c.Now()
}

// str returns a query parameter.
func (c *Call) Str(name string) string { return c.Form.Get(name) }

// list reads a query list parameter (Name.member.1, Name.member.2, ...).
func (c *Call) List(name string) []string {
	var out []string
	for i := 1; ; i++ {
		v, ok := c.Form[fmt.Sprintf("%s.member.%d", name, i)]
		if !ok {
			return out
		}
		out = append(out, v[0])
	}
}

// decode reads a JSON body into v.
func (c *Call) Decode(v any) error {
	if len(c.Body) == 0 {
		return nil
	}
	if err := json.Unmarshal(c.Body, v); err != nil {
		return Errf(400, "SerializationException", "cannot read the request body: %v", err)
	}
	return nil
}

// handler serves one operation. It returns the reply: *xnode (query result
// contents), raw, or a value to encode as JSON.
type Handler func(st *world.State, c *Call) (any, error)

// service is one AWS service's wire facts and operations.
type Service struct {
	Name          string // SigV4 signing name
	Protocol      protocol
	XMLNS         string // query namespace
	JSONNamespace string // JSON error __type prefix
	JSONVersion   string // "1.0" or "1.1"
	TargetPrefix  string // X-Amz-Target prefix, with the dot
	// AltTargetPrefix is a second X-Amz-Target prefix the service accepts
	// (CloudTrail: aws-sdk-go-v2 sends its short target, botocore's model
	// the long one).
	AltTargetPrefix string
	// Throttle is the error a throttled call answers, unless OpThrottle
	// names the operation's own (ThrottleFor gives the one answered).
	Throttle Error
	// OpThrottle are the throttling errors of the operations whose model
	// names one other than the service's (Route 53's
	// ChangeResourceRecordSets answers PriorRequestNotComplete).
	OpThrottle map[string]Error
	Deny       Error
	// Invalid is the error a request answers when it breaks the service
	// model's input constraints (awsmodel.Table.Check); unset, the
	// protocol's usual one (InvalidError).
	Invalid Error
	// BadKey, when its Code is set, is the error the service answers a
	// request signed with an access key AWS does not know, where the
	// service's own differs from its protocol's (S3's InvalidAccessKeyId);
	// UnknownKey gives the one answered.
	BadKey Error
	// queryXMLNS, when set, is the namespace of the query protocol the
	// service also accepts (SQS before its move to JSON): a request with
	// no X-Amz-Target is served as query.
	QueryXMLNS string
	// wrapErrors marks a REST-XML service whose errors are wrapped in
	// <ErrorResponse xmlns=...> (Route 53), unlike S3's bare <Error>.
	WrapErrors bool
	// route names the operation of a REST request and fills path params.
	Route func(r *http.Request) (action string, params map[string]string)
	Ops   map[string]Handler
	// Quotas are the service's own request rates (per second, per account
	// and region, burst one second's worth) by operation, enforced besides
	// any throttle rule and answered with Throttle: CloudTrail's
	// LookupEvents allows 2 a second.
	Quotas map[string]float64
	// Eventual are the writes whose effect AWS documents as eventually
	// consistent (IAM's, EC2's, an SQS queue's attributes, an S3 bucket's
	// policy): with the server's Options.StaleReads, the account's reads
	// of the service see the world as it was before such a write for a
	// while (Eventually marks them).
	Eventual map[string]bool
	// ReadsThrough, when set, names the service whose state a read call
	// of this one reads ("" for its own): Cloud Control reads an
	// AWS::IAM::Role through IAM, so IAM's eventual consistency shows
	// through it too.
	ReadsThrough func(c *Call) string
	// Models say where the service's writes carry the live models of its
	// types, by type: the admin API checks every out-of-band change of a
	// model against the constraints AWS's model states for those writes'
	// input (awsmodel.Table.CheckModel), so a change the service's own API
	// would refuse (a Route 53 TTL that is not a number) is refused.
	Models map[string][]ModelInput
	// ResourcePolicies name, by type, the property of a live model that
	// holds a resource policy the service decides its calls with (SNS's
	// topic policy): the admin API refuses an out-of-band change leaving
	// one no evaluation can decide, as the service refuses such a policy.
	ResourcePolicies map[string]string
	// IAM is how the service's operations are authorized: the facts
	// package iamauth evaluates a call's principal against.
	IAM IAM
	// TokenLifetimes are how long the page tokens of the service's
	// operations stay valid where AWS documents it, by operation ("" for
	// every operation without its own; TokensExpire sets them): an older
	// token is refused (Paging). Where nothing is documented, tokens do
	// not expire.
	TokenLifetimes map[string]time.Duration
}

// TokenLifetime is how long a page token op issues stays valid, 0 for
// ever.
func (svc *Service) TokenLifetime(op string) time.Duration {
	if svc == nil {
		return 0
	}
	if d, ok := svc.TokenLifetimes[op]; ok {
		return d
	}
	return svc.TokenLifetimes[""]
}

// ModelInput is where one write of a service carries a live model of
// one of its types, or a part of one.
type ModelInput struct {
	// Op is the write operation ("ChangeResourceRecordSets").
	Op string
	// Shape is the shape of the write's input (by its name in AWS's
	// model: "ResourceRecordSet") whose members the model's properties
	// of the same names are.
	Shape string
	// At, when set, is the model property holding one such value or a
	// list of them (a RecordSetGroup's RecordSets); else the whole model
	// is one.
	At string
	// Entries, when set, says the write carries the model's top-level
	// properties as the entries of a map (Shape is then that map's
	// shape, At the input member holding it, named in messages): SQS's
	// SetQueueAttributes carries a queue's properties as Attributes. A
	// property is an entry by its own name unless Entries renames it;
	// renamed to "", it is not carried by the write (QueueName, Tags).
	Entries map[string]string
}

// IAM are a service's authorization facts. The zero value is the common
// case: every operation is authorized as signing-name:Operation against
// "*".
type IAM struct {
	// Prefix is the service prefix of its IAM actions where it is not the
	// signing name (Cloud Control's actions are cloudformation:*).
	Prefix string
	// Actions name the IAM action of the operations not authorized as
	// prefix:Operation, by operation (S3's ListBuckets is
	// s3:ListAllMyBuckets).
	Actions map[string]string
	// Public are the operations no policy governs (STS answers
	// GetCallerIdentity even to a principal whose policies deny
	// everything).
	Public map[string]bool
	// Resource returns the ARN a call is authorized against (the stack,
	// queue, topic or role it names); nil, or "", is "*", as AWS
	// authorizes actions without resource-level permissions. It may take
	// the state's read lock.
	Resource func(st *world.State, c *Call) string
	// Policy returns the policy of the resource a call is authorized
	// against (a topic's access policy), decided beside the caller's own
	// as AWS decides a call on a resource with a policy; nil for none. It
	// may take the state's read lock.
	Policy func(st *world.State, c *Call, resource string) json.RawMessage
	// Asks returns the further questions a call puts to IAM beside its
	// own action (the KMS key a publish to an encrypted topic uses), each
	// decided on its own; nil for none. It may take the state's read lock.
	Asks func(st *world.State, c *Call) []Ask
}

// Ask is one question to IAM: an action on a resource, with the service
// condition keys the request carries (the global keys are added when it
// is evaluated).
type Ask struct {
	Action   string
	Resource string
	Keys     map[string][]string
	// Policy is the resource's own policy (an event bus's, a topic's),
	// nil for none: the Ask is decided with it as AWS decides a call on a
	// resource with a policy.
	Policy json.RawMessage
	// KeyPolicy says Policy is a KMS key policy: it must allow the call
	// itself, and its statements naming the key's account (its root)
	// delegate to the caller's identity policies, as KMS decides.
	KeyPolicy bool
	// Deny, when set, is the error the call answers when the Ask is
	// refused (SNS's KMSAccessDenied), instead of the service's.
	Deny *Error
}

// KeyAsk is the question a service puts to a KMS key when it uses the key
// for a caller of callerAccount: action on keyArn under the key's policy,
// with kms:ViaService SERVICE.REGION.amazonaws.com and kms:CallerAccount.
func KeyAsk(action, keyArn string, policy json.RawMessage, service, region, callerAccount string) Ask {
	return Ask{Action: action, Resource: keyArn, Policy: policy, KeyPolicy: true, Keys: map[string][]string{
		"kms:ViaService": {service + "." + region + ".amazonaws.com"}, "kms:CallerAccount": {callerAccount}}}
}

// IAMAction returns the IAM action an operation of svc is authorized as.
func (svc *Service) IAMAction(op string) string {
	if a, ok := svc.IAM.Actions[op]; ok {
		return a
	}
	prefix := svc.Name
	if svc.IAM.Prefix != "" {
		prefix = svc.IAM.Prefix
	}
	return prefix + ":" + op
}

// IAMResource returns the ARN a call of svc is authorized against, "*"
// when the service does not scope it.
func (svc *Service) IAMResource(st *world.State, c *Call) string {
	if svc.IAM.Resource != nil {
		if r := svc.IAM.Resource(st, c); r != "" {
			return r
		}
	}
	return "*"
}

// maxBody bounds request bodies.
const MaxBody = 16 << 20

// operation names the operation of r for svc.
func (svc *Service) Operation(r *http.Request, body []byte) (action string, form url.Values, params map[string]string, err error) {
	switch svc.Protocol {
	case ProtoQuery, ProtoEC2:
		form = r.URL.Query()
		if r.Method == http.MethodPost {
			bf, perr := url.ParseQuery(string(body))
			if perr != nil {
				return "", nil, nil, Errf(400, "MalformedQueryString", "cannot parse the form body: %v", perr)
			}
			for k, v := range bf {
				form[k] = v
			}
		}
		action = form.Get("Action")
		if action == "" {
			return "", nil, nil, Errf(400, "MissingAction", "the request has no Action")
		}
	case ProtoJSON:
		t := r.Header.Get("X-Amz-Target")
		a, ok := strings.CutPrefix(t, svc.TargetPrefix)
		if !ok && svc.AltTargetPrefix != "" {
			a, ok = strings.CutPrefix(t, svc.AltTargetPrefix)
		}
		if !ok {
			return "", nil, nil, Errf(400, NotEmulated, "X-Amz-Target %q is not an operation the sandbox emulates for %s", t, svc.Name)
		}
		action = a
	default:
		action, params = svc.Route(r)
		form = r.URL.Query()
		if action == "" {
			return "", nil, nil, Errf(400, NotEmulated, "%s %s is not an operation the sandbox emulates for %s", r.Method, r.URL.Path, svc.Name)
		}
	}
	if svc.Ops[action] == nil {
		return "", nil, nil, Errf(400, NotEmulated, "%s is not an operation the sandbox emulates for %s", action, svc.Name)
	}
	return action, form, params, nil
}
