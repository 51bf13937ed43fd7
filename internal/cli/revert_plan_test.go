package cli

import (
	"strings"
	"testing"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/revert"
)

// A long value in the revert plan is shown as the lines that differ — the
// statement that changes in a policy — never as two copies cut to the
// same prefix; a short change stays on one line.
func TestRevertPlanShowsWhatDiffers(t *testing.T) {
	stmt := func(effect, action string) map[string]any {
		return map[string]any{"Effect": effect, "Action": []any{action}, "Resource": "arn:aws:s3:::orders-assets-200000000002/*",
			"Principal": map[string]any{"AWS": "arn:aws:iam::200000000002:role/OrdersService-HandlerServiceRole"}}
	}
	declared := map[string]any{"Version": "2012-10-17", "Statement": []any{stmt("Allow", "s3:GetObject"), stmt("Deny", "s3:DeleteObject")}}
	live := map[string]any{"Version": "2012-10-17", "Statement": []any{stmt("Allow", "s3:GetObject"), stmt("Allow", "s3:*")}}
	p := &revert.Plan{
		Stack: drift.StackRef{Account: "200000000002", Region: "us-east-1", Name: "OrdersData"},
		Items: []revert.Item{
			{ID: "a", Kind: revert.Writer, Tier: drift.Declared, LogicalID: "AssetsPolicy1A2B", ConstructPath: "OrdersData/Assets/Policy/Resource",
				ResourceType: "AWS::S3::BucketPolicy", Path: "PolicyDocument", Current: live, Target: declared, Call: "s3:PutBucketPolicy"},
			{ID: "b", Kind: revert.CloudControl, Tier: drift.Declared, LogicalID: "Handler779B3DB6", ConstructPath: "OrdersData/Handler/Resource",
				ResourceType: "AWS::Lambda::Function", Path: "MemorySize", Current: 1024.0, Target: 256.0, Call: "cloudcontrol:UpdateResource"},
		},
	}
	var b strings.Builder
	printPlan(&b, p)
	got := b.String()
	for _, want := range []string{
		"Assets/Policy.PolicyDocument: live → after revert, the lines that differ ([-] live, [+] written) via s3:PutBucketPolicy",
		`[-]         "s3:*"`,
		`[+]         "s3:DeleteObject"`,
		`[-]       "Effect": "Allow",`,
		`[+]       "Effect": "Deny",`,
		"Handler.MemorySize: 1024 → 256 via cloudcontrol:UpdateResource",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("plan lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "…") {
		t.Errorf("plan cuts a value short:\n%s", got)
	}
}
