package world

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// Policies are the identity policies of one principal of an account: a role
// (its sessions from AssumeRole) or an IAM user (its access keys). A
// principal the account declares no Policies for may do anything, as before
// the sandbox evaluated IAM; a declared one may do only what its documents
// allow, evaluated as AWS does (an explicit Deny wins, an Allow is needed).
//
// The account root is never restricted by identity policies (on AWS only
// SCPs restrict it), so Policies name a role or a user, not both.
type Policies struct {
	Role string `json:"role,omitempty"`
	User string `json:"user,omitempty"`
	// Documents are IAM policy documents ({"Version", "Statement"}): the
	// principal's inline policies and the managed policies attached to it.
	Documents []json.RawMessage `json:"documents"`
	// Complete says Documents are all the principal's policies, the AWS
	// managed ones it attaches included. Then what a service does on the
	// principal's behalf with its credentials (Cloud Control's handlers)
	// needs an Allow too; otherwise only an explicit Deny refuses it, since
	// an attached AWS managed policy the sandbox lacks may allow it.
	Complete bool `json:"complete,omitempty"`

	Stmts []Statement
}

// statement is one compiled policy statement.
type Statement struct {
	sid   string
	allow bool
	// actions (or, with notAction, the actions it does not cover) are
	// case-insensitive patterns; resources (notResource) case-sensitive.
	actions     []*regexp.Regexp
	notAction   bool
	resources   []*regexp.Regexp
	notResource bool
	conditions  []condition
	// principals are a resource policy's Principal (or, with
	// notPrincipal, NotPrincipal); nil in an identity policy or an SCP.
	principals   *principalSet
	notPrincipal bool
}

// condition is one operator/key test of a Condition block.
type condition struct {
	op       string // StringEquals, StringLike, ... without IfExists or a set qualifier
	ifExists bool
	// set is "", "ForAllValues" or "ForAnyValue": how the test applies to
	// a multivalued key (dynamodb:LeadingKeys).
	set    string
	key    string // lower-cased
	values []string
}

// conditionOps are the operators the sandbox evaluates; a policy using any
// other is rejected when the world loads, so nothing is silently misread.
var conditionOps = map[string]bool{
	"StringEquals": true, "StringNotEquals": true, "StringEqualsIgnoreCase": true,
	"StringLike": true, "StringNotLike": true,
	"ArnEquals": true, "ArnLike": true, "ArnNotEquals": true, "ArnNotLike": true,
	"Bool": true,
}

// rawStatement is the storage shape of a statement.
type rawStatement struct {
	Sid          string                                `json:"Sid"`
	Effect       string                                `json:"Effect"`
	Principal    json.RawMessage                       `json:"Principal"`
	NotPrincipal json.RawMessage                       `json:"NotPrincipal"`
	Action       stringList                            `json:"Action"`
	NotAction    stringList                            `json:"NotAction"`
	Resource     stringList                            `json:"Resource"`
	NotResource  stringList                            `json:"NotResource"`
	Condition    map[string]map[string]json.RawMessage `json:"Condition"`
}

// stringList is a policy element that is one string or a list of them.
type stringList []string

func (l *stringList) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*l = []string{s}
		return nil
	}
	var out []string
	if err := json.Unmarshal(b, &out); err != nil {
		return err
	}
	*l = out
	return nil
}

// compilePolicy parses one identity policy document (or a service control
// policy: neither names a Principal).
func compilePolicy(doc json.RawMessage) ([]Statement, error) {
	return compileDocument(doc, false)
}

// compileDocument parses a policy document; a resource policy's statements
// (resource true) must name a Principal or NotPrincipal, an identity
// policy's none.
func compileDocument(doc json.RawMessage, resource bool) ([]Statement, error) {
	var d struct {
		Version   string          `json:"Version"`
		Statement json.RawMessage `json:"Statement"`
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		return nil, fmt.Errorf("not a policy document: %w", err)
	}
	var raws []rawStatement
	if t := bytes.TrimSpace(d.Statement); len(t) > 0 && t[0] == '{' {
		var one rawStatement
		if err := json.Unmarshal(t, &one); err != nil {
			return nil, fmt.Errorf("statement: %w", err)
		}
		raws = []rawStatement{one}
	} else if err := json.Unmarshal(d.Statement, &raws); err != nil {
		return nil, fmt.Errorf("statement: %w", err)
	}
	var out []Statement
	for i, r := range raws {
		st, err := r.compile(resource)
		if err != nil {
			return nil, fmt.Errorf("statement %d (%s): %w", i, r.Sid, err)
		}
		out = append(out, st)
	}
	return out, nil
}

