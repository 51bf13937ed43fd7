package live_test

import (
	"testing"

	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/sandbox"
)

// TestEnumerateTargetPolicies: a scalable target's out-of-band scaling
// policy is added with the "<ARN>|<dimension>" identifier; the declared
// one (by ARN), one a sibling stack owns and a policy on another dimension
// of the same table are not; DescribeScalingPolicies denied skips the
// target. The target is named by its physical id (no declared parts).
func TestEnumerateTargetPolicies(t *testing.T) {
	const table = "table/Sessions"
	const read = "dynamodb:table:ReadCapacityUnits"
	arn := func(name string) string {
		return "arn:aws:autoscaling:us-east-1:" + acct + ":scalingPolicy:0a1b:resource/dynamodb/" + table + ":policyName/" + name
	}
	policy := func(name, dim string) *sandbox.Resource {
		r := liveOnly("AWS::ApplicationAutoScaling::ScalingPolicy", arn(name), `{"Arn":"`+arn(name)+`","PolicyName":"`+name+`","PolicyType":"TargetTrackingScaling",`+
			`"ServiceNamespace":"dynamodb","ResourceId":"`+table+`","ScalableDimension":"`+dim+`","TargetTrackingScalingPolicyConfiguration":{"TargetValue":70}}`)
		r.Identifier = arn(name) + "|" + dim
		return r
	}
	shared := policy("shared", read)
	shared.LogicalID = "Shared"
	runFamily(t, familyCase{
		world:   []*sandbox.Resource{policy("declared", read), policy("console", read), policy("writes", "dynamodb:table:WriteCapacityUnits")},
		sibling: []*sandbox.Resource{shared},
		parent:  live.StackResource{LogicalID: "Target", Type: "AWS::ApplicationAutoScaling::ScalableTarget", PhysicalID: table + "|" + read + "|dynamodb"},
		stack: []live.StackResource{
			{LogicalID: "Target", Type: "AWS::ApplicationAutoScaling::ScalableTarget", PhysicalID: table + "|" + read + "|dynamodb"},
			{LogicalID: "Policy", Type: "AWS::ApplicationAutoScaling::ScalingPolicy", PhysicalID: arn("declared")},
		},
		want: []string{"AWS::ApplicationAutoScaling::ScalingPolicy " + arn("console") + "|" + read},
		models: map[string]map[string]any{arn("console") + "|" + read: {"Arn": arn("console"), "PolicyName": "console", "PolicyType": "TargetTrackingScaling",
			"ServiceNamespace": "dynamodb", "ResourceId": table, "ScalableDimension": read, "TargetTrackingScalingPolicyConfiguration": map[string]any{"TargetValue": 70.0}}},
		service: "application-autoscaling", action: "DescribeScalingPolicies", denied: "Application Auto Scaling DescribeScalingPolicies: AccessDenied",
	})
}
