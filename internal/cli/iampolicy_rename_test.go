package cli

import (
	"encoding/json"
	"testing"

	"github.com/realdrift/realdrift/internal/sandbox"
)

// TestRenamedInlinePolicy: an AWS::IAM::Policy renamed out of band (IAM
// has no rename: the role now holds an inline policy of a new name, the
// declared one is gone) surfaces after record as confirmed drift on both
// sides — the stack's policy deleted, and the new inline policy an
// undeclared value of the role that appeared since record.
func TestRenamedInlinePolicy(t *testing.T) {
	doc := map[string]any{"Version": "2012-10-17", "Statement": []any{map[string]any{"Effect": "Allow", "Action": "sqs:SendMessage", "Resource": "*"}}}
	trust := map[string]any{"Version": "2012-10-17", "Statement": []any{map[string]any{"Effect": "Allow", "Principal": map[string]any{"Service": "lambda.amazonaws.com"}, "Action": "sts:AssumeRole"}}}
	const role, pol = "app-role", "App-PolicyA1B2-C3D4E5F6G7H8"
	w := appWorld(t, map[string][]appResource{"App": {
		{logicalID: "Role", typ: "AWS::IAM::Role", physicalID: role,
			declared: map[string]any{"AssumeRolePolicyDocument": trust},
			live: map[string]any{"RoleName": role, "AssumeRolePolicyDocument": trust, "Path": "/", "MaxSessionDuration": 3600,
				"Arn": "arn:aws:iam::" + testAccount + ":role/" + role, "RoleId": "AROAEXAMPLE000000001",
				// IAM holds the stack's inline policy on the role: the
				// role's read shows it (classify leaves it to the policy).
				"Policies": []any{map[string]any{"PolicyName": "app-pol", "PolicyDocument": doc}}}},
		{logicalID: "Policy", typ: "AWS::IAM::Policy", physicalID: pol,
			declared: map[string]any{"PolicyName": "app-pol", "PolicyDocument": doc, "Roles": []any{role}},
			live:     map[string]any{"PolicyName": "app-pol", "PolicyDocument": doc, "Roles": []any{role}, "Id": pol}},
	}})
	env := startSandbox(t, w, testKey, testRegion)
	if _, errs, code := env.run("record", "--all", "--yes"); code != ExitOK {
		t.Fatalf("record: exit %d\n%s", code, errs)
	}
	if c, _, code := env.checkJSON("--all", "--fail"); code != ExitOK {
		t.Fatalf("check after record: exit %d %v", code, c.briefs())
	}
	// The rename as IAM makes it: the role's copy under the new name (the
	// sandbox's policy resource follows).
	renamed := json.RawMessage(`"app-pol-renamed"`)
	env.change(sandbox.Change{Op: sandbox.OpSet, Type: "AWS::IAM::Role", Identifier: role, Path: "Policies.0.PolicyName", Value: renamed})
	env.change(sandbox.Change{Op: sandbox.OpSet, Type: "AWS::IAM::Policy", Identifier: pol, Path: "PolicyName", Value: renamed})
	c, _, code := env.checkJSON("--all", "--fail")
	got := c.briefs()
	t.Logf("after the rename: exit %d %v", code, got)
	if code != ExitDrift {
		t.Fatalf("check after the rename: exit %d, want 1", code)
	}
	confirmed := func(lid, tier, path string) bool {
		for _, b := range got[lid] {
			if b.Tier == tier && b.Path == path && !b.Unrecorded {
				return true
			}
		}
		return false
	}
	if !confirmed("Policy", "deleted", "") {
		t.Errorf("the renamed policy is not reported deleted: %v", got["Policy"])
	}
	if !confirmed("Role", "undeclared", "Policies") {
		t.Errorf("the role's new inline policy is not reported: %v", got["Role"])
	}
}
