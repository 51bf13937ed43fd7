package cli

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestManagedPolicyAttachedFromTheOtherSide shows the classifier's
// attachment sibling rule (internal/classify/doc.go, siblingEntries) end to
// end: Cloud Control reads a role's ManagedPolicyArns as every policy
// attached to it, whichever side declared the attachment, and a managed
// policy's Roles as every role it is attached to. In stack App, managed
// policy Mp attaches itself to Role (Roles), and Role2 attaches Mp2
// (ManagedPolicyArns); in stack Ops, Shared attaches itself to Role by
// name and OpsRole attaches Mp2 by ARN. A check of App reports neither
// sibling attachment (they are App's own, declared on the other side) and
// reports Shared on Role and OpsRole on Mp2 (declared in no resource of
// App, as on AWS); with reads that list only the resource's own model,
// neither would show at all.
func TestManagedPolicyAttachedFromTheOtherSide(t *testing.T) {
	const (
		basic   = "arn:aws:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole"
		mp      = "arn:aws:iam::" + testAccount + ":policy/App-Mp"
		mp2     = "arn:aws:iam::" + testAccount + ":policy/App-Second"
		shared  = "arn:aws:iam::" + testAccount + ":policy/Ops-Shared"
		trustJS = `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"Service":"lambda.amazonaws.com"},"Action":"sts:AssumeRole"}]}`
		docJS   = `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"s3:ListBucket","Resource":"arn:aws:s3:::bkt"}]}`
	)
	var trust, doc map[string]any
	if err := json.Unmarshal([]byte(trustJS), &trust); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(docJS), &doc); err != nil {
		t.Fatal(err)
	}
	role := func(logical, name string, declared map[string]any, arns []any) appResource {
		d := map[string]any{"RoleName": name, "AssumeRolePolicyDocument": trust}
		for k, v := range declared {
			d[k] = v
		}
		l := map[string]any{"RoleName": name, "AssumeRolePolicyDocument": trust, "Path": "/", "MaxSessionDuration": 3600,
			"Arn": "arn:aws:iam::" + testAccount + ":role/" + name, "RoleId": "AROA" + strings.ToUpper(name) + "0000000"}
		if arns != nil {
			l["ManagedPolicyArns"] = arns
		}
		return appResource{logicalID: logical, typ: "AWS::IAM::Role", physicalID: name, declared: d, live: l}
	}
	policy := func(logical, arn string, declared map[string]any, roles []any) appResource {
		d := map[string]any{"PolicyDocument": doc}
		for k, v := range declared {
			d[k] = v
		}
		l := map[string]any{"PolicyArn": arn, "PolicyDocument": doc, "Path": "/", "Description": ""}
		if roles != nil {
			l["Roles"] = roles
		}
		return appResource{logicalID: logical, typ: "AWS::IAM::ManagedPolicy", physicalID: arn, declared: d, live: l}
	}
	w := appWorld(t, map[string][]appResource{
		"App": {
			role("Role", "app-role", map[string]any{"ManagedPolicyArns": []any{basic}}, []any{basic}),
			policy("Mp", mp, map[string]any{"Roles": []any{map[string]any{"Ref": "Role"}}}, []any{"app-role"}),
			role("Role2", "app-role2", map[string]any{"ManagedPolicyArns": []any{map[string]any{"Ref": "Mp2"}}}, []any{mp2}),
			policy("Mp2", mp2, nil, nil),
		},
		"Ops": {
			policy("Shared", shared, map[string]any{"Roles": []any{"app-role"}}, []any{"app-role"}),
			role("OpsRole", "ops-role", map[string]any{"ManagedPolicyArns": []any{mp2}}, []any{mp2}),
		},
	})
	env := startSandbox(t, w, testKey, testRegion)
	rep, errs, code := env.checkJSON("App")
	if code != ExitOK {
		t.Fatalf("check App: exit %d\n%s", code, errs)
	}
	mentions := func(logical, what string) []string {
		var out []string
		for _, s := range rep.Stacks {
			for _, f := range s.Findings {
				if f.LogicalID != logical || !f.Tier.IsDrift() {
					continue
				}
				actual, _ := json.Marshal(f.Actual)
				if s := fmt.Sprintf("%s %s %s", f.Tier, f.KeyedPath(), actual); strings.Contains(s, what) {
					out = append(out, s)
				}
			}
		}
		return out
	}
	if got := mentions("Role", shared); len(got) != 1 || !strings.HasPrefix(got[0], "undeclared ManagedPolicyArns") {
		t.Errorf("Role's findings naming %s: %q, want one undeclared ManagedPolicyArns finding (attached from another stack)", shared, got)
	}
	if got := mentions("Mp2", "ops-role"); len(got) != 1 || !strings.HasPrefix(got[0], "undeclared Roles") {
		t.Errorf("Mp2's findings naming ops-role: %q, want one undeclared Roles finding (attached from another stack)", got)
	}
	for _, c := range []struct{ logical, what string }{{"Role", mp}, {"Mp", "app-role"}, {"Role2", mp2}, {"Mp2", "app-role2"}} {
		if got := mentions(c.logical, c.what); len(got) != 0 {
			t.Errorf("%s: findings naming %s, an attachment its sibling declares: %q", c.logical, c.what, got)
		}
	}
}
