package secdiff

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/realdrift/realdrift/internal/cfn"
)

// Op says whether a row comes with the deploy or goes with it.
type Op uint8

// The operations.
const (
	Added Op = iota + 1
	Removed
)

func (o Op) String() string {
	switch o {
	case Added:
		return "+"
	case Removed:
		return "-"
	}
	return "?"
}

// MarshalJSON writes "added" or "removed".
func (o Op) MarshalJSON() ([]byte, error) {
	switch o {
	case Added:
		return json.Marshal("added")
	case Removed:
		return json.Marshal("removed")
	}
	return json.Marshal("unknown")
}

// Statement is one IAM policy statement as a reviewer reads it.
type Statement struct {
	Op Op `json:"op"`
	// Holder is the logical id of the resource the statement is written
	// in.
	Holder     string   `json:"holder"`
	Resources  []string `json:"resources"`
	Effect     string   `json:"effect"`
	Actions    []string `json:"actions"`
	Principals []string `json:"principals,omitempty"`
	Condition  string   `json:"condition,omitempty"`
}

// Attachment is one managed policy attached to a role, user or group.
type Attachment struct {
	Op Op `json:"op"`
	// Resource is the role, user or group (its token, ${Id}).
	Resource      string `json:"resource"`
	ManagedPolicy string `json:"managedPolicyArn"`
}

// Rule is one security-group rule.
type Rule struct {
	Op Op `json:"op"`
	// Group is the security group (its token, ${Id.GroupId}).
	Group     string `json:"group"`
	Direction string `json:"direction"`
	Protocol  string `json:"protocol"`
	Peer      string `json:"peer"`
}

// Result is the security view of one stack's deploy.
type Result struct {
	Statements      []Statement  `json:"iamStatementChanges"`
	ManagedPolicies []Attachment `json:"managedPolicyChanges"`
	Rules           []Rule       `json:"securityGroupChanges"`
}

// Empty reports a deploy that changes no grant and no rule.
func (r *Result) Empty() bool {
	return len(r.Statements) == 0 && len(r.ManagedPolicies) == 0 && len(r.Rules) == 0
}

// Broadening reports whether the deploy grants or opens more: an added
// Allow statement, attachment or rule, or a removed Deny statement.
func (r *Result) Broadening() bool {
	for _, s := range r.Statements {
		if (s.Op == Added && s.Effect != "Deny") || (s.Op == Removed && s.Effect == "Deny") {
			return true
		}
	}
	for _, a := range r.ManagedPolicies {
		if a.Op == Added {
			return true
		}
	}
	for _, x := range r.Rules {
		if x.Op == Added {
			return true
		}
	}
	return false
}

// Compute diffs the security view of two templates; either may be nil (a
// stack created or deleted).
func Compute(old, new *cfn.Template) *Result {
	o, n := collect(old), collect(new)
	res := &Result{Statements: []Statement{}, ManagedPolicies: []Attachment{}, Rules: []Rule{}}
	for _, k := range diffKeys(o.statements, n.statements) {
		s, op := pick(o.statements, n.statements, k)
		s.Op = op
		res.Statements = append(res.Statements, s)
	}
	for _, k := range diffKeys(o.attachments, n.attachments) {
		a, op := pick(o.attachments, n.attachments, k)
		a.Op = op
		res.ManagedPolicies = append(res.ManagedPolicies, a)
	}
	for _, k := range diffKeys(o.rules, n.rules) {
		r, op := pick(o.rules, n.rules, k)
		r.Op = op
		res.Rules = append(res.Rules, r)
	}
	return res
}

// view is one template's rows, keyed by their rendered text.
type view struct {
	statements  map[string]Statement
	attachments map[string]Attachment
	rules       map[string]Rule
}

