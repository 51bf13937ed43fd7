package scan

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/schema"
)

func TestClassifyStackTiersReadOutcomes(t *testing.T) {
	d := &Desired{
		Stack: drift.StackRef{Account: "111111111111", Region: "us-east-1", Name: "App"},
		Resources: []Resource{
			{LogicalID: "Bucket", Type: "AWS::S3::Bucket", PhysicalID: "b1"},
			{LogicalID: "Gone", Type: "AWS::SQS::Queue", PhysicalID: "https://q"},
			{LogicalID: "Hook", Type: "Custom::Thing", PhysicalID: "h1"},
			{LogicalID: "Pol", Type: "AWS::IAM::Policy", PhysicalID: "p1", Declared: map[string]any{"PolicyName": "Inline", "Roles": []any{"role-1"}}},
			{LogicalID: "Role", Type: "AWS::IAM::Role", PhysicalID: "role-1"},
			{LogicalID: "Topic", Type: "AWS::SNS::Topic", PhysicalID: "arn:aws:sns:us-east-1:111111111111:t"},
		},
	}
	lives := map[string]live.Result{
		"Bucket": {Status: live.Found, Model: map[string]any{"BucketName": "b1"}},
		"Gone":   {Status: live.NotFound, Reason: "CloudControl GetResource: ResourceNotFoundException"},
		"Hook":   {Status: live.NothingToRead, Reason: "custom resource: no live resource to read"},
		"Pol":    {Status: live.Found, Model: map[string]any{}},
		"Role":   {Status: live.Found, Model: map[string]any{}},
		"Topic":  {Status: live.Found, Model: map[string]any{}},
	}
	children := []Children{
		{Parent: "Topic", Added: []live.Child{{Type: "AWS::SNS::Subscription", Identifier: "arn:sub", Model: map[string]any{"Protocol": "email"}}}},
		{Parent: "Bucket", Reason: "enumerate children: S3 GetBucketPolicy: AccessDenied"},
	}
	var gotSubjects []Subject
	classify := func(s Subject, model map[string]any, _ *schema.Facts, sf StackFacts) []drift.Finding {
		gotSubjects = append(gotSubjects, s)
		if s.Ref.LogicalID == "Bucket" {
			return []drift.Finding{{Tier: drift.Undeclared, LogicalID: "Bucket", ResourceType: s.Ref.Type, PhysicalID: s.Ref.PhysicalID, Path: "BucketName", Actual: model["BucketName"]}}
		}
		return nil
	}
	got := ClassifyStack(d, lives, children, nil, classify)
	want := []drift.Finding{
		{Tier: drift.Undeclared, LogicalID: "Bucket", ResourceType: "AWS::S3::Bucket", PhysicalID: "b1", Path: "BucketName", Actual: "b1"},
		{Tier: drift.Skipped, LogicalID: "Bucket", ResourceType: "AWS::S3::Bucket", PhysicalID: "b1", Reason: "enumerate children: S3 GetBucketPolicy: AccessDenied"},
		{Tier: drift.Deleted, LogicalID: "Gone", ResourceType: "AWS::SQS::Queue", PhysicalID: "https://q", Reason: "CloudControl GetResource: ResourceNotFoundException"},
		{Tier: drift.NothingToRead, LogicalID: "Hook", ResourceType: "Custom::Thing", PhysicalID: "h1", Reason: "custom resource: no live resource to read"},
		{Tier: drift.Added, LogicalID: "Topic/Subscription", ResourceType: "AWS::SNS::Subscription", PhysicalID: "arn:sub",
			Actual: map[string]any{"Protocol": "email"}, Note: "not in the template: a live child of Topic (AWS::SNS::Topic)"},
	}
	if diff := cmp.Diff(got, want); diff != "" {
		t.Errorf("findings (-got +want):\n%s", diff)
	}
	for _, s := range gotSubjects {
		if s.Ref.LogicalID == "Role" {
			if diff := cmp.Diff(s.SiblingPolicyNames, []string{"Inline"}); diff != "" {
				t.Errorf("sibling policy names (-got +want):\n%s", diff)
			}
		}
	}
}

// A secret's plaintext read at its declared place on one resource is
// scrubbed from every other resource's findings and from added children.
func TestClassifyStackScrubsSecretsAcrossResources(t *testing.T) {
	const plain = "s3cr3t-Pa55word-value"
	d := &Desired{
		Stack: drift.StackRef{Account: "111111111111", Region: "us-east-1", Name: "App"},
		Resources: []Resource{
			{LogicalID: "Fn", Type: "AWS::Lambda::Function", PhysicalID: "fn-1", Declared: map[string]any{
				"Environment": map[string]any{"Variables": map[string]any{"TOKEN": drift.Unknown{Secret: true, Reason: "dynamic reference {{resolve:secretsmanager:…}}"}}},
			}},
			{LogicalID: "Queue", Type: "AWS::SQS::Queue", PhysicalID: "https://q"},
			{LogicalID: "Topic", Type: "AWS::SNS::Topic", PhysicalID: "arn:aws:sns:us-east-1:111111111111:t"},
		},
	}
	lives := map[string]live.Result{
		"Fn":    {Status: live.Found, Model: map[string]any{"Environment": map[string]any{"Variables": map[string]any{"TOKEN": plain}}}},
		"Queue": {Status: live.Found, Model: map[string]any{"Tags": []any{map[string]any{"Key": "copied", "Value": "token=" + plain}}}},
		"Topic": {Status: live.Found, Model: map[string]any{}},
	}
	children := []Children{{Parent: "Topic", Added: []live.Child{{Type: "AWS::SNS::Subscription", Identifier: "arn:sub", Model: map[string]any{"Endpoint": plain}}}}}
	got := ClassifyStack(d, lives, children, nil, Classifier())
	if len(got) == 0 {
		t.Fatal("no findings: the test would prove nothing")
	}
	for _, f := range got {
		b, err := json.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), plain) {
			t.Errorf("finding holds the secret: %s", b)
		}
	}
}
