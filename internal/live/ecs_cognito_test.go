package live_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/sandbox"
)

const (
	clusterArn = "arn:aws:ecs:us-east-1:111111111111:cluster/web"
	svcPrefix  = "arn:aws:ecs:us-east-1:111111111111:service/web/"
	poolID     = "us-east-1_AbCdEf123"
)

// childWorld has, per parent, a declared child, an out-of-band one and one
// another stack owns (its Cloud Control identifier compound).
func childWorld() *sandbox.World {
	compound := func(typ, pid, id, props string) *sandbox.Resource {
		return &sandbox.Resource{Type: typ, PhysicalID: pid, Identifier: id, Properties: json.RawMessage(props)}
	}
	svc := func(name string) *sandbox.Resource {
		arn := svcPrefix + name
		return compound("AWS::ECS::Service", arn, arn+"|web", `{"ServiceArn":"`+arn+`","ServiceName":"`+name+`","Cluster":"web"}`)
	}
	client := func(id string) *sandbox.Resource {
		return compound("AWS::Cognito::UserPoolClient", id, poolID+"|"+id, `{"UserPoolId":"`+poolID+`","ClientId":"`+id+`","ClientName":"`+id+`"}`)
	}
	group := func(name string) *sandbox.Resource {
		return compound("AWS::Cognito::UserPoolGroup", name, poolID+"|"+name, `{"UserPoolId":"`+poolID+`","GroupName":"`+name+`"}`)
	}
	w := worldOf(
		liveOnly("AWS::ECS::Cluster", "web", `{"ClusterName":"web","Arn":"`+clusterArn+`"}`),
		svc("api"), svc("console-made"),
		liveOnly("AWS::Cognito::UserPool", poolID, `{"UserPoolId":"`+poolID+`"}`),
		client("declaredclient"), client("consoleclient"), group("admins"), group("console-group"),
	)
	sib := []*sandbox.Resource{svc("sibling"), client("siblingclient"), group("sibling-group")}
	for i, r := range sib {
		r.LogicalID = []string{"SibSvc", "SibClient", "SibGroup"}[i]
	}
	w.Accounts[0].Regions[0].Stacks = []*sandbox.Stack{{Name: "Sibling", TemplateBody: `{"Resources":{}}`, Resources: sib}}
	return w
}

func TestEnumerateClusterAndPool(t *testing.T) {
	_, url := serve(t, childWorld())
	c := live.NewClients(config(url))
	cluster := live.StackResource{LogicalID: "Cluster", Type: "AWS::ECS::Cluster", PhysicalID: "web"}
	pool := live.StackResource{LogicalID: "Pool", Type: "AWS::Cognito::UserPool", PhysicalID: poolID}
	stack := []live.StackResource{cluster, pool,
		{LogicalID: "Api", Type: "AWS::ECS::Service", PhysicalID: svcPrefix + "api"},
		{LogicalID: "Client", Type: "AWS::Cognito::UserPoolClient", PhysicalID: "declaredclient"},
		{LogicalID: "Admins", Type: "AWS::Cognito::UserPoolGroup", PhysicalID: "admins"},
	}
	tests := []struct {
		parent live.StackResource
		want   []live.Child
	}{
		{cluster, []live.Child{{Type: "AWS::ECS::Service", Identifier: svcPrefix + "console-made|web",
			Model: map[string]any{"ServiceArn": svcPrefix + "console-made", "ServiceName": "console-made", "Cluster": "web"}}}},
		{pool, []live.Child{
			{Type: "AWS::Cognito::UserPoolClient", Identifier: poolID + "|consoleclient", Model: map[string]any{"UserPoolId": poolID, "ClientId": "consoleclient", "ClientName": "consoleclient"}},
			{Type: "AWS::Cognito::UserPoolGroup", Identifier: poolID + "|console-group", Model: map[string]any{"UserPoolId": poolID, "GroupName": "console-group"}},
		}},
		{live.StackResource{LogicalID: "Gone", Type: "AWS::ECS::Cluster", PhysicalID: "deleted"}, nil},
		{live.StackResource{LogicalID: "Gone", Type: "AWS::Cognito::UserPool", PhysicalID: "us-east-1_Gone"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.parent.Type+" "+tt.parent.PhysicalID, func(t *testing.T) {
			got, err := live.Enumerate(ctx(t), c, tt.parent, stack)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(got, tt.want); diff != "" {
				t.Errorf("children (-got +want):\n%s", diff)
			}
		})
	}
}