func key(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// diffKeys lists the keys in exactly one of a and b, in key order.
func diffKeys[T any](a, b map[string]T) []string {
	var out []string
	for k := range a {
		if _, ok := b[k]; !ok {
			out = append(out, k)
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

func pick[T any](old, new map[string]T, k string) (T, Op) {
	if v, ok := new[k]; ok {
		return v, Added
	}
	return old[k], Removed
}

// policyHolder says where a resource type keeps a policy document and
// what it applies to.
type policyHolder struct {
	// doc is the property holding the policy document.
	doc string
	// target is the property naming what a resource policy covers (its
	// Resource column when a statement names none); "" for an identity
	// policy.
	target string
	// identity: the document is an identity policy; its principals are the
	// Roles, Users and Groups properties.
	identity bool
}

// policyHolders are the types that hold a policy document.
var policyHolders = map[string]policyHolder{
	"AWS::IAM::Policy":                    {doc: "PolicyDocument", identity: true},
	"AWS::IAM::ManagedPolicy":             {doc: "PolicyDocument", identity: true},
	"AWS::S3::BucketPolicy":               {doc: "PolicyDocument", target: "Bucket"},
	"AWS::SQS::QueuePolicy":               {doc: "PolicyDocument", target: "Queues"},
	"AWS::SNS::TopicPolicy":               {doc: "PolicyDocument", target: "Topics"},
	"AWS::KMS::Key":                       {doc: "KeyPolicy"},
	"AWS::SecretsManager::ResourcePolicy": {doc: "ResourcePolicy", target: "SecretId"},
	"AWS::ECR::Repository":                {doc: "RepositoryPolicyText"},
}

// attachers are the types whose ManagedPolicyArns attach managed policies.
var attachers = map[string]bool{"AWS::IAM::Role": true, "AWS::IAM::User": true, "AWS::IAM::Group": true}

// identityProps name the roles, users and groups an identity policy is
// attached to.
var identityProps = []string{"Roles", "Users", "Groups"}

func collect(t *cfn.Template) view {
	v := view{statements: map[string]Statement{}, attachments: map[string]Attachment{}, rules: map[string]Rule{}}
	if t == nil {
		return v
	}
	add := func(s Statement) { v.statements[key(s)] = s }
	for _, id := range t.ResourceIDs() {
		r := t.Resources[id]
		p := r.Properties
		if h, ok := policyHolders[r.Type]; ok {
			var principals []string
			if h.identity {
				for _, prop := range identityProps {
					for _, e := range list(p[prop]) {
						principals = append(principals, "AWS:"+Render(e))
					}
				}
			}
			target := "${" + id + ".Arn}"
			if h.target != "" {
				target = strings.Join(renderAll(list(p[h.target])), ", ")
			}
			for _, s := range statements(id, p[h.doc], target, principals, h.identity) {
				add(s)
			}
		}
		if r.Type == "AWS::IAM::Role" {
			for _, s := range statements(id, p["AssumeRolePolicyDocument"], "${"+id+".Arn}", nil, false) {
				add(s)
			}
			for _, pol := range list(p["Policies"]) {
				m, _ := pol.(map[string]any)
				for _, s := range statements(id, m["PolicyDocument"], "", []string{"AWS:${" + id + "}"}, true) {
					add(s)
				}
			}
		}
		if r.Type == "AWS::Lambda::Permission" {
			add(permission(id, p))
		}
		if attachers[r.Type] {
			for _, arn := range list(p["ManagedPolicyArns"]) {
				a := Attachment{Resource: "${" + id + "}", ManagedPolicy: Render(arn)}
				v.attachments[key(a)] = a
			}
		}
		for _, x := range rules(id, r) {
			v.rules[key(x)] = x
		}
	}
	return v
}

// statements explodes a policy document. target is the Resource column
// of a statement that names none (a resource policy's or trust policy's
// subject); principals are an identity policy's.
func statements(holder string, doc any, target string, principals []string, identity bool) []Statement {
	m, ok := doc.(map[string]any)
	if !ok {
		if doc != nil {
			return []Statement{{Holder: holder, Resources: []string{target}, Effect: "?", Actions: []string{Render(doc)}}}
		}
		return nil
	}
	var out []Statement
	for _, st := range list(m["Statement"]) {
		sm, ok := st.(map[string]any)
		if !ok {
			continue
		}
		s := Statement{Holder: holder, Effect: Render(sm["Effect"])}
		s.Actions = renderAll(list(sm["Action"]))
		for _, a := range renderAll(list(sm["NotAction"])) {
			s.Actions = append(s.Actions, "NOT "+a)
		}
		s.Resources = renderAll(list(sm["Resource"]))
		for _, r := range renderAll(list(sm["NotResource"])) {
			s.Resources = append(s.Resources, "NOT "+r)
		}
		if len(s.Resources) == 0 && target != "" {
			s.Resources = []string{target}
		}
		if identity {
			s.Principals = append(s.Principals, principals...)
		}
		s.Principals = append(s.Principals, renderPrincipal(sm["Principal"], "")...)
		s.Principals = append(s.Principals, renderPrincipal(sm["NotPrincipal"], "NOT ")...)
		if c, ok := sm["Condition"]; ok {
			s.Condition = renderCondition(c)
		}
		sort.Strings(s.Actions)
		sort.Strings(s.Resources)
		sort.Strings(s.Principals)
		out = append(out, s)
	}
	return out
}

// permission is the statement an AWS::Lambda::Permission adds to its
// function's resource policy.
func permission(id string, p map[string]any) Statement {
	s := Statement{Holder: id, Effect: "Allow", Actions: []string{Render(p["Action"])}, Resources: []string{Render(p["FunctionName"])}}
	pr := Render(p["Principal"])
	if strings.HasSuffix(pr, ".amazonaws.com") || strings.HasSuffix(pr, ".amazonaws.com.cn") {
		s.Principals = []string{"Service:" + pr}
	} else {
		s.Principals = []string{"AWS:" + pr}
	}
	cond := map[string]any{}
	if v, ok := p["SourceArn"]; ok {
		cond["ArnLike"] = map[string]any{"AWS:SourceArn": v}
	}
	if v, ok := p["SourceAccount"]; ok {
		cond["StringEquals"] = map[string]any{"AWS:SourceAccount": v}
	}
	if v, ok := p["PrincipalOrgID"]; ok {
		cond["StringEquals"] = map[string]any{"aws:PrincipalOrgID": v}
	}
	if len(cond) > 0 {
		s.Condition = renderCondition(cond)
	}
	return s
}

// ruleSources are the rule lists of a security group and the standalone
// rule types, by direction.
var ruleSources = map[string]struct {
	inline    []string
	direction string
}{
	"AWS::EC2::SecurityGroup":        {inline: []string{"SecurityGroupIngress", "SecurityGroupEgress"}},
	"AWS::EC2::SecurityGroupIngress": {direction: "In"},
	"AWS::EC2::SecurityGroupEgress":  {direction: "Out"},
}

func rules(id string, r *cfn.Resource) []Rule {
	src, ok := ruleSources[r.Type]
	if !ok {
		return nil
	}
	if src.direction != "" {
		return []Rule{rule(Render(r.Properties["GroupId"]), src.direction, r.Properties)}
	}
	var out []Rule
	for _, prop := range src.inline {
		dir := "In"
		if strings.HasSuffix(prop, "Egress") {
			dir = "Out"
		}
		for _, e := range list(r.Properties[prop]) {
			if m, ok := e.(map[string]any); ok {
				out = append(out, rule("${"+id+".GroupId}", dir, m))
			}
		}
	}
	return out
}

// peerKeys are a rule's peer fields, in the order they are read.
var peerKeys = []string{"CidrIp", "CidrIpv6", "SourceSecurityGroupId", "SourceSecurityGroupName", "DestinationSecurityGroupId", "SourcePrefixListId", "DestinationPrefixListId"}

func rule(group, dir string, m map[string]any) Rule {
	x := Rule{Group: group, Direction: dir, Protocol: protocol(m)}
	for _, k := range peerKeys {
		if v, ok := m[k]; ok {
			x.Peer = Render(v)
			break
		}
	}
	switch x.Peer {
	case "0.0.0.0/0":
		x.Peer = "Everyone (IPv4)"
	case "::/0":
		x.Peer = "Everyone (IPv6)"
	}
	return x
}

func protocol(m map[string]any) string {
	p := Render(m["IpProtocol"])
	from, to := Render(m["FromPort"]), Render(m["ToPort"])
	switch p {
	case "-1":
		return "Everything"
	case "tcp", "6":
		p = "TCP"
	case "udp", "17":
		p = "UDP"
	case "icmp", "1":
		return fmt.Sprintf("ICMP Type %s-%s", from, to)
	}
	switch {
	case from == "" && to == "":
		return p
	case from == to:
		return p + " " + from
	}
	return p + " " + from + "-" + to
}

// renderPrincipal lists a Principal as Kind:value entries.
func renderPrincipal(v any, prefix string) []string {
	switch t := v.(type) {
	case nil:
		return nil
	case string:
		return []string{prefix + t}
	case map[string]any:
		var out []string
		for _, k := range sortedKeys(t) {
			for _, e := range list(t[k]) {
				out = append(out, prefix+k+":"+Render(e))
			}
		}
		return out
	}
	return []string{prefix + Render(v)}
}

func renderCondition(v any) string {
	b, _ := json.MarshalIndent(renderTree(v), "", "  ")
	return string(b)
}

// renderTree renders the intrinsics inside a value, keeping its shape.
func renderTree(v any) any {
	switch t := v.(type) {
	case map[string]any:
		if isIntrinsic(t) {
			return Render(t)
		}
		out := map[string]any{}
		for k, e := range t {
			out[k] = renderTree(e)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = renderTree(e)
		}
		return out
	}
	return v
}

// list is v as a list (a scalar is a list of one; nil is empty).
func list(v any) []any {
	switch t := v.(type) {
	case nil:
		return nil
	case []any:
		return t
	}
	return []any{v}
}

func renderAll(vs []any) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = Render(v)
	}
	return out
}

// Render writes a raw template value for a reviewer: a Ref as ${Id}, a
// GetAtt as ${Id.Attr}, a Join and a Sub as their text with those tokens,
// scalars as text, anything else as compact JSON of its rendered parts.
func Render(v any) string {
	switch t := v.(type) {
	case nil:
		return ""
	case string:
		return t
	case float64:
		return strconv.FormatFloat(t, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(t)
	case int:
		return strconv.Itoa(t)
	case map[string]any:
		if len(t) == 1 {
			for k, a := range t {
				switch k {
				case "Ref":
					return "${" + Render(a) + "}"
				case "Fn::GetAtt":
					switch g := a.(type) {
					case []any:
						return "${" + strings.Join(renderAll(g), ".") + "}"
					default:
						return "${" + Render(g) + "}"
					}
				case "Fn::Join":
					if args, ok := a.([]any); ok && len(args) == 2 {
						return strings.Join(renderAll(list(args[1])), Render(args[0]))
					}
				case "Fn::Sub":
					if args, ok := a.([]any); ok && len(args) > 0 {
						return Render(args[0])
					}
					return Render(a)
				case "Fn::ImportValue":
					return "${Import:" + Render(a) + "}"
				}
			}
		}
	}
	b, _ := json.Marshal(renderTree(v))
	return string(b)
}

func isIntrinsic(m map[string]any) bool {
	if len(m) != 1 {
		return false
	}
	for k := range m {
		return k == "Ref" || strings.HasPrefix(k, "Fn::")
	}
	return false
}

func sortedKeys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
