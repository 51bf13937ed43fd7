package main

import (
	"path/filepath"
	"sort"
	"testing"
)

// memberTrustCopy is the committed copy of the trust policies of the member
// roles the central functions assume (read, revert, findings): the
// service's end-to-end seeds the sandbox with them, which enforces them on
// every sts:AssumeRole, so a trust policy that would refuse the central
// functions fails the e2e.
var memberTrustCopy = filepath.Join("..", "testdata", "iam", "member-trust.json")

// memberTrust is the storage shape of memberTrustCopy: per named member
// role, its AssumeRolePolicyDocument with the template's references
// resolved to placeholders the e2e fills in.
type memberTrust struct {
	Comment      string            `json:"comment"`
	Placeholders map[string]string `json:"placeholders"`
	Roles        []trustedRole     `json:"roles"`
}

type trustedRole struct {
	Role  string `json:"role"`
	Trust any    `json:"trust"`
}

// TestMemberTrustPolicyCopy holds the committed copy equal to the
// synthesized member roles' trust policies (go test -run
// TestMemberTrustPolicyCopy -update rewrites it).
func TestMemberTrustPolicyCopy(t *testing.T) {
	want := memberTrust{
		Comment: "The trust policies of the member roles the central functions assume, as infra synthesizes them, references resolved to placeholders (infra TestMemberTrustPolicyCopy keeps this equal; -update rewrites it). The e2e seeds the sandbox with them; it enforces them on sts:AssumeRole.",
		Placeholders: map[string]string{
			"{{CentralAccount}}": "the CentralAccountId parameter: the account running the service",
			"{{OrganizationId}}": "the OrganizationId parameter",
		},
	}
	for _, r := range resourcesOf(member, "AWS::IAM::Role") {
		name, _ := r.props["RoleName"].(string)
		if name == "" {
			continue // assumed by a service of the member account (ForwardRole)
		}
		doc, err := resolvePlaceholders(member, r.props["AssumeRolePolicyDocument"])
		if err != nil {
			t.Fatalf("%s trust policy: %v", name, err)
		}
		want.Roles = append(want.Roles, trustedRole{Role: name, Trust: doc})
	}
	sort.Slice(want.Roles, func(i, j int) bool { return want.Roles[i].Role < want.Roles[j].Role })
	if len(want.Roles) < 3 {
		t.Fatalf("%d named member roles, want the read, revert and findings roles", len(want.Roles))
	}
	checkJSONCopy(t, want, memberTrustCopy, "member trust policies")
}
