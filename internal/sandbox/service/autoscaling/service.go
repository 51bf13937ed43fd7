package autoscaling

import "github.com/realdrift/realdrift/internal/sandbox/wire"

// Service serves Auto Scaling (query protocol): a group's
// lifecycle hooks and scheduled actions, from the world's
// AWS::AutoScaling::LifecycleHook and AWS::AutoScaling::ScheduledAction
// models (AutoScalingGroupName). A group exists when an
// AWS::AutoScaling::AutoScalingGroup model names it or a hook or action is
// on it; another is the ValidationError "Group ... not found" AWS answers.
func Service() *wire.Service {
	return wire.Query("autoscaling", "http://autoscaling.amazonaws.com/doc/2011-01-01/", wire.Ops{
		"DescribeLifecycleHooks":   asDescribeLifecycleHooks,
		"DescribeScheduledActions": asDescribeScheduledActions,
	})
}
