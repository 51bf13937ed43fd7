package classify

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/schema"
)

// shape is the part of a finding the path convention (doc.go) fixes.
type shape struct {
	Tier         string
	Path         string
	Actual       any
	Desired      any
	AttributeKey string
	FreeFormKey  bool
	Revert       *drift.WholeArrayRevert
}

func shapes(fs []drift.Finding) []shape {
	out := make([]shape, 0, len(fs))
	for _, f := range fs {
		out = append(out, shape{f.Tier.String(), f.Path, f.Actual, f.Desired, f.AttributeKey, f.FreeFormKey, f.WholeArrayRevert})
	}
	return out
}

const (
	arnA   = "arn:aws:iam::aws:policy/ReadOnlyAccess"
	arnB   = "arn:aws:iam::111111111111:policy/app-write"
	arnC   = "arn:aws:iam::aws:policy/AdministratorAccess"
	layerA = "arn:aws:lambda:us-east-1:111111111111:layer:a:1"
	layerB = "arn:aws:lambda:us-east-1:111111111111:layer:b:3"
)

// TestPathConvention pins each rule of the reporting convention in doc.go.
func TestPathConvention(t *testing.T) {
	tag := func(k, v string) map[string]any { return map[string]any{"Key": k, "Value": v} }
	tags := []any{tag("a", "1"), tag("b", "2")}
	attr := func(k, v string) map[string]any { return map[string]any{"Key": k, "Value": v} }
	tests := []struct {
		name     string
		typ      string
		declared map[string]any
		live     map[string]any
		facts    schema.Facts
		want     []shape
	}{
		{"declared drift inside an element is at its index with the whole array", "AWS::SQS::Queue",
			map[string]any{"Tags": tags}, map[string]any{"Tags": []any{tag("a", "1"), tag("b", "3")}}, schema.Facts{},
			[]shape{{Tier: "declared", Path: "Tags.1.Value", Actual: "3", Desired: "2", Revert: &drift.WholeArrayRevert{Path: "Tags", Value: tags}}}},
		{"a removed element is one finding at the array path", "AWS::SQS::Queue",
			map[string]any{"Tags": tags}, map[string]any{"Tags": []any{tag("a", "1")}}, schema.Facts{},
			[]shape{{Tier: "declared", Path: "Tags", Actual: []any{tag("a", "1")}, Desired: tags}}},
		{"a live-only tag is undeclared at its key, by its value, with a free-form key", "AWS::SQS::Queue",
			map[string]any{"Tags": tags}, map[string]any{"Tags": []any{tag("a", "1"), tag("b", "2"), tag("c", "x")}}, schema.Facts{},
			[]shape{{Tier: "undeclared", Path: "Tags[c]", Actual: "x", FreeFormKey: true}}},
		{"a declared attribute is at the bag path by key", "AWS::ElasticLoadBalancingV2::LoadBalancer",
			map[string]any{"LoadBalancerAttributes": []any{attr("idle_timeout.timeout_seconds", "120")}},
			map[string]any{"LoadBalancerAttributes": []any{attr("idle_timeout.timeout_seconds", "300")}}, schema.Facts{},
			[]shape{{Tier: "declared", Path: "LoadBalancerAttributes", Actual: "300", Desired: "120", AttributeKey: "idle_timeout.timeout_seconds"}}},
		{"a declared attribute the bag lacks is at the bag path by key", "AWS::ElasticLoadBalancingV2::LoadBalancer",
			map[string]any{"LoadBalancerAttributes": []any{attr("idle_timeout.timeout_seconds", "120")}},
			map[string]any{"LoadBalancerAttributes": []any{attr("example.custom", "on")}}, schema.Facts{},
			[]shape{
				{Tier: "declared", Path: "LoadBalancerAttributes", Desired: "120", AttributeKey: "idle_timeout.timeout_seconds"},
				{Tier: "undeclared", Path: "LoadBalancerAttributes[example.custom]", Actual: "on"},
			}},
		{"a detached attachment is at the list path by member", "AWS::IAM::ManagedPolicy",
			map[string]any{"Roles": []any{"r1", "r2"}}, map[string]any{"Roles": []any{"r1", "other"}}, schema.Facts{},
			[]shape{
				{Tier: "declared", Path: "Roles", Desired: "r2", AttributeKey: "r2", Revert: &drift.WholeArrayRevert{Path: "Roles", Value: []any{"r1", "other", "r2"}}},
				{Tier: "undeclared", Path: "Roles[other]", Actual: "other"},
			}},
		{"a detached managed policy ARN is at the list path by member", "AWS::IAM::Role",
			map[string]any{"ManagedPolicyArns": []any{arnA, arnB}}, map[string]any{"ManagedPolicyArns": []any{arnA}},
			schema.Facts{UnorderedScalarPaths: []string{"ManagedPolicyArns"}},
			[]shape{{Tier: "declared", Path: "ManagedPolicyArns", Desired: arnB, AttributeKey: arnB, Revert: &drift.WholeArrayRevert{Path: "ManagedPolicyArns", Value: []any{arnA, arnB}}}}},
		{"an attached managed policy ARN is undeclared at its member", "AWS::IAM::Role",
			map[string]any{"ManagedPolicyArns": []any{arnA}}, map[string]any{"ManagedPolicyArns": []any{arnC, arnA}},
			schema.Facts{UnorderedScalarPaths: []string{"ManagedPolicyArns"}},
			[]shape{{Tier: "undeclared", Path: "ManagedPolicyArns[" + arnC + "]", Actual: arnC}}},
		{"a swapped managed policy ARN is one finding per member", "AWS::IAM::Role",
			map[string]any{"ManagedPolicyArns": []any{arnB, arnA}}, map[string]any{"ManagedPolicyArns": []any{arnA, arnC}},
			schema.Facts{UnorderedScalarPaths: []string{"ManagedPolicyArns"}},
			[]shape{
				{Tier: "declared", Path: "ManagedPolicyArns", Desired: arnB, AttributeKey: arnB, Revert: &drift.WholeArrayRevert{Path: "ManagedPolicyArns", Value: []any{arnC, arnA, arnB}}},
				{Tier: "undeclared", Path: "ManagedPolicyArns[" + arnC + "]", Actual: arnC},
			}},
		{"a reordered managed policy list is no drift", "AWS::IAM::Role",
			map[string]any{"ManagedPolicyArns": []any{arnB, arnA}}, map[string]any{"ManagedPolicyArns": []any{arnA, arnB}},
			schema.Facts{UnorderedScalarPaths: []string{"ManagedPolicyArns"}}, []shape{}},
		{"an ordered ARN list stays one finding at the list path", "AWS::Lambda::Function",
			map[string]any{"Layers": []any{layerA, layerB}}, map[string]any{"Layers": []any{layerA}}, schema.Facts{},
			[]shape{{Tier: "declared", Path: "Layers", Actual: []any{layerA}, Desired: []any{layerA, layerB}}}},
		{"an unordered list of non-ARNs stays one finding at the list path", "AWS::Cognito::UserPoolClient",
			map[string]any{"CallbackURLs": []any{"https://a", "https://b"}}, map[string]any{"CallbackURLs": []any{"https://a"}}, schema.Facts{},
			[]shape{{Tier: "declared", Path: "CallbackURLs", Actual: []any{"https://a"}, Desired: []any{"https://a", "https://b"}}}},
		{"a key added to a free-form map is flagged", "AWS::Lambda::Function",
			map[string]any{"Environment": map[string]any{"Variables": map[string]any{"A": "1"}}},
			map[string]any{"Environment": map[string]any{"Variables": map[string]any{"A": "1", "B": "2"}}},
			schema.Facts{FreeFormMapPaths: []string{"Environment.Variables"}},
			[]shape{{Tier: "undeclared", Path: "Environment.Variables.B", Actual: "2", FreeFormKey: true}}},
		{"an undeclared object is reported whole", "AWS::SQS::Queue",
			nil, map[string]any{"RedrivePolicy": map[string]any{"deadLetterTargetArn": "arn:aws:sqs:us-east-1:111111111111:dlq", "maxReceiveCount": 5.0}}, schema.Facts{},
			[]shape{{Tier: "undeclared", Path: "RedrivePolicy", Actual: map[string]any{"deadLetterTargetArn": "arn:aws:sqs:us-east-1:111111111111:dlq", "maxReceiveCount": 5.0}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := Subject{Ref: drift.ResourceRef{Type: tt.typ, PhysicalID: "p"}, Declared: tt.declared}
			got := shapes(Resource(s, tt.live, &tt.facts, Options{Known: &KnownTable{}}))
			if d := cmp.Diff(got, tt.want); d != "" {
				t.Errorf("(-got +want)\n%s", d)
			}
		})
	}
}
