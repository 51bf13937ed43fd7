package classify

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/schema"
)

type siblingCase struct {
	name     string
	typ, pid string
	declared map[string]any
	live     map[string]any
	sibling  map[string]any
	want     []string
}

// TestSiblingEntries pairs each sibling-owned list rule: the entries a
// sibling resource owns are dropped, an entry added out of band surfaces.
func TestSiblingEntries(t *testing.T) {
	const topic = "arn:aws:sns:us-east-1:111111111111:Alerts"
	queue := "arn:aws:sqs:us-east-1:111111111111:Q"
	sub := func(proto, ep string) map[string]any { return map[string]any{"Protocol": proto, "Endpoint": ep} }
	snsFact := map[string]any{"siblingSnsSubscriptions": map[string]any{topic: []any{sub("sqs", queue)}}}
	sgFact := map[string]any{"siblingSgRules": map[string]any{"sg-1": []any{
		map[string]any{"Direction": "egress", "CidrIp": "10.0.0.0/16", "IpProtocol": "tcp", "FromPort": 443.0, "ToPort": 443.0},
		map[string]any{"SourceSecurityGroupId": "sg-2", "IpProtocol": "tcp", "FromPort": 5432.0, "ToPort": 5432.0},
	}}}
	rule := func(cidr string, port float64) map[string]any {
		return map[string]any{"CidrIp": cidr, "IpProtocol": "tcp", "FromPort": port, "ToPort": port}
	}
	tests := []siblingCase{
		{"a sibling subscription on the topic is dropped", "AWS::SNS::Topic", topic, nil,
			map[string]any{"Subscription": []any{sub("sqs", queue)}}, snsFact, []string{}},
		{"a subscription added out of band surfaces", "AWS::SNS::Topic", topic, nil,
			map[string]any{"Subscription": []any{sub("sqs", queue), sub("email", "eve@example.com")}}, snsFact,
			[]string{`undeclared Subscription [{"Endpoint":"eve@example.com","Protocol":"email"}]`}},
		{"a declared inline subscription beside a sibling's compares equal", "AWS::SNS::Topic", topic,
			map[string]any{"Subscription": []any{sub("lambda", "arn:aws:lambda:us-east-1:111111111111:function:f")}},
			map[string]any{"Subscription": []any{sub("lambda", "arn:aws:lambda:us-east-1:111111111111:function:f"), sub("sqs", queue)}}, snsFact, []string{}},
		{"without the sibling fact the topic's subscriptions are inventory", "AWS::SNS::Topic", topic, nil,
			map[string]any{"Subscription": []any{sub("sqs", queue)}}, nil,
			[]string{`undeclared Subscription [{"Endpoint":"arn:aws:sqs:us-east-1:111111111111:Q","Protocol":"sqs"}]`}},
		{"a sibling egress rule is dropped from egress", "AWS::EC2::SecurityGroup", "sg-1",
			map[string]any{"SecurityGroupIngress": []any{rule("10.1.0.0/16", 22)}},
			map[string]any{"SecurityGroupIngress": []any{rule("10.1.0.0/16", 22)}, "SecurityGroupEgress": []any{rule("10.0.0.0/16", 443)}}, sgFact, []string{}},
		{"an egress sibling never hides the same rule in ingress", "AWS::EC2::SecurityGroup", "sg-1",
			map[string]any{"SecurityGroupIngress": []any{rule("10.1.0.0/16", 22)}},
			map[string]any{"SecurityGroupIngress": []any{rule("10.1.0.0/16", 22), rule("10.0.0.0/16", 443)}}, sgFact,
			[]string{`declared SecurityGroupIngress [{"CidrIp":"10.0.0.0/16","FromPort":443,"IpProtocol":"tcp","ToPort":443},{"CidrIp":"10.1.0.0/16","FromPort":22,"IpProtocol":"tcp","ToPort":22}] want [{"CidrIp":"10.1.0.0/16","FromPort":22,"IpProtocol":"tcp","ToPort":22}]`}},
		{"an ingress sibling (by its source) is dropped with no declared rules", "AWS::EC2::SecurityGroup", "sg-1", nil,
			map[string]any{"SecurityGroupIngress": []any{map[string]any{"SourceSecurityGroupId": "sg-2", "IpProtocol": "tcp", "FromPort": 5432.0, "ToPort": 5432.0}}}, sgFact, []string{}},
		{"an unresolved sibling endpoint never matches", "AWS::SNS::Topic", topic, nil,
			map[string]any{"Subscription": []any{sub("sqs", queue)}},
			map[string]any{"siblingSnsSubscriptions": map[string]any{topic: []any{map[string]any{"Protocol": "sqs", "Endpoint": drift.Unknown{}}}}},
			[]string{`undeclared Subscription [{"Endpoint":"arn:aws:sqs:us-east-1:111111111111:Q","Protocol":"sqs"}]`}},
	}
	// Managed-policy attachments made from the other side.
	const basic, owned, rogue = "arn:aws:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole",
		"arn:aws:iam::111111111111:policy/App-Owned-1A2B", "arn:aws:iam::aws:policy/AdministratorAccess"
	rolePolicies := map[string]any{"siblingRolePolicies": map[string]any{"app-role": []any{owned}}}
	policyRoles := map[string]any{"siblingPolicyRoles": map[string]any{owned: []any{"app-role"}}}
	tests = append(tests, []siblingCase{
		{"a sibling managed policy's attachment is the role's declared state", "AWS::IAM::Role", "app-role",
			map[string]any{"ManagedPolicyArns": []any{basic}}, map[string]any{"ManagedPolicyArns": []any{basic, owned}}, rolePolicies, []string{}},
		{"a rogue policy beside the sibling's still surfaces", "AWS::IAM::Role", "app-role",
			map[string]any{"ManagedPolicyArns": []any{basic}}, map[string]any{"ManagedPolicyArns": []any{basic, owned, rogue}}, rolePolicies,
			[]string{`undeclared ManagedPolicyArns[` + rogue + `] "` + rogue + `"`}},
		{"a role declaring no managed policies: the sibling's is not inventory", "AWS::IAM::Role", "app-role", nil,
			map[string]any{"ManagedPolicyArns": []any{owned}}, rolePolicies, []string{}},
		{"the sibling's policy declared on the role too is still compared", "AWS::IAM::Role", "app-role",
			map[string]any{"ManagedPolicyArns": []any{basic, owned}}, map[string]any{"ManagedPolicyArns": []any{basic}}, rolePolicies,
			[]string{`declared ManagedPolicyArns want "` + owned + `" key ` + owned}},
		{"a role attaching the stack's managed policy is the policy's declared state", "AWS::IAM::ManagedPolicy", owned, nil,
			map[string]any{"Roles": []any{"app-role"}}, policyRoles, []string{}},
		{"a role attached to the policy out of band surfaces", "AWS::IAM::ManagedPolicy", owned, nil,
			map[string]any{"Roles": []any{"app-role", "other-role"}}, policyRoles, []string{`undeclared Roles ["other-role"]`}},
	}...)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := OptionsFromMap(tt.sibling)
			opts.Known = &KnownTable{}
			s := Subject{Ref: drift.ResourceRef{Type: tt.typ, PhysicalID: tt.pid}, Declared: tt.declared}
			// The registry schema's IAM identities keep ManagedPolicyArns
			// unordered (insertionOrder false): an attachment list.
			facts := &schema.Facts{UnorderedScalarPaths: []string{"ManagedPolicyArns"}}
			if d := cmp.Diff(brief(Resource(s, tt.live, facts, opts)), tt.want); d != "" {
				t.Errorf("(-got +want)\n%s", d)
			}
		})
	}
}

// TestMaskedNonASCII: a declared value the read returns with its
// non-ASCII characters masked is a read gap; an ASCII change is drift.
func TestMaskedNonASCII(t *testing.T) {
	s := Subject{Ref: drift.ResourceRef{Type: "AWS::EC2::SecurityGroup", PhysicalID: "sg-1"},
		Declared: map[string]any{"GroupDescription": "Zugriff für Büro"}}
	opts := Options{Known: &KnownTable{}}
	got := Resource(s, map[string]any{"GroupDescription": "Zugriff f?r B?ro"}, nil, opts)
	if d := cmp.Diff(brief(got), []string{"readGap GroupDescription"}); d != "" || got[0].Note != noteMaskedNonASCII {
		t.Errorf("masked value: (-got +want)\n%s note %q", d, got[0].Note)
	}
	got = Resource(s, map[string]any{"GroupDescription": "Zugang f?r B?ro"}, nil, opts)
	if d := cmp.Diff(brief(got), []string{`declared GroupDescription "Zugang f?r B?ro" want "Zugriff für Büro"`}); d != "" {
		t.Errorf("changed value: (-got +want)\n%s", d)
	}
}
