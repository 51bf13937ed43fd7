package sandbox_test

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudcontrol"
	"github.com/aws/aws-sdk-go-v2/service/cloudformation"
	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/sandbox"
)

// nestedTree is a parent, its nested child and the child's own nested
// grandchild, each linked only by the AWS::CloudFormation::Stack resource
// whose physical id is the nested stack's ARN.
func nestedTree() *sandbox.World {
	id := func(name string) string { return sandbox.StackID("us-east-1", mgmt, name) }
	nest := func(logical, child string) *sandbox.Resource {
		return &sandbox.Resource{LogicalID: logical, Type: sandbox.NestedStackType, PhysicalID: id(child)}
	}
	tpl := `{"Resources":{}}`
	return &sandbox.World{Accounts: []*sandbox.Account{{ID: mgmt, AccessKeys: []sandbox.AccessKey{{ID: mgmtKey}}, Regions: []*sandbox.Region{{Name: "us-east-1", Stacks: []*sandbox.Stack{
		{Name: "Root", TemplateBody: tpl, Resources: []*sandbox.Resource{nest("ChildStack", "Root-ChildStack-1")}},
		{Name: "Root-ChildStack-1", TemplateBody: tpl, Resources: []*sandbox.Resource{nest("GrandStack", "Root-ChildStack-1-GrandStack-2")},
			Outputs: []sandbox.Output{{Key: "Url", Value: "https://x"}}, Parameters: []sandbox.Parameter{{Key: "Stage", Value: "prod"}}},
		{Name: "Root-ChildStack-1-GrandStack-2", TemplateBody: `{"Resources":{"T":{"Type":"AWS::SNS::Topic"}}}`},
	}}}}}}
}

// TestNestedStacks: DescribeStacks and ListStacks carry ParentId and
// RootId; the parent lists the child's ARN as its stack resource's physical
// id, which GetTemplate and Cloud Control accept.
func TestNestedStacks(t *testing.T) {
	_, url := startWorld(t, nestedTree(), sandbox.Options{})
	conf := cfg(url, mgmtKey, "us-east-1")
	cfn := cloudformation.NewFromConfig(conf)
	c := ctx(t)
	id := func(name string) string { return sandbox.StackID("us-east-1", mgmt, name) }
	root, child, grand := id("Root"), id("Root-ChildStack-1"), id("Root-ChildStack-1-GrandStack-2")

	type tree struct{ Name, Parent, Root string }
	want := []tree{{"Root", "", ""}, {"Root-ChildStack-1", root, root}, {"Root-ChildStack-1-GrandStack-2", child, root}}
	all, err := cfn.DescribeStacks(c, &cloudformation.DescribeStacksInput{})
	if err != nil {
		t.Fatal(err)
	}
	var got []tree
	for _, s := range all.Stacks {
		got = append(got, tree{aws.ToString(s.StackName), aws.ToString(s.ParentId), aws.ToString(s.RootId)})
	}
	if d := cmp.Diff(got, want); d != "" {
		t.Errorf("DescribeStacks (-got +want):\n%s", d)
	}
	listed, err := cfn.ListStacks(c, &cloudformation.ListStacksInput{})
	if err != nil {
		t.Fatal(err)
	}
	got = nil
	for _, s := range listed.StackSummaries {
		got = append(got, tree{aws.ToString(s.StackName), aws.ToString(s.ParentId), aws.ToString(s.RootId)})
	}
	if d := cmp.Diff(got, want); d != "" {
		t.Errorf("ListStacks (-got +want):\n%s", d)
	}

	res, err := cfn.ListStackResources(c, &cloudformation.ListStackResourcesInput{StackName: aws.String("Root")})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.StackResourceSummaries) != 1 || aws.ToString(res.StackResourceSummaries[0].PhysicalResourceId) != child {
		t.Fatalf("parent's resources: %+v", res.StackResourceSummaries)
	}
	byARN, err := cfn.DescribeStacks(c, &cloudformation.DescribeStacksInput{StackName: aws.String(child)})
	if err != nil || aws.ToString(byARN.Stacks[0].StackName) != "Root-ChildStack-1" {
		t.Fatalf("DescribeStacks by the child's ARN: %v %v", byARN, err)
	}
	tmpl, err := cfn.GetTemplate(c, &cloudformation.GetTemplateInput{StackName: aws.String(grand)})
	if err != nil || !strings.Contains(aws.ToString(tmpl.TemplateBody), "AWS::SNS::Topic") {
		t.Fatalf("GetTemplate by the grandchild's ARN: %v %v", tmpl, err)
	}

	cc := cloudcontrol.NewFromConfig(conf)
	m := getProps(t, cc, sandbox.NestedStackType, child)
	if m["StackId"] != child || m["StackName"] != "Root-ChildStack-1" {
		t.Errorf("nested stack model: %v", m)
	}
	if d := cmp.Diff(m["Outputs"], []any{map[string]any{"OutputKey": "Url", "OutputValue": "https://x"}}); d != "" {
		t.Errorf("nested stack outputs (-got +want):\n%s", d)
	}
	if d := cmp.Diff(m["Parameters"], map[string]any{"Stage": "prod"}); d != "" {
		t.Errorf("nested stack parameters (-got +want):\n%s", d)
	}
}

// TestNestedStacksInvalid: a world's own parentId must agree with the
// nesting resources, name a live stack and form no cycle.
func TestNestedStacksInvalid(t *testing.T) {
	tests := []struct {
		name string
		edit func(w *sandbox.World)
		want string
	}{
		{"a parentId the resources contradict", func(w *sandbox.World) {
			w.Accounts[0].Regions[0].Stacks[2].ParentID = sandbox.StackID("us-east-1", mgmt, "Root")
		}, "whose parentId is"},
		{"a parentId naming no stack", func(w *sandbox.World) {
			w.Accounts[0].Regions[0].Stacks[0].ParentID = sandbox.StackID("us-east-1", mgmt, "Gone")
		}, "is not a live stack of the region"},
		{"a cycle", func(w *sandbox.World) {
			st := w.Accounts[0].Regions[0].Stacks
			st[2].Resources = append(st[2].Resources, &sandbox.Resource{LogicalID: "Back", Type: sandbox.NestedStackType, PhysicalID: sandbox.StackID("us-east-1", mgmt, "Root")})
		}, "cycle"},
		{"a wrong rootId", func(w *sandbox.World) {
			w.Accounts[0].Regions[0].Stacks[2].RootID = sandbox.StackID("us-east-1", mgmt, "Root-ChildStack-1")
		}, "is not the top of its tree"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := nestedTree()
			tt.edit(w)
			_, err := sandbox.New(w, sandbox.Options{})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want one saying %q", err, tt.want)
			}
		})
	}
}