func (r rawStatement) compile(resource bool) (Statement, error) {
	st := Statement{sid: r.Sid}
	switch r.Effect {
	case "Allow":
		st.allow = true
	case "Deny":
	default:
		return st, fmt.Errorf("effect %q is neither Allow nor Deny", r.Effect)
	}
	switch {
	case !resource && (len(r.Principal) > 0 || len(r.NotPrincipal) > 0):
		return st, fmt.Errorf("an identity policy has no Principal")
	case resource && (len(r.Principal) > 0) == (len(r.NotPrincipal) > 0):
		return st, fmt.Errorf("a resource policy statement names a Principal or a NotPrincipal (one)")
	case resource:
		raw := r.Principal
		if len(raw) == 0 {
			raw, st.notPrincipal = r.NotPrincipal, true
		}
		ps, err := parsePrincipals(raw)
		if err != nil {
			return st, err
		}
		st.principals = ps
	}
	acts := r.Action
	if len(r.NotAction) > 0 {
		if len(r.Action) > 0 {
			return st, fmt.Errorf("both Action and NotAction")
		}
		acts, st.notAction = r.NotAction, true
	}
	if len(acts) == 0 {
		return st, fmt.Errorf("no Action")
	}
	for _, a := range acts {
		if a != "*" && !strings.Contains(a, ":") {
			return st, fmt.Errorf("action %q is not service:Action", a)
		}
		st.actions = append(st.actions, glob(a, true))
	}
	res := r.Resource
	if len(r.NotResource) > 0 {
		if len(r.Resource) > 0 {
			return st, fmt.Errorf("both Resource and NotResource")
		}
		res, st.notResource = r.NotResource, true
	}
	if len(res) == 0 && resource {
		// A resource policy's statement without Resource is about the
		// resource it is attached to (a role's trust policy names none).
		res = stringList{"*"}
	}
	if len(res) == 0 {
		return st, fmt.Errorf("no Resource")
	}
	for _, p := range res {
		st.resources = append(st.resources, glob(p, false))
	}
	for op, keys := range r.Condition {
		set, base, qualified := strings.Cut(op, ":")
		if !qualified {
			set, base = "", op
		} else if set != "ForAllValues" && set != "ForAnyValue" {
			return st, fmt.Errorf("condition operator %q has an unknown set qualifier", op)
		}
		base, ifExists := strings.CutSuffix(base, "IfExists")
		if !conditionOps[base] {
			return st, fmt.Errorf("condition operator %q is not one the sandbox evaluates", op)
		}
		for k, v := range keys {
			var vals stringList
			if err := json.Unmarshal(v, &vals); err != nil {
				var b bool
				if json.Unmarshal(v, &b) != nil {
					return st, fmt.Errorf("condition %s %s: %w", op, k, err)
				}
				vals = stringList{fmt.Sprint(b)}
			}
			st.conditions = append(st.conditions, condition{op: base, ifExists: ifExists, set: set, key: strings.ToLower(k), values: vals})
		}
	}
	return st, nil
}

