package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSecurityHubOptIn: the member findings role (the read role stays
// read-only) exists only when the StackSet's EnableSecurityHub is "true"
// (default "false"), in the role region, trusted by the central notify
// role alone, with exactly the sender's two calls
// (testdata/iam/member-securityhub-actions.json, held equal to
// notify.SecurityHubActions in the root module), the import scoped to the
// account's default product and the query to its hub; the central stack
// passes its switch to the StackSet and tells the notify function.
func TestSecurityHubOptIn(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "testdata", "iam", "member-securityhub-actions.json"))
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(securityHubActions(), want); diff != "" {
		t.Errorf("securityHubActions differ from the committed list (-infra +file):\n%s", diff)
	}
	role := findingsRole(t)
	cond, _ := role.body["Condition"].(string)
	if cond == "" {
		t.Fatal("the findings role has no Condition: it would exist in every member account")
	}
	for _, tt := range []struct {
		params map[string]string
		want   bool
	}{
		{map[string]string{"AWS::Region": "eu-west-1", "RoleRegion": "eu-west-1"}, false},
		{map[string]string{"AWS::Region": "eu-west-1", "RoleRegion": "eu-west-1", EnableSecurityHubParameter: "true"}, true},
		{map[string]string{"AWS::Region": "us-east-1", "RoleRegion": "eu-west-1", EnableSecurityHubParameter: "true"}, false},
	} {
		if got := evalCondition(t, member, cond, tt.params); got != tt.want {
			t.Errorf("findings role with %v: exists %v, want %v", tt.params, got, tt.want)
		}
	}
	trust, _ := json.Marshal(role.props["AssumeRolePolicyDocument"])
	if !strings.Contains(string(trust), ":role/realdrift-notify") || strings.Count(string(trust), ":role/") != 1 {
		t.Errorf("findings role trust %s, want the central notify role only", trust)
	}
	var acts []string
	resources := map[string]string{}
	policies, _ := role.props["Policies"].([]any)
	for _, p := range policies {
		for _, st := range statementsOf(p.(map[string]any)["PolicyDocument"]) {
			a, _ := st["Action"].(string)
			acts = append(acts, a)
			rb, _ := json.Marshal(st["Resource"])
			resources[a] = string(rb)
			if st["Effect"] != "Allow" {
				t.Errorf("statement %v is not an Allow", st)
			}
		}
	}
	sort.Strings(acts)
	if diff := cmp.Diff(acts, want); diff != "" {
		t.Errorf("the findings role's actions (-role +sender):\n%s", diff)
	}
	for a, r := range resources {
		if r == `"*"` {
			t.Errorf("%s is granted on every resource", a)
		}
	}
	if managed := role.props["ManagedPolicyArns"]; managed != nil {
		t.Errorf("the findings role has managed policies %v", managed)
	}
	for name, tpl := range map[string]map[string]any{"member": member, "central": central} {
		p, _ := tpl["Parameters"].(map[string]any)[EnableSecurityHubParameter].(map[string]any)
		if p["Default"] != "false" || !cmp.Equal(p["AllowedValues"], []any{"true", "false"}) {
			t.Errorf("%s parameter %s = %v, want AllowedValues true|false, Default false", name, EnableSecurityHubParameter, p)
		}
	}
	passed := false
	for _, r := range resourcesOf(central, "AWS::CloudFormation::StackSet") {
		ps, _ := r.props["Parameters"].([]any)
		for _, p := range ps {
			if p := p.(map[string]any); p["ParameterKey"] == EnableSecurityHubParameter && cmp.Equal(p["ParameterValue"], map[string]any{"Ref": EnableSecurityHubParameter}) {
				passed = true
			}
		}
	}
	if !passed {
		t.Errorf("no StackSet passes %s", EnableSecurityHubParameter)
	}
	told := 0
	for _, r := range resourcesOf(central, "AWS::Lambda::Function") {
		env, _ := r.props["Environment"].(map[string]any)["Variables"].(map[string]any)
		if v, ok := env["REALDRIFT_SECURITY_HUB"]; ok {
			told++
			if !cmp.Equal(v, map[string]any{"Ref": EnableSecurityHubParameter}) {
				t.Errorf("%s: REALDRIFT_SECURITY_HUB = %v", r.id, v)
			}
		}
	}
	if told != 1 {
		t.Errorf("%d functions get REALDRIFT_SECURITY_HUB, want 1 (notify)", told)
	}
}

// findingsRole is the member template's findings role.
func findingsRole(t *testing.T) resource {
	t.Helper()
	return memberRole(t, FindingsRoleName)
}

// statementsOf returns a policy document's statements.
func statementsOf(doc any) []map[string]any {
	d, _ := doc.(map[string]any)
	list, _ := d["Statement"].([]any)
	var out []map[string]any
	for _, s := range list {
		if m, ok := s.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}
