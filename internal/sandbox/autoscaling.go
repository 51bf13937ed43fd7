package sandbox

import (
	"github.com/realdrift/realdrift/internal/sandbox/world"
	"sort"
	"strconv"
)

// autoScalingService serves Auto Scaling (query protocol): a group's
// lifecycle hooks and scheduled actions, from the world's
// AWS::AutoScaling::LifecycleHook and AWS::AutoScaling::ScheduledAction
// models (AutoScalingGroupName). A group exists when an
// AWS::AutoScaling::AutoScalingGroup model names it or a hook or action is
// on it; another is the ValidationError "Group ... not found" AWS answers.
func autoScalingService() *service {
	return &service{
		name:     "autoscaling",
		protocol: protoQuery,
		xmlns:    "http://autoscaling.amazonaws.com/doc/2011-01-01/",
		throttle: apiError{Status: 400, Code: "Throttling"},
		deny:     apiError{Status: 403, Code: "AccessDenied"},
		ops: map[string]handler{
			"DescribeLifecycleHooks":   asDescribeLifecycleHooks,
			"DescribeScheduledActions": asDescribeScheduledActions,
		},
	}
}

// groupChildren returns the models of typ on group, by name key, or the
// not-found ValidationError.
func groupChildren(st *world.State, c *call, group, typ, key string) ([]*world.Resource, error) {
	exists := false
	for _, g := range st.OfType(c.account, c.region, "AWS::AutoScaling::AutoScalingGroup") {
		exists = exists || world.FieldString(g, "AutoScalingGroupName") == group || g.CCID() == group
	}
	var out []*world.Resource
	for _, t := range []string{"AWS::AutoScaling::LifecycleHook", "AWS::AutoScaling::ScheduledAction"} {
		for _, r := range st.OfType(c.account, c.region, t) {
			if world.FieldString(r, "AutoScalingGroupName") != group {
				continue
			}
			exists = true
			if t == typ {
				out = append(out, r)
			}
		}
	}
	if !exists {
		return nil, validation("Group %s not found", group)
	}
	sort.Slice(out, func(i, j int) bool { return world.FieldString(out[i], key) < world.FieldString(out[j], key) })
	return out, nil
}

func asDescribeLifecycleHooks(st *world.State, c *call) (any, error) {
	group := c.str("AutoScalingGroupName")
	st.RLock()
	defer st.RUnlock()
	rs, err := groupChildren(st, c, group, "AWS::AutoScaling::LifecycleHook", "LifecycleHookName")
	if err != nil {
		return nil, err
	}
	var items []*xnode
	for _, r := range rs {
		items = append(items, el("", tx("LifecycleHookName", world.FieldString(r, "LifecycleHookName")), tx("AutoScalingGroupName", group),
			opt("LifecycleTransition", world.FieldString(r, "LifecycleTransition")), opt("DefaultResult", world.FieldString(r, "DefaultResult")),
			opt("NotificationTargetARN", world.FieldString(r, "NotificationTargetARN")), opt("RoleARN", world.FieldString(r, "RoleARN"))))
	}
	return el("", members("LifecycleHooks", items)), nil
}

func asDescribeScheduledActions(st *world.State, c *call) (any, error) {
	group := c.str("AutoScalingGroupName")
	size := 50
	if m := c.str("MaxRecords"); m != "" {
		n, err := strconv.Atoi(m)
		if err != nil || n < 1 || n > 100 {
			return nil, validation("1 validation error detected: Value '%s' at 'maxRecords' failed to satisfy constraint: Member must have value less than or equal to 100", m)
		}
		size = n
	}
	off, ok := pageOffset("asa", c.str("NextToken"))
	if !ok {
		return nil, errf(400, "InvalidNextToken", "The token is not valid.")
	}
	st.RLock()
	defer st.RUnlock()
	rs, err := groupChildren(st, c, group, "AWS::AutoScaling::ScheduledAction", "ScheduledActionName")
	if err != nil {
		return nil, err
	}
	lo, hi, next := page(len(rs), off, size)
	var items []*xnode
	for _, r := range rs[lo:hi] {
		name := world.FieldString(r, "ScheduledActionName")
		if name == "" {
			name = r.PhysicalID
		}
		items = append(items, el("", tx("ScheduledActionName", name), tx("AutoScalingGroupName", group),
			opt("Recurrence", world.FieldString(r, "Recurrence")), opt("TimeZone", world.FieldString(r, "TimeZone"))))
	}
	out := el("", members("ScheduledUpdateGroupActions", items))
	if next >= 0 {
		out.kids = append(out.kids, tx("NextToken", pageToken("asa", next)))
	}
	return out, nil
}
