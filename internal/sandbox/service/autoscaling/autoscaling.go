package autoscaling

import (
	"sort"

	"github.com/realdrift/realdrift/internal/sandbox/wire"
	"github.com/realdrift/realdrift/internal/sandbox/world"
)

// groupChildren returns the models of typ on group, by name key, or the
// not-found ValidationError.
func groupChildren(st *world.State, c *wire.Call, group, typ, key string) ([]*world.Resource, error) {
	exists := false
	for _, g := range st.OfType(c.Account, c.Region, "AWS::AutoScaling::AutoScalingGroup") {
		exists = exists || world.FieldString(g, "AutoScalingGroupName") == group || g.CCID() == group
	}
	var out []*world.Resource
	for _, t := range []string{"AWS::AutoScaling::LifecycleHook", "AWS::AutoScaling::ScheduledAction"} {
		for _, r := range st.OfType(c.Account, c.Region, t) {
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
		return nil, wire.Validation("Group %s not found", group)
	}
	sort.Slice(out, func(i, j int) bool { return world.FieldString(out[i], key) < world.FieldString(out[j], key) })
	return out, nil
}

func asDescribeLifecycleHooks(st *world.State, c *wire.Call) (any, error) {
	group := c.Str("AutoScalingGroupName")
	st.RLock()
	defer st.RUnlock()
	rs, err := groupChildren(st, c, group, "AWS::AutoScaling::LifecycleHook", "LifecycleHookName")
	if err != nil {
		return nil, err
	}
	var items []*wire.Node
	for _, r := range rs {
		items = append(items, wire.El("", wire.Tx("LifecycleHookName", world.FieldString(r, "LifecycleHookName")), wire.Tx("AutoScalingGroupName", group),
			wire.Opt("LifecycleTransition", world.FieldString(r, "LifecycleTransition")), wire.Opt("DefaultResult", world.FieldString(r, "DefaultResult")),
			wire.Opt("NotificationTargetARN", world.FieldString(r, "NotificationTargetARN")), wire.Opt("RoleARN", world.FieldString(r, "RoleARN"))))
	}
	return wire.El("", wire.Members("LifecycleHooks", items)), nil
}

func asDescribeScheduledActions(st *world.State, c *wire.Call) (any, error) {
	group := c.Str("AutoScalingGroupName")
	cur, err := wire.Paging{Prefix: "asa", Default: 50, Max: 100,
		BadSize: func(n string) error {
			return wire.Validation("1 validation error detected: Value '%s' at 'maxRecords' failed to satisfy constraint: Member must have value less than or equal to 100", n)
		},
		BadToken: wire.Errf(400, "InvalidNextToken", "The token is not valid.")}.StartText(c, c.Str("MaxRecords"), c.Str("NextToken"))
	if err != nil {
		return nil, err
	}
	st.RLock()
	defer st.RUnlock()
	rs, err := groupChildren(st, c, group, "AWS::AutoScaling::ScheduledAction", "ScheduledActionName")
	if err != nil {
		return nil, err
	}
	lo, hi, next := cur.Cut(len(rs))
	var items []*wire.Node
	for _, r := range rs[lo:hi] {
		name := world.FieldString(r, "ScheduledActionName")
		if name == "" {
			name = r.PhysicalID
		}
		items = append(items, wire.El("", wire.Tx("ScheduledActionName", name), wire.Tx("AutoScalingGroupName", group),
			wire.Opt("Recurrence", world.FieldString(r, "Recurrence")), wire.Opt("TimeZone", world.FieldString(r, "TimeZone"))))
	}
	out := wire.El("", wire.Members("ScheduledUpdateGroupActions", items))
	if next != "" {
		out.Kids = append(out.Kids, wire.Tx("NextToken", next))
	}
	return out, nil
}
