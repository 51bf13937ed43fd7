package live

import (
	"context"
	"errors"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/autoscaling"
	"github.com/aws/smithy-go"
)

// The Auto Scaling family: the out-of-band lifecycle hooks and scheduled
// actions of a declared AWS::AutoScaling::AutoScalingGroup.

type autoScalingAPI interface {
	DescribeLifecycleHooks(ctx context.Context, in *autoscaling.DescribeLifecycleHooksInput, optFns ...func(*autoscaling.Options)) (*autoscaling.DescribeLifecycleHooksOutput, error)
	autoscaling.DescribeScheduledActionsAPIClient
}

var _ autoScalingAPI = (*autoscaling.Client)(nil)

// groupGone reports the ValidationError Auto Scaling answers for a group
// that does not exist (it has no not-found code).
func groupGone(err error) bool {
	var ae smithy.APIError
	return errors.As(err, &ae) && ae.ErrorCode() == "ValidationError" && strings.Contains(ae.ErrorMessage(), "not found")
}

// groupHooks lists the lifecycle hooks of a declared group (physical id:
// its name) the stack does not declare (physical id: the hook name);
// Cloud Control reads each by "<group>|<hook>".
func groupHooks(ctx context.Context, c *Clients, parent StackResource, stack []StackResource) ([]candidate, error) {
	if c.AutoScaling == nil {
		return nil, skip("no Auto Scaling client")
	}
	group := parent.PhysicalID
	out, err := c.AutoScaling.DescribeLifecycleHooks(ctx, &autoscaling.DescribeLifecycleHooksInput{AutoScalingGroupName: &group})
	if groupGone(err) {
		return nil, nil // the group itself is reported deleted
	}
	if err != nil {
		return nil, err
	}
	declared := declaredIDs(stack, "AWS::AutoScaling::LifecycleHook")
	var cands []candidate
	for _, h := range out.LifecycleHooks {
		name := aws.ToString(h.LifecycleHookName)
		if !declared[name] {
			cands = append(cands, candidate{typ: "AWS::AutoScaling::LifecycleHook", id: group + "|" + name, physical: name})
		}
	}
	return cands, nil
}

// groupScheduledActions lists the scheduled actions of a declared group
// the stack does not declare (physical id: the action name); Cloud Control
// reads each by "<action>|<group>".
func groupScheduledActions(ctx context.Context, c *Clients, parent StackResource, stack []StackResource) ([]candidate, error) {
	if c.AutoScaling == nil {
		return nil, skip("no Auto Scaling client")
	}
	group := parent.PhysicalID
	declared := declaredIDs(stack, "AWS::AutoScaling::ScheduledAction")
	var cands []candidate
	p := autoscaling.NewDescribeScheduledActionsPaginator(c.AutoScaling, &autoscaling.DescribeScheduledActionsInput{AutoScalingGroupName: &group})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if groupGone(err) {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		for _, a := range page.ScheduledUpdateGroupActions {
			name := aws.ToString(a.ScheduledActionName)
			if !declared[name] {
				cands = append(cands, candidate{typ: "AWS::AutoScaling::ScheduledAction", id: name + "|" + group, physical: name})
			}
		}
	}
	return cands, nil
}
