package live

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/schema"
)

func TestIdentifier(t *testing.T) {
	tests := []struct {
		name     string
		typ      string
		pid      string
		declared map[string]any
		want     string
		wantErr  bool
		waiting  bool
	}{
		{"plain type keeps the physical id", "AWS::SQS::Queue", "https://q", nil, "https://q", false, false},
		{"appsync api arn to id", "AWS::AppSync::GraphQLApi", "arn:aws:appsync:us-east-1:111111111111:apis/abc123", nil, "abc123", false, false},
		{"batch job definition arn to bare name", "AWS::Batch::JobDefinition", "arn:aws:batch:us-east-1:111111111111:job-definition/render:7", nil, "render", false, false},
		{"cognito client parent first", "AWS::Cognito::UserPoolClient", "client1", map[string]any{"UserPoolId": "us-east-1_X"}, "us-east-1_X|client1", false, false},
		{"apigw v2 stage parent first", "AWS::ApiGatewayV2::Stage", "prod", map[string]any{"ApiId": "a1"}, "a1|prod", false, false},
		{"apigw deployment child first", "AWS::ApiGateway::Deployment", "dep1", map[string]any{"RestApiId": "r1"}, "dep1|r1", false, false},
		{"ecs service arn then cluster", "AWS::ECS::Service", "arn:svc", map[string]any{"Cluster": "c1"}, "arn:svc|c1", false, false},
		{"apiv2 mapping child first", "AWS::ApiGatewayV2::ApiMapping", "m1", map[string]any{"DomainName": "api.example.com"}, "m1|api.example.com", false, false},
		{"base path mapping root", "AWS::ApiGateway::BasePathMapping", "api.example.com", map[string]any{"DomainName": "api.example.com"}, "api.example.com|", false, false},
		{"base path mapping path", "AWS::ApiGateway::BasePathMapping", "api.example.com", map[string]any{"DomainName": "api.example.com", "BasePath": "v1"}, "api.example.com|v1", false, false},
		{"tgw propagation from two props", "AWS::EC2::TransitGatewayRouteTablePropagation", "x_y", map[string]any{"TransitGatewayRouteTableId": "tgw-rtb-1", "TransitGatewayAttachmentId": "tgw-attach-2"}, "tgw-rtb-1|tgw-attach-2", false, false},
		{"scaling policy from target id", "AWS::ApplicationAutoScaling::ScalingPolicy", "arn:pol", map[string]any{"ScalingTargetId": "service/c/s|ecs:service:DesiredCount|ecs"}, "arn:pol|ecs:service:DesiredCount", false, false},
		{"scaling policy declared dimension", "AWS::ApplicationAutoScaling::ScalingPolicy", "arn:pol", map[string]any{"ScalableDimension": "dynamodb:table:ReadCapacityUnits"}, "arn:pol|dynamodb:table:ReadCapacityUnits", false, false},
		{"unresolved parent waits", "AWS::Cognito::UserPoolClient", "client1", map[string]any{"UserPoolId": drift.Unknown{Reason: "GetAtt"}}, "", true, true},
		{"absent parent skips", "AWS::Cognito::UserPoolClient", "client1", map[string]any{}, "", true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Identifier(tt.typ, tt.pid, tt.declared)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error %v", err, tt.wantErr)
			}
			if err != nil {
				if _, _, wait := outcome(err); wait != tt.waiting {
					t.Errorf("waiting = %v, want %v", wait, tt.waiting)
				}
				return
			}
			if diff := cmp.Diff(got, tt.want); diff != "" {
				t.Errorf("identifier (-got +want):\n%s", diff)
			}
		})
	}
}

