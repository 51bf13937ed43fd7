package live

import (
	"context"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/applicationautoscaling"
	aastypes "github.com/aws/aws-sdk-go-v2/service/applicationautoscaling/types"
)

// The Application Auto Scaling family's children: the out-of-band scaling
// policies of a declared AWS::ApplicationAutoScaling::ScalableTarget,
// listed by DescribeScalingPolicies for the target's ServiceNamespace,
// ResourceId and ScalableDimension (paged by NextToken). Only declared
// targets are scanned: a target made out of band has no declared parent.

type appAutoScalingAPI interface {
	applicationautoscaling.DescribeScalingPoliciesAPIClient
}

var _ appAutoScalingAPI = (*applicationautoscaling.Client)(nil)

// targetPolicies lists the scaling policies of a declared scalable target
// the stack does not declare. The target is its declared ServiceNamespace,
// ResourceId and ScalableDimension, else its physical id
// ("<resource id>|<dimension>|<namespace>"). A policy's physical id is its
// ARN; Cloud Control reads it by "<ARN>|<ScalableDimension>".
func targetPolicies(ctx context.Context, c *Clients, parent StackResource, stack []StackResource) ([]candidate, error) {
	if c.AppAutoScaling == nil {
		return nil, skip("no Application Auto Scaling client")
	}
	ns, res, dim, err := scalableTarget(parent)
	if err != nil {
		return nil, err
	}
	declared := declaredIDs(stack, "AWS::ApplicationAutoScaling::ScalingPolicy")
	in := &applicationautoscaling.DescribeScalingPoliciesInput{ServiceNamespace: aastypes.ServiceNamespace(ns), ResourceId: &res,
		ScalableDimension: aastypes.ScalableDimension(dim)}
	var out []candidate
	p := applicationautoscaling.NewDescribeScalingPoliciesPaginator(c.AppAutoScaling, in)
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		for _, pol := range page.ScalingPolicies {
			arn := aws.ToString(pol.PolicyARN)
			if arn == "" || declared[arn] {
				continue
			}
			out = append(out, candidate{typ: "AWS::ApplicationAutoScaling::ScalingPolicy", id: arn + "|" + string(pol.ScalableDimension), physical: arn})
		}
	}
	return out, nil
}

// scalableTarget returns a declared target's namespace, resource id and
// dimension: declared, else from its physical id.
func scalableTarget(parent StackResource) (ns, res, dim string, err error) {
	parts := strings.Split(parent.PhysicalID, "|")
	fromID := len(parts) == 3 && parts[0] != "" && parts[1] != "" && parts[2] != ""
	get := func(prop string, i int) (string, error) {
		if _, ok := parent.Declared[prop]; ok {
			return declaredString(parent.Declared, prop)
		}
		if fromID {
			return parts[i], nil
		}
		return "", skip("the target's " + prop + " is neither declared nor in its physical id " + parent.PhysicalID)
	}
	if res, err = get("ResourceId", 0); err != nil {
		return "", "", "", err
	}
	if dim, err = get("ScalableDimension", 1); err != nil {
		return "", "", "", err
	}
	if ns, err = get("ServiceNamespace", 2); err != nil {
		return "", "", "", err
	}
	return ns, res, dim, nil
}
