package applicationautoscaling

import "github.com/realdrift/realdrift/internal/sandbox/wire"

// Service serves Application Auto Scaling (JSON
// 1.1, PascalCase): DescribeScalingPolicies lists the world's
// AWS::ApplicationAutoScaling::ScalingPolicy models in the namespace asked
// (and the ResourceId, ScalableDimension and PolicyNames, when given),
// ordered by name, in pages of MaxResults (default 50, at most 50) and
// NextToken. A model's target is its ServiceNamespace, ResourceId and
// ScalableDimension, else its ScalingTargetId ("<resource id>|<dimension>|
// <namespace>"); its ARN is Arn, else the identifier's part before "|".
// The model's Step/TargetTracking configurations are answered as it holds
// them (the API's shape is the template's).
func Service() *wire.Service {
	return wire.JSON("application-autoscaling", "1.1", "AnyScaleFrontendService.", wire.Ops{
		"DescribeScalingPolicies": wire.Read(aasDescribeScalingPolicies),
	})
}
