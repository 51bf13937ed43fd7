package live_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/sandbox"
)

func TestEnumerateGroupAndApplication(t *testing.T) {
	res := func(typ, pid, id, props string) *sandbox.Resource {
		return &sandbox.Resource{Type: typ, PhysicalID: pid, Identifier: id, Properties: json.RawMessage(props)}
	}
	hook := func(n string) *sandbox.Resource {
		return res("AWS::AutoScaling::LifecycleHook", n, "web-asg|"+n, `{"AutoScalingGroupName":"web-asg","LifecycleHookName":"`+n+`","LifecycleTransition":"autoscaling:EC2_INSTANCE_LAUNCHING"}`)
	}
	action := func(n string) *sandbox.Resource {
		return res("AWS::AutoScaling::ScheduledAction", n, n+"|web-asg", `{"AutoScalingGroupName":"web-asg","ScheduledActionName":"`+n+`","Recurrence":"0 8 * * *"}`)
	}
	dg := func(n string) *sandbox.Resource {
		return res("AWS::CodeDeploy::DeploymentGroup", n, "web-app|"+n, `{"ApplicationName":"web-app","DeploymentGroupName":"`+n+`"}`)
	}
	w := worldOf(
		liveOnly("AWS::AutoScaling::AutoScalingGroup", "web-asg", `{"AutoScalingGroupName":"web-asg","MinSize":"1","MaxSize":"2"}`),
		hook("declared-hook"), hook("console-hook"), action("declared-action"), action("console-action"),
		liveOnly("AWS::CodeDeploy::Application", "web-app", `{"ApplicationName":"web-app"}`),
		dg("declared-dg"), dg("console-dg"),
	)
	sib := []*sandbox.Resource{hook("sibling-hook"), dg("sibling-dg")}
	sib[0].LogicalID, sib[1].LogicalID = "SibHook", "SibDg"
	w.Accounts[0].Regions[0].Stacks = []*sandbox.Stack{{Name: "Sibling", TemplateBody: `{"Resources":{}}`, Resources: sib}}
	_, url := serve(t, w)
	c := live.NewClients(config(url))
	asg := live.StackResource{LogicalID: "Asg", Type: "AWS::AutoScaling::AutoScalingGroup", PhysicalID: "web-asg"}
	app := live.StackResource{LogicalID: "App", Type: "AWS::CodeDeploy::Application", PhysicalID: "web-app"}
	stack := []live.StackResource{asg, app,
		{LogicalID: "Hook", Type: "AWS::AutoScaling::LifecycleHook", PhysicalID: "declared-hook"},
		{LogicalID: "Action", Type: "AWS::AutoScaling::ScheduledAction", PhysicalID: "declared-action"},
		{LogicalID: "Dg", Type: "AWS::CodeDeploy::DeploymentGroup", PhysicalID: "declared-dg"},
	}
	tests := []struct {
		parent live.StackResource
		want   []string
	}{
		{asg, []string{"AWS::AutoScaling::LifecycleHook web-asg|console-hook", "AWS::AutoScaling::ScheduledAction console-action|web-asg"}},
		{app, []string{"AWS::CodeDeploy::DeploymentGroup web-app|console-dg"}},
		{live.StackResource{LogicalID: "Gone", Type: "AWS::AutoScaling::AutoScalingGroup", PhysicalID: "deleted-asg"}, nil},
		{live.StackResource{LogicalID: "Gone", Type: "AWS::CodeDeploy::Application", PhysicalID: "deleted-app"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.parent.Type+" "+tt.parent.PhysicalID, func(t *testing.T) {
			got, err := live.Enumerate(ctx(t), c, tt.parent, stack)
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, ch := range got {
				if ch.Model == nil {
					t.Errorf("%s %s: no model (%s)", ch.Type, ch.Identifier, ch.Reason)
				}
				ids = append(ids, ch.Type+" "+ch.Identifier)
			}
			if diff := cmp.Diff(ids, tt.want); diff != "" {
				t.Errorf("children (-got +want):\n%s", diff)
			}
		})
	}
}
