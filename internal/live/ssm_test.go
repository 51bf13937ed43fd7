package live_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/sandbox"
)

const windowID = "mw-02f08595f3853346e"

func TestEnumerateMaintenanceWindow(t *testing.T) {
	child := func(typ, key, id string) *sandbox.Resource {
		return &sandbox.Resource{Type: typ, PhysicalID: id, Identifier: windowID + "|" + id,
			Properties: json.RawMessage(`{"WindowId":"` + windowID + `","` + key + `":"` + id + `"}`)}
	}
	tgt := func(id string) *sandbox.Resource {
		return child("AWS::SSM::MaintenanceWindowTarget", "WindowTargetId", id)
	}
	task := func(id string) *sandbox.Resource { return child("AWS::SSM::MaintenanceWindowTask", "WindowTaskId", id) }
	w := worldOf(
		liveOnly("AWS::SSM::MaintenanceWindow", windowID, `{"WindowId":"`+windowID+`","Name":"patch"}`),
		tgt("11111111-0000-0000-0000-000000000001"), tgt("11111111-0000-0000-0000-000000000002"),
		task("22222222-0000-0000-0000-000000000001"), task("22222222-0000-0000-0000-000000000002"),
	)
	sib := task("22222222-0000-0000-0000-000000000003")
	sib.LogicalID = "SibTask"
	w.Accounts[0].Regions[0].Stacks = []*sandbox.Stack{{Name: "Sibling", TemplateBody: `{"Resources":{}}`, Resources: []*sandbox.Resource{sib}}}
	_, url := serve(t, w)
	c := live.NewClients(config(url))
	parent := live.StackResource{LogicalID: "Window", Type: "AWS::SSM::MaintenanceWindow", PhysicalID: windowID}
	stack := []live.StackResource{parent,
		{LogicalID: "Target", Type: "AWS::SSM::MaintenanceWindowTarget", PhysicalID: "11111111-0000-0000-0000-000000000001"},
		{LogicalID: "Task", Type: "AWS::SSM::MaintenanceWindowTask", PhysicalID: "22222222-0000-0000-0000-000000000001"},
	}
	got, err := live.Enumerate(ctx(t), c, parent, stack)
	if err != nil {
		t.Fatal(err)
	}
	want := []live.Child{
		{Type: "AWS::SSM::MaintenanceWindowTarget", Identifier: windowID + "|11111111-0000-0000-0000-000000000002", Model: map[string]any{"WindowId": windowID, "WindowTargetId": "11111111-0000-0000-0000-000000000002"}},
		{Type: "AWS::SSM::MaintenanceWindowTask", Identifier: windowID + "|22222222-0000-0000-0000-000000000002", Model: map[string]any{"WindowId": windowID, "WindowTaskId": "22222222-0000-0000-0000-000000000002"}},
	}
	if diff := cmp.Diff(got, want); diff != "" {
		t.Errorf("children (-got +want):\n%s", diff)
	}
	if gone, err := live.Enumerate(ctx(t), c, live.StackResource{LogicalID: "W", Type: "AWS::SSM::MaintenanceWindow", PhysicalID: "mw-00000000000000000"}, nil); err != nil || gone != nil {
		t.Errorf("deleted window: %v, %v; want nothing", gone, err)
	}
}
