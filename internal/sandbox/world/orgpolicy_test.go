package world_test

import (
	"strings"
	"testing"

	"github.com/realdrift/realdrift/internal/sandbox/world"
)

const (
	central = "111111111111"
	member  = "222222222222"
	other   = "333333333333"
)

// orgWorld is a three-account organisation: the member's realdrift-read
// role trusts the central account's realdrift-read-resources role (the
// shape infra synthesizes: the account root as Principal, narrowed by
// aws:PrincipalOrgID and aws:PrincipalArn), its realdrift-forward role the
// EventBridge service, its realdrift-audit role an external id; an SCP
// denies sqs:GetQueueAttributes in the member account.
func orgWorld(t *testing.T) *world.World {
	t.Helper()
	w, err := world.ParseWorld([]byte(`{
	  "organization": {"id": "o-abcdefghij", "managementAccountId": "` + central + `", "serviceControlPolicies": [
	    {"name": "FullAWSAccess", "accounts": ["` + member + `"], "document": {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "*", "Resource": "*"}]}},
	    {"name": "NoQueueReads", "accounts": ["` + member + `"], "document": {"Version": "2012-10-17", "Statement": [{"Effect": "Deny", "Action": "sqs:GetQueueAttributes", "Resource": "*"}]}},
	    {"name": "OnlyS3", "accounts": ["` + other + `"], "document": {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "s3:*", "Resource": "*"}]}}
	  ]},
	  "accounts": [
	    {"id": "` + central + `", "regions": [{"name": "us-east-1"}]},
	    {"id": "` + member + `", "regions": [{"name": "us-east-1"}], "trustPolicies": [
	      {"role": "realdrift-read", "document": {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "sts:AssumeRole",
	        "Principal": {"AWS": "arn:aws:iam::` + central + `:root"},
	        "Condition": {"StringEquals": {"aws:PrincipalOrgID": "o-abcdefghij"}, "ArnEquals": {"aws:PrincipalArn": ["arn:aws:iam::` + central + `:role/realdrift-read-resources"]}}}]}},
	      {"role": "realdrift-forward", "document": {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "sts:AssumeRole", "Principal": {"Service": "events.amazonaws.com"}}]}},
	      {"role": "realdrift-audit", "document": {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "sts:AssumeRole",
	        "Principal": {"AWS": ["` + other + `"]}, "Condition": {"StringEquals": {"sts:ExternalId": "e-1"}}}]}}
	    ]},
	    {"id": "` + other + `", "regions": [{"name": "us-east-1"}]}
	  ]}`))
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// keys are the global condition keys of a caller of the organisation.
func keys(p world.Principal, extra ...string) map[string][]string {
	arn := p.ARN
	if p.Role != "" {
		arn = "arn:aws:iam::" + p.Account + ":role/" + p.Role
	}
	k := map[string][]string{"aws:principalarn": {arn}, "aws:principalorgid": {"o-abcdefghij"}}
	for i := 0; i+1 < len(extra); i += 2 {
		k[extra[i]] = []string{extra[i+1]}
	}
	return k
}

// TestTrustDecision: a role's trust policy as AWS evaluates it — the
// principal (an account root naming its principals, a service), its
// conditions (aws:PrincipalArn, aws:PrincipalOrgID, sts:ExternalId) — and a
// role without one assumable by anyone.
func TestTrustDecision(t *testing.T) {
	w := orgWorld(t)
	acct := w.Accounts[1]
	reader := world.RolePrincipal(central, "realdrift-read-resources", "s")
	classify := world.RolePrincipal(central, "realdrift-classify", "s")
	outsider := world.RolePrincipal(other, "realdrift-read-resources", "s")
	for _, tt := range []struct {
		name    string
		role    string
		q       world.Request
		want    world.Decision
		trusted bool // the account declares the role's trust policy
	}{
		{"trusted reader", "realdrift-read", world.Request{Caller: reader, Keys: keys(reader)}, world.Allowed, true},
		{"another central role", "realdrift-read", world.Request{Caller: classify, Keys: keys(classify)}, world.ImplicitDeny, true},
		{"same role name, another account", "realdrift-read", world.Request{Caller: outsider, Keys: keys(outsider)}, world.ImplicitDeny, true},
		{"outside the organization", "realdrift-read", world.Request{Caller: reader, Keys: map[string][]string{"aws:principalarn": keys(reader)["aws:principalarn"]}}, world.ImplicitDeny, true},
		{"service principal", "realdrift-forward", world.Request{Service: "events.amazonaws.com"}, world.Allowed, true},
		{"another service", "realdrift-forward", world.Request{Service: "lambda.amazonaws.com"}, world.ImplicitDeny, true},
		{"a principal, not the service", "realdrift-forward", world.Request{Caller: reader, Keys: keys(reader)}, world.ImplicitDeny, true},
		{"external id given", "realdrift-audit", world.Request{Caller: outsider, Keys: keys(outsider, "sts:externalid", "e-1")}, world.Allowed, true},
		{"external id missing", "realdrift-audit", world.Request{Caller: outsider, Keys: keys(outsider)}, world.ImplicitDeny, true},
		{"external id wrong", "realdrift-audit", world.Request{Caller: outsider, Keys: keys(outsider, "sts:externalid", "e-2")}, world.ImplicitDeny, true},
		{"no trust policy", "other", world.Request{Caller: classify}, world.ImplicitDeny, false},
	} {
		tt.q.Action, tt.q.Resource = "sts:AssumeRole", "arn:aws:iam::"+member+":role/"+tt.role
		got, ok := acct.TrustDecision(tt.role, tt.q)
		if ok != tt.trusted || (ok && got != tt.want) {
			t.Errorf("%s: TrustDecision = %v, %v; want %v, %v", tt.name, got, ok, tt.want, tt.trusted)
		}
	}
}

// TestSCPDecision: an account's SCPs — an explicit deny wins over an
// attached allow, an action no SCP allows is implicitly denied, an account
// without SCPs and the management account are not restricted.
func TestSCPDecision(t *testing.T) {
	o := orgWorld(t).Organization
	for _, tt := range []struct {
		name, account, action string
		want                  world.Decision
		restricted            bool
	}{
		{"allowed by FullAWSAccess", member, "sqs:ListQueues", world.Allowed, true},
		{"explicit deny", member, "sqs:GetQueueAttributes", world.ExplicitDeny, true},
		{"allowed by OnlyS3", other, "s3:GetObject", world.Allowed, true},
		{"not allowed by OnlyS3", other, "sqs:ListQueues", world.ImplicitDeny, true},
		{"management account", central, "sqs:GetQueueAttributes", world.ImplicitDeny, false},
	} {
		got, ok := o.SCPDecision(tt.account, world.Request{Action: tt.action, Resource: "*", Caller: world.UserPrincipal(tt.account, "")})
		if ok != tt.restricted || (ok && got != tt.want) {
			t.Errorf("%s: SCPDecision = %v, %v; want %v, %v", tt.name, got, ok, tt.want, tt.restricted)
		}
	}
	var none *world.Organization
	if _, ok := none.SCPDecision(member, world.Request{Action: "sqs:ListQueues"}); ok {
		t.Error("no organization: restricted")
	}
}

// TestOrgPolicyProblems: the loader names what it cannot evaluate.
func TestOrgPolicyProblems(t *testing.T) {
	for _, tt := range []struct{ name, org, trust, want string }{
		{"trust without principal", "", `{"role":"r","document":{"Statement":[{"Effect":"Allow","Action":"sts:AssumeRole"}]}}`, "names a Principal"},
		{"federated principal", "", `{"role":"r","document":{"Statement":[{"Effect":"Allow","Action":"sts:AssumeRoleWithWebIdentity","Principal":{"Federated":"x"}}]}}`, `principal kind "Federated"`},
		{"bad account principal", "", `{"role":"r","document":{"Statement":[{"Effect":"Allow","Action":"sts:AssumeRole","Principal":{"AWS":"bob"}}]}}`, "neither an account id nor an ARN"},
		{"scp with principal", `{"name":"x","accounts":["` + member + `"],"document":{"Statement":[{"Effect":"Deny","Principal":"*","Action":"*","Resource":"*"}]}}`, "", "has no Principal"},
		{"scp on the management account", `{"name":"x","accounts":["` + central + `"],"document":{"Statement":[{"Effect":"Deny","Action":"*","Resource":"*"}]}}`, "", "management account"},
		{"scp on an unknown account", `{"name":"x","accounts":["999999999999"],"document":{"Statement":[{"Effect":"Deny","Action":"*","Resource":"*"}]}}`, "", "not one of the world's accounts"},
	} {
		trust := ""
		if tt.trust != "" {
			trust = `, "trustPolicies": [` + tt.trust + `]`
		}
		_, err := world.ParseWorld([]byte(`{"organization": {"id": "o-abcdefghij", "managementAccountId": "` + central + `", "serviceControlPolicies": [` + tt.org + `]},
		  "accounts": [{"id": "` + central + `", "regions": []}, {"id": "` + member + `", "regions": []` + trust + `}]}`))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want one saying %q", tt.name, err, tt.want)
		}
	}
}

