package events

import (
	"sort"
	"strings"

	"github.com/realdrift/realdrift/internal/sandbox/wire"
	"github.com/realdrift/realdrift/internal/sandbox/world"
)

// ruleBus is the name of the bus a rule model is on.
func ruleBus(r *world.Resource) string {
	b := world.FieldString(r, "EventBusName")
	if i := strings.LastIndex(b, "event-bus/"); i >= 0 {
		b = b[i+len("event-bus/"):]
	}
	if b == "" {
		return "default"
	}
	return b
}

func eventsListRules(st *world.State, c *wire.Call) (any, error) {
	var in struct {
		EventBusName, NamePrefix, NextToken string
		Limit                               int
	}
	if err := c.Decode(&in); err != nil {
		return nil, err
	}
	cur, err := wire.Paging{Prefix: "rules", Default: 100, Max: 100,
		BadSize: func(n string) error {
			return wire.Errf(400, "ValidationException", "1 validation error detected: Value '%s' at 'limit' failed to satisfy constraint: Member must have value less than or equal to 100", n)
		},
		BadToken: wire.Errf(400, "ValidationException", "The nextToken is not valid.")}.Start(c, in.Limit, in.NextToken)
	if err != nil {
		return nil, err
	}
	bus := in.EventBusName
	if i := strings.LastIndex(bus, "event-bus/"); i >= 0 {
		bus = bus[i+len("event-bus/"):]
	}
	if bus == "" {
		bus = "default"
	}
	st.RLock()
	defer st.RUnlock()
	exists := bus == "default"
	for _, b := range st.OfType(c.Account, c.Region, "AWS::Events::EventBus") {
		exists = exists || world.FieldString(b, "Name") == bus || b.PhysicalID == bus
	}
	var rules []*world.Resource
	for _, r := range st.OfType(c.Account, c.Region, "AWS::Events::Rule") {
		if ruleBus(r) != bus {
			continue
		}
		exists = true
		if strings.HasPrefix(world.FieldString(r, "Name"), in.NamePrefix) {
			rules = append(rules, r)
		}
	}
	if !exists {
		return nil, wire.Errf(400, "ResourceNotFoundException", "Event bus %s does not exist.", bus)
	}
	sort.Slice(rules, func(i, j int) bool { return world.FieldString(rules[i], "Name") < world.FieldString(rules[j], "Name") })
	lo, hi, next := cur.Cut(len(rules))
	items := []map[string]any{}
	for _, r := range rules[lo:hi] {
		name := world.FieldString(r, "Name")
		arn := world.FieldString(r, "Arn")
		if arn == "" {
			path := name
			if bus != "default" {
				path = bus + "/" + name
			}
			arn = "arn:aws:events:" + c.Region + ":" + c.Account + ":rule/" + path
		}
		it := map[string]any{"Name": name, "Arn": arn, "EventBusName": bus, "State": world.FieldString(r, "State")}
		for _, k := range []string{"Description", "ScheduleExpression", "RoleArn", "ManagedBy"} {
			if v := world.FieldString(r, k); v != "" {
				it[k] = v
			}
		}
		if p := world.Field(r, "EventPattern"); p != nil {
			if v := world.FieldString(r, "EventPattern"); v != "" {
				it["EventPattern"] = v
			} else {
				it["EventPattern"] = world.CompactJSON(p)
			}
		}
		items = append(items, it)
	}
	out := map[string]any{"Rules": items}
	if next != "" {
		out["NextToken"] = next
	}
	return out, nil
}