func TestParsePolicy(t *testing.T) {
	want := map[string]any{"Version": "2012-10-17", "Statement": []any{map[string]any{"Effect": "Allow", "Action": "s3:Get+Object"}}}
	for name, text := range map[string]string{
		"json":        `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"s3:Get+Object"}]}`,
		"url-encoded": `%7B%22Version%22%3A%222012-10-17%22%2C%22Statement%22%3A%5B%7B%22Effect%22%3A%22Allow%22%2C%22Action%22%3A%22s3%3AGet%2BObject%22%7D%5D%7D`,
	} {
		t.Run(name, func(t *testing.T) {
			got, err := parsePolicy(text)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(got, want); diff != "" {
				t.Errorf("policy (-got +want):\n%s", diff)
			}
		})
	}
	if _, err := parsePolicy("not a policy"); err == nil {
		t.Error("parsePolicy accepted garbage")
	}
}

func TestIsDefaultTopicPolicy(t *testing.T) {
	arn := "arn:aws:sns:us-east-1:111111111111:alerts"
	def := func() map[string]any {
		return map[string]any{
			"Version": "2008-10-17", "Id": "__default_policy_ID",
			"Statement": []any{map[string]any{
				"Sid": "__default_statement_ID", "Effect": "Allow", "Principal": map[string]any{"AWS": "*"},
				"Action": []any{"SNS:GetTopicAttributes", "SNS:SetTopicAttributes", "SNS:AddPermission", "SNS:RemovePermission",
					"SNS:DeleteTopic", "SNS:Subscribe", "SNS:ListSubscriptionsByTopic", "SNS:Publish"},
				"Resource":  arn,
				"Condition": map[string]any{"StringEquals": map[string]any{"AWS:SourceOwner": "111111111111"}},
			}},
		}
	}
	if !isDefaultTopicPolicy(def(), arn) {
		t.Error("the AWS default policy was not recognised")
	}
	other := def()
	other["Statement"].([]any)[0].(map[string]any)["Condition"] = map[string]any{"StringEquals": map[string]any{"AWS:SourceOwner": "222222222222"}}
	if isDefaultTopicPolicy(other, arn) {
		t.Error("a policy for another owner was folded as the default")
	}
	wider := def()
	wider["Statement"].([]any)[0].(map[string]any)["Condition"] = nil
	if isDefaultTopicPolicy(wider, arn) {
		t.Error("an ungated public policy was folded as the default")
	}
}

// TestCompoundIdentifiersFollowSchema holds every compound identifier to
// the pinned schema's primaryIdentifier: same parts, same order.
func TestCompoundIdentifiersFollowSchema(t *testing.T) {
	snap, err := schema.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	for typ, k := range compoundIdentifiers() {
		f, ok := snap.Lookup(typ)
		if !ok {
			t.Errorf("%s: not in the pinned schema", typ)
			continue
		}
		if diff := cmp.Diff(k.parts, f.PrimaryIdentifier); diff != "" {
			t.Errorf("%s: parts differ from primaryIdentifier (-got +want):\n%s", typ, diff)
		}
		if k.physical != "" && !slices.Contains(k.parts, k.physical) {
			t.Errorf("%s: physical part %s is not a part", typ, k.physical)
		}
	}
}

func TestEventsRuleArn(t *testing.T) {
	s := Scope{Partition: "aws", Region: "eu-west-1", Account: "123456789012"}
	tests := []struct {
		name, pid string
		declared  map[string]any
		want      string
	}{
		{"default bus", "r1", nil, "arn:aws:events:eu-west-1:123456789012:rule/r1"},
		{"declared default bus", "r1", map[string]any{"EventBusName": "default"}, "arn:aws:events:eu-west-1:123456789012:rule/r1"},
		{"custom bus physical id", "bus1|r1", nil, "arn:aws:events:eu-west-1:123456789012:rule/bus1/r1"},
		{"custom bus arn declared", "r1", map[string]any{"EventBusName": "arn:aws:events:eu-west-1:123456789012:event-bus/bus1"}, "arn:aws:events:eu-west-1:123456789012:rule/bus1/r1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := IdentifierIn(s, "AWS::Events::Rule", tt.pid, tt.declared)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
	if _, err := Identifier("AWS::Events::Rule", "r1", nil); err == nil {
		t.Error("Identifier without a scope built a rule ARN")
	}
}