// glob compiles an IAM pattern: * any run of characters, ? one character.
func glob(p string, fold bool) *regexp.Regexp {
	var b strings.Builder
	if fold {
		b.WriteString("(?i)")
	}
	b.WriteString("^")
	for _, r := range p {
		switch r {
		case '*':
			b.WriteString(".*")
		case '?':
			b.WriteString(".")
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	b.WriteString("$")
	return regexp.MustCompile(b.String())
}

func anyMatch(res []*regexp.Regexp, s string) bool {
	for _, re := range res {
		if re.MatchString(s) {
			return true
		}
	}
	return false
}

// Request is what one call asks of IAM: the action, the resource and the
// condition keys the request context carries (lower-cased names; a key
// may hold several values, as dynamodb:LeadingKeys of a batch does).
// Caller (or, for a call an AWS service makes as itself, Service, its
// service principal: events.amazonaws.com) is who asks: what a resource
// policy's Principal is matched against.
type Request struct {
	Action   string
	Resource string
	Keys     map[string][]string
	Caller   Principal
	Service  string
}

// applies reports whether the statement covers the request.
func (st Statement) applies(q Request) bool {
	if st.principals != nil && st.principals.matches(q) == st.notPrincipal {
		return false
	}
	if anyMatch(st.actions, q.Action) == st.notAction {
		return false
	}
	if anyMatch(st.resources, q.Resource) == st.notResource {
		return false
	}
	for _, c := range st.conditions {
		if !c.holds(q.Keys) {
			return false
		}
	}
	return true
}

// holds evaluates the condition as AWS does:
//   - a plain operator: a key the request lacks fails a positive operator
//     and passes a negated one (or any ...IfExists); present, it holds when
//     one of the request's values matches;
//   - ForAllValues: every value of the request's key matches one of the
//     condition's values (true when the request has none: why no policy may
//     scope Scan by dynamodb:LeadingKeys);
//   - ForAnyValue: at least one does (false when the request has none).
func (c condition) holds(keys map[string][]string) bool {
	vs, ok := keys[c.key]
	negated := strings.Contains(c.op, "Not")
	switch c.set {
	case "ForAllValues":
		for _, v := range vs {
			if !c.matches(v) {
				return false
			}
		}
		return true
	case "ForAnyValue":
		for _, v := range vs {
			if c.matches(v) {
				return true
			}
		}
		return false
	}
	if !ok || len(vs) == 0 {
		return c.ifExists || negated
	}
	for _, v := range vs {
		if c.matches(v) {
			return true
		}
	}
	return false
}

// matches tests one request value; a negated operator matches a value that
// equals (or is like) none of the condition's values.
func (c condition) matches(v string) bool {
	negated := strings.Contains(c.op, "Not")
	match := false
	for _, want := range c.values {
		switch c.op {
		case "StringEquals", "StringNotEquals", "ArnEquals", "ArnNotEquals":
			match = v == want
		case "StringEqualsIgnoreCase":
			match = strings.EqualFold(v, want)
		case "StringLike", "StringNotLike", "ArnLike", "ArnNotLike":
			match = glob(want, false).MatchString(v)
		case "Bool":
			match = strings.EqualFold(v, want)
		}
		if match {
			break
		}
	}
	return match != negated
}

// Decision is the outcome of evaluating policies.
type Decision int

const (
	ImplicitDeny Decision = iota
	Allowed
	ExplicitDeny
)

// Evaluate decides a request against statements — an identity policy's, a
// resource policy's (whose Principal must match the request's caller) or a
// service control policy's: an explicit Deny wins, else an Allow is needed.
func Evaluate(stmts []Statement, q Request) Decision {
	d := ImplicitDeny
	for _, st := range stmts {
		if !st.applies(q) {
			continue
		}
		if !st.allow {
			return ExplicitDeny
		}
		d = Allowed
	}
	return d
}

// normalizePolicies validates and compiles an account's policies.
func normalizePolicies(p *problems, at string, a *Account) {
	seen := map[string]bool{}
	for i, pol := range a.Policies {
		pt := fmt.Sprintf("%s.policies[%d]", at, i)
		if pol == nil {
			p.add(pt, "null policies")
			continue
		}
		if (pol.Role == "") == (pol.User == "") {
			p.add(pt, "name a role or a user (not both)")
		}
		p.once(seen, pol.Role+"/"+pol.User, pt, "principal %s%s declared twice", pol.Role, pol.User)
		pol.Stmts = nil
		for j, d := range pol.Documents {
			stmts, err := compilePolicy(d)
			if err != nil {
				p.add(fmt.Sprintf("%s.documents[%d]", pt, j), "%v", err)
				continue
			}
			pol.Stmts = append(pol.Stmts, stmts...)
		}
	}
}
