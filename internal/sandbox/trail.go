package sandbox

import (
	"encoding/json"
	"fmt"
	"net"
	"regexp"
	"sort"
	"strings"

	"github.com/realdrift/realdrift/internal/region"
	"github.com/realdrift/realdrift/internal/sandbox/wire"
	"github.com/realdrift/realdrift/internal/sandbox/world"
)

// The sandbox records its own trail (world.Trail): every write it serves
// (recordCall, from the one dispatch) and every admin change (Apply) is a
// CloudTrail management event, served by the cloudtrail service's
// LookupEvents and delivered to the sandbox's EventBridge (BusEvents, GET
// /_sandbox/events) as "AWS API Call via CloudTrail". A global service's
// event (IAM, CloudFront, Route 53, …) is recorded in the region AWS
// records it in, its endpoint's one region (us-east-1 in the aws
// partition: region.Home), whatever region the call was signed for.

// readVerbs are the operation-name prefixes CloudTrail marks readOnly: an
// operation named so only reads. Every other served operation is a write.
var readVerbs = []string{"Get", "List", "Describe", "Head", "Lookup", "Search", "BatchGet", "Query", "Scan", "Select"}

// readOnlyOps are the operations, keyed "signing-name:Operation", whose
// name does not say they only read.
var readOnlyOps = map[string]bool{
	"sts:AssumeRole": true,
}

// ReadOnly reports whether an operation of a service (by its SigV4 signing
// name) is a read, as CloudTrail's readOnly field says.
func ReadOnly(signingName, operation string) bool {
	if readOnlyOps[signingName+":"+operation] {
		return true
	}
	for _, v := range readVerbs {
		if rest, ok := strings.CutPrefix(operation, v); ok && (rest == "" || rest[0] >= 'A' && rest[0] <= 'Z') {
			return true
		}
	}
	return false
}

// recordCall records a write the sandbox answered (also a refused one,
// with its error code, as CloudTrail records failed calls). A call the
// client gave up on is not recorded.
func (s *Server) recordCall(c *wire.Call, accessKey string, status int, code string) {
	if status == 499 || ReadOnly(c.Service.Name, c.Action) {
		return
	}
	params := requestParams(c)
	ev := world.TrailEvent{
		EventName:   c.Action,
		EventSource: c.Service.Name + ".amazonaws.com",
		Time:        s.opts.now(),
		Account:     c.Account,
		Region:      region.Home(c.Service.Name, c.Region),
		Identity:    world.IdentityOf(c.Who, accessKey),
		SourceIP:    remoteIP(c.HTTP.RemoteAddr),
		UserAgent:   c.HTTP.Header.Get("User-Agent"),
		ErrorCode:   code,
		RequestID:   c.RequestID,
		Params:      params,
		Resources:   resourcesNamed(params),
	}
	if code != "" {
		ev.ErrorMsg = fmt.Sprintf("%s (HTTP %d)", code, status)
	}
	s.st.Lock()
	s.st.Trail.Record(ev)
	s.st.Unlock()
}

func remoteIP(addr string) string {
	if h, _, err := net.SplitHostPort(addr); err == nil {
		return h
	}
	return addr
}

// hiddenParam names request parameters CloudTrail never records in
// plaintext.
var hiddenParam = regexp.MustCompile(`(?i)secret|password|passphrase|privatekey|token$|authtoken`)

// hidden is how CloudTrail shows a sensitive request parameter.
const hidden = "HIDDEN_DUE_TO_SECURITY_REASONS"

// requestParams is a call's requestParameters: the JSON body's members, or
// the query form's parameters (Action and Version aside), plus a REST
// call's path parameters, with lower-camel names as CloudTrail writes
// them and sensitive values hidden.
func requestParams(c *wire.Call) json.RawMessage {
	out := map[string]any{}
	var body map[string]any
	if len(c.Body) > 0 && json.Unmarshal(c.Body, &body) == nil {
		for k, v := range body {
			out[lowerCamel(k)] = v
		}
	}
	if c.Service.Protocol == wire.ProtoQuery || c.Service.Protocol == wire.ProtoEC2 {
		for k, v := range c.Form {
			if k == "Action" || k == "Version" || len(v) == 0 {
				continue
			}
			out[lowerCamel(k)] = v[0]
		}
	}
	for k, v := range c.Params {
		out[lowerCamel(k)] = v
	}
	for k, v := range out {
		if hiddenParam.MatchString(k) && !strings.HasSuffix(strings.ToLower(k), "clienttoken") {
			if _, ok := v.(string); ok {
				out[k] = hidden
			}
		}
	}
	b, err := world.MarshalNoEscape(out)
	if err != nil {
		return nil
	}
	return b
}

