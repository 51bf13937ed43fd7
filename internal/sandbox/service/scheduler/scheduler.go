package scheduler

import (
	"time"

	"github.com/realdrift/realdrift/internal/sandbox/wire"
	"github.com/realdrift/realdrift/internal/sandbox/world"
)

func schedulerGetSchedule(st *world.State, c *wire.Call) (any, error) {
	name, group := c.Params["name"], c.Str("groupName")
	if group == "" {
		group = "default"
	}
	st.RLock()
	defer st.RUnlock()
	var sched *world.Resource
	for _, r := range st.OfType(c.Account, c.Region, "AWS::Scheduler::Schedule") {
		g := world.FieldString(r, "GroupName")
		if g == "" {
			g = "default"
		}
		n := world.FieldString(r, "Name")
		if n == "" {
			n = r.CCID()
		}
		if n == name && g == group {
			sched = r
			break
		}
	}
	if sched == nil {
		return nil, wire.Errf(404, "ResourceNotFoundException", "Schedule %s does not exist.", name)
	}
	m, err := world.FieldObject(sched)
	if err != nil {
		return nil, err
	}
	for k, v := range map[string]any{"Name": name, "GroupName": group, "ScheduleExpressionTimezone": "UTC", "State": "ENABLED", "ActionAfterCompletion": "NONE"} {
		if _, ok := m[k]; !ok {
			m[k] = v
		}
	}
	if t, ok := m["Target"].(map[string]any); ok {
		if _, ok := t["RetryPolicy"]; !ok {
			t["RetryPolicy"] = map[string]any{"MaximumEventAgeInSeconds": 86400, "MaximumRetryAttempts": 185}
		}
	}
	for _, k := range []string{"StartDate", "EndDate"} {
		if v, ok := m[k].(string); ok {
			t, err := time.Parse(time.RFC3339Nano, v)
			if err != nil {
				return nil, wire.Errf(500, "InternalServerException", "the world's %s %q is not an RFC 3339 time", k, v)
			}
			m[k] = wire.Epoch(t)
		}
	}
	m["Arn"] = "arn:aws:scheduler:" + c.Region + ":" + c.Account + ":schedule/" + group + "/" + name
	m["CreationDate"], m["LastModificationDate"] = wire.Epoch(world.DefaultTime), wire.Epoch(world.DefaultTime)
	return m, nil
}
