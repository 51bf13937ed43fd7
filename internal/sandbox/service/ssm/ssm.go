package ssm

import "github.com/realdrift/realdrift/internal/sandbox/wire"
import "github.com/realdrift/realdrift/internal/sandbox/world"
import "sort"

// windowChildren pages the models of typ in the request's window, by idKey.
func windowChildren(st *world.State, c *wire.Call, typ, idKey, listKey string, render func(*world.Resource, string) map[string]any) (any, error) {
	var in struct {
		WindowID   string `json:"WindowId"`
		MaxResults int
		NextToken  string
	}
	if err := c.Decode(&in); err != nil {
		return nil, err
	}
	cur, err := wire.Paging{Prefix: listKey, Default: 10, Min: 10, Max: 100,
		BadSize: func(n string) error {
			return wire.Errf(400, "ValidationException", "1 validation error detected: Value '%s' at 'maxResults' failed to satisfy constraint: Member must have value between 10 and 100", n)
		},
		BadToken: wire.Errf(400, "ValidationException", "The token is not valid.")}.Start(c, in.MaxResults, in.NextToken)
	if err != nil {
		return nil, err
	}
	st.RLock()
	defer st.RUnlock()
	exists := false
	for _, w := range st.OfType(c.Account, c.Region, "AWS::SSM::MaintenanceWindow") {
		exists = exists || world.FieldString(w, "WindowId") == in.WindowID || w.CCID() == in.WindowID
	}
	var rs []*world.Resource
	for _, t := range []string{"AWS::SSM::MaintenanceWindowTarget", "AWS::SSM::MaintenanceWindowTask"} {
		for _, r := range st.OfType(c.Account, c.Region, t) {
			if world.FieldString(r, "WindowId") != in.WindowID {
				continue
			}
			exists = true
			if t == typ {
				rs = append(rs, r)
			}
		}
	}
	if !exists {
		return nil, wire.Errf(400, "DoesNotExistException", "Maintenance window %s does not exist", in.WindowID)
	}
	id := func(r *world.Resource) string {
		if v := world.FieldString(r, idKey); v != "" {
			return v
		}
		return r.PhysicalID
	}
	sort.Slice(rs, func(i, j int) bool { return id(rs[i]) < id(rs[j]) })
	lo, hi, next := cur.Cut(len(rs))
	items := []map[string]any{}
	for _, r := range rs[lo:hi] {
		items = append(items, render(r, id(r)))
	}
	out := map[string]any{listKey: items}
	if next != "" {
		out["NextToken"] = next
	}
	return out, nil
}

func ssmDescribeWindowTargets(st *world.State, c *wire.Call) (any, error) {
	return windowChildren(st, c, "AWS::SSM::MaintenanceWindowTarget", "WindowTargetId", "Targets", func(r *world.Resource, id string) map[string]any {
		m := map[string]any{"WindowId": world.FieldString(r, "WindowId"), "WindowTargetId": id, "ResourceType": world.FieldString(r, "ResourceType")}
		if v := world.FieldValue(r, "Targets"); v != nil {
			m["Targets"] = v
		}
		if v := world.FieldString(r, "Name"); v != "" {
			m["Name"] = v
		}
		return m
	})
}

func ssmDescribeWindowTasks(st *world.State, c *wire.Call) (any, error) {
	return windowChildren(st, c, "AWS::SSM::MaintenanceWindowTask", "WindowTaskId", "Tasks", func(r *world.Resource, id string) map[string]any {
		m := map[string]any{"WindowId": world.FieldString(r, "WindowId"), "WindowTaskId": id, "TaskArn": world.FieldString(r, "TaskArn"), "Type": world.FieldString(r, "TaskType")}
		if p, ok := world.FieldValue(r, "Priority").(float64); ok {
			m["Priority"] = p
		}
		return m
	})
}
