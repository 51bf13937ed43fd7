package scan

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/schema"
)

// TestClassifyStackShowsUnreadSupplement: each property a failed SDK
// supplement left unread is one readGap with the reason, unless the
// classifier already shows it as a readGap (a declared write-only one).
func TestClassifyStackShowsUnreadSupplement(t *testing.T) {
	d := &Desired{
		Stack: drift.StackRef{Account: "111111111111", Region: "us-east-1", Name: "App"},
		Resources: []Resource{
			{LogicalID: "Job", Type: "AWS::Glue::Job", PhysicalID: "etl"},
			{LogicalID: "Wg", Type: "AWS::RedshiftServerless::Workgroup", PhysicalID: "wg"},
		},
	}
	lives := map[string]live.Result{
		"Job": {Status: live.Found, Model: map[string]any{"Name": "etl"}, Unread: map[string]string{"ScriptSha256": "read the script s3://b/k: AccessDenied"}},
		"Wg": {Status: live.Found, Model: map[string]any{}, Unread: map[string]string{
			"ConfigParameters": "GetWorkgroup: AccessDeniedException", "SubnetIds": "GetWorkgroup: AccessDeniedException"}},
	}
	classify := func(s Subject, _ map[string]any, _ *schema.Facts, _ StackFacts) []drift.Finding {
		if s.Ref.LogicalID == "Wg" {
			return []drift.Finding{{Tier: drift.ReadGap, LogicalID: "Wg", ResourceType: s.Ref.Type, PhysicalID: "wg", Path: "SubnetIds", Note: "write-only — cannot be read back", WriteOnly: true}}
		}
		return nil
	}
	got := ClassifyStack(d, lives, nil, nil, classify)
	want := []drift.Finding{
		{Tier: drift.ReadGap, LogicalID: "Job", ResourceType: "AWS::Glue::Job", PhysicalID: "etl", Path: "ScriptSha256", Note: "not read: read the script s3://b/k: AccessDenied"},
		{Tier: drift.ReadGap, LogicalID: "Wg", ResourceType: "AWS::RedshiftServerless::Workgroup", PhysicalID: "wg", Path: "ConfigParameters", Note: "not read: GetWorkgroup: AccessDeniedException"},
		{Tier: drift.ReadGap, LogicalID: "Wg", ResourceType: "AWS::RedshiftServerless::Workgroup", PhysicalID: "wg", Path: "SubnetIds", Note: "write-only — cannot be read back", WriteOnly: true},
	}
	if diff := cmp.Diff(got, want); diff != "" {
		t.Errorf("findings (-got +want):\n%s", diff)
	}
}
