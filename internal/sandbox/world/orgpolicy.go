package world

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// TrustPolicy is a role's trust policy (its AssumeRolePolicyDocument): who
// may assume it. A role of an account with none declared may be assumed by
// any principal of a world account, as before the sandbox evaluated trust;
// a declared one is enforced on every sts:AssumeRole (TrustDecision).
type TrustPolicy struct {
	Role     string          `json:"role"`
	Document json.RawMessage `json:"document"`

	Stmts []Statement `json:"-"`
}

// ServiceControlPolicy is an organization SCP attached to member accounts.
// An account with SCPs attached may make only the calls one of them allows
// and none denies (SCPDecision); the management account is never
// restricted by them, as on AWS. The organization's hierarchy is flat: the
// policies attached to an account are the one level evaluated (AWS also
// requires an Allow at the root and every OU above it, which attach
// FullAWSAccess by default).
type ServiceControlPolicy struct {
	Name string `json:"name"`
	// Accounts are the ids of the member accounts it is attached to.
	Accounts []string        `json:"accounts"`
	Document json.RawMessage `json:"document"`

	Stmts []Statement `json:"-"`
}

// principalSet is a resource policy statement's Principal: "*" (anyone),
// and per kind the values it names (AWS: account ids, account root, role,
// user and assumed-role session ARNs; Service: service principals).
type principalSet struct {
	anyone  bool
	aws     []string
	service []string
}

// parsePrincipals reads a Principal element: "*" or an object of kinds to
// one value or a list. Kinds the sandbox cannot match (Federated,
// CanonicalUser) are refused, so nothing is silently misread.
func parsePrincipals(raw json.RawMessage) (*principalSet, error) {
	raw = bytes.TrimSpace(raw)
	var star string
	if json.Unmarshal(raw, &star) == nil {
		if star != "*" {
			return nil, fmt.Errorf("principal %q is neither \"*\" nor an object of kinds", star)
		}
		return &principalSet{anyone: true}, nil
	}
	var kinds map[string]stringList
	if err := json.Unmarshal(raw, &kinds); err != nil {
		return nil, fmt.Errorf("principal: %w", err)
	}
	ps := &principalSet{}
	for kind, vals := range kinds {
		switch kind {
		case "AWS":
			for _, v := range vals {
				if v == "*" {
					ps.anyone = true
					continue
				}
				if !AccountRE.MatchString(v) && !strings.HasPrefix(v, "arn:") {
					return nil, fmt.Errorf("AWS principal %q is neither an account id nor an ARN", v)
				}
				ps.aws = append(ps.aws, v)
			}
		case "Service":
			ps.service = append(ps.service, vals...)
		default:
			return nil, fmt.Errorf("principal kind %q is not one the sandbox evaluates", kind)
		}
	}
	return ps, nil
}

// matches reports whether the request's caller is one the set names: a
// service by its service principal; a principal by its account (an
// account id or the account's root ARN names every principal of the
// account), its role (a role ARN names the role's sessions; a path is
// ignored, the sandbox's roles have none), or its own user or session ARN.
func (ps *principalSet) matches(q Request) bool {
	if q.Service != "" {
		if ps.anyone {
			return true
		}
		for _, s := range ps.service {
			if s == q.Service {
				return true
			}
		}
		return false
	}
	c := q.Caller
	if c.Account == "" {
		return false
	}
	if ps.anyone {
		return true
	}
	for _, v := range ps.aws {
		if v == c.Account || v == c.ARN {
			return true
		}
		f := strings.SplitN(v, ":", 6)
		if len(f) != 6 || f[2] != "iam" || f[4] != c.Account {
			continue
		}
		if f[5] == "root" {
			return true
		}
		if name, ok := strings.CutPrefix(f[5], "role/"); ok && c.Role != "" && name[strings.LastIndexByte(name, '/')+1:] == c.Role {
			return true
		}
	}
	return false
}

// TrustDecision decides an sts:AssumeRole of the account's role against its
// trust policy: ok false when the account declares none (then anyone may).
func (a *Account) TrustDecision(role string, q Request) (d Decision, ok bool) {
	for _, t := range a.TrustPolicies {
		if t != nil && t.Role == role {
			return Evaluate(t.Stmts, q), true
		}
	}
	return ImplicitDeny, false
}

// SCPDecision decides a call of a principal of account against the
// service control policies attached to it: ok false when none restrict it
// (no SCP attached, the management account, no organization).
func (o *Organization) SCPDecision(account string, q Request) (d Decision, ok bool) {
	if o == nil || account == o.ManagementAccountID {
		return ImplicitDeny, false
	}
	var stmts []Statement
	for _, p := range o.SCPs {
		if p != nil && containsString(p.Accounts, account) {
			stmts = append(stmts, p.Stmts...)
			ok = true
		}
	}
	if !ok {
		return ImplicitDeny, false
	}
	return Evaluate(stmts, q), true
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// normalizeTrust validates and compiles an account's trust policies.
func normalizeTrust(p *problems, at string, a *Account) {
	seen := map[string]bool{}
	for i, t := range a.TrustPolicies {
		pt := fmt.Sprintf("%s.trustPolicies[%d]", at, i)
		if t == nil {
			p.add(pt, "null trust policy")
			continue
		}
		if t.Role == "" {
			p.add(pt, "names no role")
		}
		p.once(seen, t.Role, pt, "role %s has two trust policies", t.Role)
		stmts, err := compileDocument(t.Document, true)
		if err != nil {
			p.add(pt+".document", "%v", err)
			continue
		}
		t.Stmts = stmts
	}
}

// normalizeSCPs validates and compiles the organization's SCPs: each is
// attached to member accounts of the world.
func normalizeSCPs(p *problems, o *Organization, accounts map[string]bool) {
	for i, s := range o.SCPs {
		pt := fmt.Sprintf("organization.serviceControlPolicies[%d]", i)
		if s == nil {
			p.add(pt, "null policy")
			continue
		}
		if s.Name == "" {
			p.add(pt, "no name")
		}
		if len(s.Accounts) == 0 {
			p.add(pt, "attached to no account")
		}
		for _, a := range s.Accounts {
			switch {
			case !accounts[a]:
				p.add(pt, "account %s is not one of the world's accounts", a)
			case a == o.ManagementAccountID:
				p.add(pt, "account %s is the management account, which SCPs never restrict", a)
			}
		}
		stmts, err := compilePolicy(s.Document)
		if err != nil {
			p.add(pt+".document", "%v", err)
			continue
		}
		s.Stmts = stmts
	}
}

// CompileResourcePolicy compiles a resource policy document (an event
// bus's, a topic's, a key's): every statement names a Principal or a
// NotPrincipal; a statement without Resource is about the resource the
// policy is attached to.
func CompileResourcePolicy(doc json.RawMessage) ([]Statement, error) {
	return compileDocument(doc, true)
}

// Combine decides a request from its identity-policy and resource-policy
// decisions as AWS does: an explicit Deny in either refuses it; across
// accounts both must allow it, within one account either may.
func Combine(identity, resource Decision, crossAccount bool) Decision {
	switch {
	case identity == ExplicitDeny || resource == ExplicitDeny:
		return ExplicitDeny
	case crossAccount && identity == Allowed && resource == Allowed:
		return Allowed
	case !crossAccount && (identity == Allowed || resource == Allowed):
		return Allowed
	}
	return ImplicitDeny
}