// TestCombine: identity and resource policies together, as AWS decides a
// call on a resource with a policy.
func TestCombine(t *testing.T) {
	A, I, X := world.Allowed, world.ImplicitDeny, world.ExplicitDeny
	for _, tt := range []struct {
		identity, resource world.Decision
		cross              bool
		want               world.Decision
	}{
		{A, A, true, A}, {A, I, true, I}, {I, A, true, I}, {A, X, true, X},
		{A, I, false, A}, {I, A, false, A}, {I, I, false, I}, {X, A, false, X}, {A, X, false, X},
	} {
		if got := world.Combine(tt.identity, tt.resource, tt.cross); got != tt.want {
			t.Errorf("Combine(%v, %v, cross %v) = %v, want %v", tt.identity, tt.resource, tt.cross, got, tt.want)
		}
	}
}

// TestResourcePolicyPrincipals: a bus policy open to the organization
// ("*" under aws:PrincipalOrgID) admits any principal of it and no one
// else; NotPrincipal inverts the match.
func TestResourcePolicyPrincipals(t *testing.T) {
	stmts, err := world.CompileResourcePolicy([]byte(`{"Version":"2012-10-17","Statement":[
	  {"Sid":"Org","Effect":"Allow","Principal":"*","Action":"events:PutEvents","Resource":"arn:aws:events:us-east-1:` + central + `:event-bus/realdrift","Condition":{"StringEquals":{"aws:PrincipalOrgID":"o-abcdefghij"}}},
	  {"Sid":"NotForward","Effect":"Deny","NotPrincipal":{"AWS":"arn:aws:iam::` + other + `:role/forward"},"Action":"events:PutEvents","Resource":"*","Condition":{"StringEquals":{"aws:PrincipalAccount":"` + other + `"}}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	bus := "arn:aws:events:us-east-1:" + central + ":event-bus/realdrift"
	fwd := world.RolePrincipal(member, "forward", "s")
	otherFwd := world.RolePrincipal(other, "forward", "s")
	otherX := world.RolePrincipal(other, "x", "s")
	for _, tt := range []struct {
		name string
		q    world.Request
		want world.Decision
	}{
		{"member of the organization", world.Request{Caller: fwd, Keys: keys(fwd)}, world.Allowed},
		{"outside the organization", world.Request{Caller: fwd, Keys: map[string][]string{"aws:principalorgid": {"o-elsewhere0"}}}, world.ImplicitDeny},
		{"another bus", world.Request{Caller: fwd, Keys: keys(fwd), Resource: "arn:aws:events:us-east-1:" + central + ":event-bus/default"}, world.ImplicitDeny},
		{"the principal NotPrincipal spares", world.Request{Caller: otherFwd, Keys: keys(otherFwd, "aws:principalaccount", other)}, world.Allowed},
		{"another principal of that account", world.Request{Caller: otherX, Keys: keys(otherX, "aws:principalaccount", other)}, world.ExplicitDeny},
	} {
		tt.q.Action = "events:PutEvents"
		if tt.q.Resource == "" {
			tt.q.Resource = bus
		}
		if got := world.Evaluate(stmts, tt.q); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}
