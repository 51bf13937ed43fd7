package live_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/sandbox"
)

const busName = "orders"

func ruleArn(name string) string {
	return "arn:aws:events:us-east-1:111111111111:rule/" + busName + "/" + name
}

// eventsWorld: a custom bus with a declared rule, an out-of-band rule, a
// rule another stack owns and one an AWS service manages.
func eventsWorld() *sandbox.World {
	rule := func(name, extra string) *sandbox.Resource {
		return &sandbox.Resource{Type: "AWS::Events::Rule", PhysicalID: busName + "|" + name, Identifier: ruleArn(name),
			Properties: json.RawMessage(`{"Name":"` + name + `","Arn":"` + ruleArn(name) + `","EventBusName":"` + busName + `","State":"ENABLED","EventPattern":{"source":["app"]}` + extra + `}`)}
	}
	w := worldOf(
		liveOnly("AWS::Events::EventBus", busName, `{"Name":"`+busName+`","Arn":"arn:aws:events:us-east-1:111111111111:event-bus/`+busName+`"}`),
		rule("declared", ""),
		rule("console-made", `,"Description":"added by hand"`),
		rule("managed", `,"ManagedBy":"schemas.amazonaws.com"`),
	)
	other := rule("sibling", "")
	other.LogicalID = "SiblingRule"
	w.Accounts[0].Regions[0].Stacks = []*sandbox.Stack{{Name: "Consumers", TemplateBody: `{"Resources":{}}`, Resources: []*sandbox.Resource{other}}}
	return w
}

func TestEnumerateEventBus(t *testing.T) {
	srv, url := serve(t, eventsWorld())
	c := live.NewClients(config(url))
	parent := live.StackResource{LogicalID: "Bus", Type: "AWS::Events::EventBus", PhysicalID: busName}
	stack := []live.StackResource{parent, {LogicalID: "Rule", Type: "AWS::Events::Rule", PhysicalID: busName + "|declared"}}
	got, err := live.Enumerate(ctx(t), c, parent, stack)
	if err != nil {
		t.Fatal(err)
	}
	want := []live.Child{{Type: "AWS::Events::Rule", Identifier: ruleArn("console-made"), Model: map[string]any{
		"Name": "console-made", "Arn": ruleArn("console-made"), "EventBusName": busName, "State": "ENABLED",
		"EventPattern": map[string]any{"source": []any{"app"}}, "Description": "added by hand"}}}
	if diff := cmp.Diff(got, want); diff != "" {
		t.Errorf("children (-got +want):\n%s", diff)
	}
	gone, err := live.Enumerate(ctx(t), c, live.StackResource{LogicalID: "Bus", Type: "AWS::Events::EventBus", PhysicalID: "deleted-bus"}, nil)
	if err != nil || gone != nil {
		t.Errorf("deleted bus: %v, %v; want nothing (the bus itself is reported deleted)", gone, err)
	}
	if err := srv.SetFaults([]sandbox.FaultRule{{Service: "events", Action: "ListRules", Code: "AccessDeniedException", Status: 400}}); err != nil {
		t.Fatal(err)
	}
	var ee *live.EnumerateError
	if _, err := live.Enumerate(ctx(t), c, parent, stack); !asEnumerateError(err, &ee) {
		t.Errorf("denied ListRules: %v, want an EnumerateError", err)
	}
}
