package main

import (
	"flag"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the committed role-policy copies under testdata/iam from the synthesized templates")

// readRoleCopy is the committed copy of the member read role's policies
// the end-to-end sweep seeds the sandbox with (internal/service), so the
// e2e enforces exactly what infra deploys without a synth step.
var readRoleCopy = filepath.Join("..", "testdata", "iam", "member-read-role.json")

// readRolePolicies is the storage shape of readRoleCopy.
type readRolePolicies struct {
	Comment string `json:"comment"`
	Role    string `json:"role"`
	// Inline are the role's inline policies as synthesized (Policies).
	Inline any `json:"inline"`
	// Managed are the managed policy ARNs attached (ManagedPolicyArns).
	Managed any `json:"managed"`
	// Handlers are the customer managed policies granting Cloud Control
	// handler permissions ({PolicyName, PolicyDocument}).
	Handlers []any `json:"handlers"`
}

// handlerPolicies returns the member template's customer managed policies
// whose logical id starts with prefix, as {PolicyName, PolicyDocument}.
func handlerPolicies(prefix string) []any {
	var out []any
	for _, r := range resourcesOf(member, "AWS::IAM::ManagedPolicy") {
		if strings.HasPrefix(r.id, prefix) {
			out = append(out, map[string]any{"PolicyName": r.id, "PolicyDocument": r.props["PolicyDocument"]})
		}
	}
	return out
}

// TestReadRolePolicyCopy holds the committed copy equal to the synthesized
// read role (go test -run TestReadRolePolicyCopy -update rewrites it).
func TestReadRolePolicyCopy(t *testing.T) {
	var role *resource
	for _, r := range resourcesOf(member, "AWS::IAM::Role") {
		if r.props["RoleName"] == ReadRoleName {
			role = &r
		}
	}
	if role == nil {
		t.Fatal("no member read role")
	}
	want := readRolePolicies{
		Comment: "The member read role's policies as infra synthesizes them (infra TestReadRolePolicyCopy keeps this equal; -update rewrites it). The e2e sweep seeds the sandbox with them. handlers are the customer managed policies granting Cloud Control's read and list handlers' read permissions.",
		Role:    ReadRoleName, Inline: role.props["Policies"], Managed: role.props["ManagedPolicyArns"], Handlers: handlerPolicies("ReadHandlers"),
	}
	checkJSONCopy(t, want, readRoleCopy, "read role")
}

// TestReadRoleRegion: the StackSet creates the (global) read role in one
// region of every member account, the first member region, whatever the
// central region.
func TestReadRoleRegion(t *testing.T) {
	for _, r := range resourcesOf(central, "AWS::CloudFormation::StackSet") {
		for _, p := range r.props["Parameters"].([]any) {
			pm := p.(map[string]any)
			if pm["ParameterKey"] != "RoleRegion" {
				continue
			}
			want := map[string]any{"Fn::Select": []any{0.0, map[string]any{"Ref": "MemberRegions"}}}
			if diff := cmp.Diff(pm["ParameterValue"], any(want)); diff != "" {
				t.Errorf("RoleRegion (-got +want: the first member region, not the central region):\n%s", diff)
			}
			return
		}
	}
	t.Error("no RoleRegion parameter on the member StackSet")
}