func lowerCamel(k string) string {
	if k == "" || k[0] < 'A' || k[0] > 'Z' {
		return k
	}
	return strings.ToLower(k[:1]) + k[1:]
}

// nameParam are the request parameters that name a resource: an ARN, URL,
// name or identifier (queueUrl, topicArn, roleName, identifier, bucket).
var nameParam = regexp.MustCompile(`(?i)(arn|url|name|identifier|id|bucket|function)$`)

// resourcesNamed are the resources a call's parameters name (LookupEvents'
// ResourceName): the top-level string parameters that name one, typed by
// a Cloud Control call's typeName.
func resourcesNamed(params json.RawMessage) []world.TrailResource {
	var m map[string]any
	if json.Unmarshal(params, &m) != nil {
		return nil
	}
	typ, _ := m["typeName"].(string)
	var out []world.TrailResource
	for k, v := range m {
		name, ok := v.(string)
		if !ok || name == "" || name == hidden || k == "typeName" || strings.Contains(k, ".") || !nameParam.MatchString(k) ||
			strings.HasSuffix(strings.ToLower(k), "clienttoken") || strings.HasSuffix(strings.ToLower(k), "requestid") {
			continue
		}
		r := world.TrailResource{Name: name}
		if k == "identifier" {
			r.Type = typ
		}
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// BusEvents returns the events the sandbox delivered to its EventBridge
// (one per trail event recorded after sequence number after, oldest
// first), as EventBridge delivers CloudTrail events to a rule's target,
// and the sequence number of the last.
func (s *Server) BusEvents(after int) ([]json.RawMessage, int) {
	s.st.RLock()
	evs := s.st.Trail.Since(after)
	s.st.RUnlock()
	out := make([]json.RawMessage, 0, len(evs))
	last := after
	for _, ev := range evs {
		out = append(out, busEvent(ev))
		last = ev.Seq
	}
	return out, last
}

// busEvent is the EventBridge envelope of a CloudTrail event.
func busEvent(ev world.TrailEvent) json.RawMessage {
	source := "aws." + strings.TrimSuffix(ev.EventSource, ".amazonaws.com")
	resources := []string{}
	for _, r := range ev.Resources {
		if strings.HasPrefix(r.Name, "arn:") {
			resources = append(resources, r.Name)
		}
	}
	b, _ := world.MarshalNoEscape(struct {
		Version    string          `json:"version"`
		ID         string          `json:"id"`
		DetailType string          `json:"detail-type"`
		Source     string          `json:"source"`
		Account    string          `json:"account"`
		Time       string          `json:"time"`
		Region     string          `json:"region"`
		Resources  []string        `json:"resources"`
		Detail     json.RawMessage `json:"detail"`
	}{"0", world.UUIDFrom("bus/" + ev.EventID), "AWS API Call via CloudTrail", source, ev.Account,
		ev.Time.UTC().Format(world.TrailTime), ev.Region, resources, ev.Record()})
	return b
}

// adminUserAgent is the user agent of an admin change that names none.
const adminUserAgent = "sandbox-admin"

// changeEvent is the trail event of an admin change as a Cloud Control
// write (or the event the change names), made by the change's principal.
// The caller holds the write lock.
func (s *Server) changeEvent(ch Change, res *world.Resource) (world.TrailEvent, error) {
	p, key, err := s.changePrincipal(ch)
	if err != nil {
		return world.TrailEvent{}, err
	}
	name, source := ch.EventName, ch.EventSource
	if name == "" {
		name = map[ChangeOp]string{OpSet: "UpdateResource", OpRemove: "UpdateResource", OpAdd: "CreateResource", OpDelete: "DeleteResource"}[ch.Op]
	}
	if source == "" {
		source = "cloudcontrolapi.amazonaws.com"
	}
	ua, ip := ch.UserAgent, ch.SourceIP
	if ua == "" {
		ua = adminUserAgent
	}
	if ip == "" {
		ip = "127.0.0.1"
	}
	params := map[string]any{"typeName": ch.Type, "identifier": ch.Identifier}
	switch ch.Op {
	case OpSet:
		params["patchDocument"] = []map[string]any{{"op": "add", "path": world.ToPointer(ch.Path), "value": ch.Value}}
	case OpRemove:
		params["patchDocument"] = []map[string]any{{"op": "remove", "path": world.ToPointer(ch.Path)}}
	}
	b, err := world.MarshalNoEscape(params)
	if err != nil {
		return world.TrailEvent{}, fmt.Errorf("change: %w", err)
	}
	rs := []world.TrailResource{{Type: ch.Type, Name: ch.Identifier}}
	if res != nil && res.PhysicalID != "" && res.PhysicalID != ch.Identifier {
		rs = append(rs, world.TrailResource{Type: ch.Type, Name: res.PhysicalID})
	}
	id := world.IdentityOf(p, key)
	if ch.SourceIdentity != "" {
		id.SourceIdentity = ch.SourceIdentity
	}
	return world.TrailEvent{
		EventName: name, EventSource: source, Time: s.opts.now(), Account: ch.Account,
		Region:   region.Home(strings.TrimSuffix(source, ".amazonaws.com"), ch.Region),
		Identity: id, SourceIP: ip, UserAgent: ua, Params: b, Resources: rs,
		RequestID: world.UUIDFrom(fmt.Sprintf("admin/%d", s.st.Trail.Len())),
	}, nil
}

var (
	userARN        = regexp.MustCompile(`^arn:aws[-a-z]*:iam::([0-9]{12}):user/(?:[\x21-\x7e]+/)?([\w+=,.@-]{1,64})$`)
	rootARN        = regexp.MustCompile(`^arn:aws[-a-z]*:iam::([0-9]{12}):root$`)
	assumedRoleARN = regexp.MustCompile(`^arn:aws[-a-z]*:sts::([0-9]{12}):assumed-role/([\w+=,.@-]{1,64})/([\w+=,.@-]{2,64})$`)
	userName       = regexp.MustCompile(`^[\w+=,.@-]{1,64}$`)
)

// changePrincipal is who makes an admin change, and the access key it
// signs with: the change's Principal (an IAM user, root or assumed-role
// session ARN, or a user name in the changed account), else the
// principal of its AccessKey, else the account's root.
func (s *Server) changePrincipal(ch Change) (world.Principal, string, error) {
	derivedKey := func(p world.Principal) string {
		if p.Role != "" {
			return "ASIA" + world.ShortHash("admin-key/"+p.ARN, 16)
		}
		return "AKIA" + world.ShortHash("admin-key/"+p.ARN, 16)
	}
	var p world.Principal
	switch v := ch.Principal; {
	case v == "" && ch.AccessKey != "":
		return s.st.Keys[ch.AccessKey], ch.AccessKey, nil
	case v == "":
		p = world.UserPrincipal(ch.Account, "")
	case rootARN.MatchString(v):
		p = world.UserPrincipal(rootARN.FindStringSubmatch(v)[1], "")
	case userARN.MatchString(v):
		m := userARN.FindStringSubmatch(v)
		p = world.UserPrincipal(m[1], m[2])
	case assumedRoleARN.MatchString(v):
		m := assumedRoleARN.FindStringSubmatch(v)
		p = world.RolePrincipal(m[1], m[2], m[3])
	case userName.MatchString(v):
		p = world.UserPrincipal(ch.Account, v)
	default:
		return world.Principal{}, "", fmt.Errorf("change: principal %q is not a user name or an IAM user, root or assumed-role ARN", v)
	}
	p.SourceIdentity = ch.SourceIdentity
	return p, derivedKey(p), nil
}
