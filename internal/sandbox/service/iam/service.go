package iam

import (
	"strings"

	"github.com/realdrift/realdrift/internal/sandbox/wire"
)

// Service is the service's registration: IAM (query/XML) over the
// world's AWS::IAM::Role, User, Group, Policy, RolePolicy, UserPolicy,
// GroupPolicy, ManagedPolicy and AccessKey models; the inline-policy
// operations of each identity kind are iamInlineOps, the managed-policy
// attachments are in attach.go.
func Service() *wire.Service {
	svc := wire.Query("iam", "https://iam.amazonaws.com/doc/2010-05-08/", wire.Ops{
		"ListRolePolicies":      iamListRolePolicies,
		"GetPolicy":             iamGetPolicy,
		"GetPolicyVersion":      iamGetPolicyVersion,
		"ListPolicyVersions":    iamListPolicyVersions,
		"CreatePolicyVersion":   iamCreatePolicyVersion,
		"ListEntitiesForPolicy": iamListEntitiesForPolicy,
		"DeletePolicyVersion":   iamDeletePolicyVersion,
		"ListAccessKeys":        iamListAccessKeys,
	})
	for _, ops := range []map[string]wire.Handler{iamInlineOps(), iamAttachOps()} {
		for op, h := range ops {
			svc.Ops[op] = h
		}
	}
	// IAM documents its changes as eventually consistent: every write.
	for op := range svc.Ops {
		if !strings.HasPrefix(op, "Get") && !strings.HasPrefix(op, "List") {
			svc.Eventually(op)
		}
	}
	// An out-of-band change of an inline policy is checked as the
	// Put*Policy call writing it would be (a policy name's pattern and
	// length; the document's JSON text, its length and characters), and
	// of a managed policy as CreatePolicyVersion, which writes its
	// document, would be.
	putRole := wire.ModelInput{Op: "PutRolePolicy", Shape: "PutRolePolicyRequest"}
	putUser := wire.ModelInput{Op: "PutUserPolicy", Shape: "PutUserPolicyRequest"}
	putGroup := wire.ModelInput{Op: "PutGroupPolicy", Shape: "PutGroupPolicyRequest"}
	inline := func(in wire.ModelInput) wire.ModelInput { in.At = "Policies"; return in }
	svc.Models = map[string][]wire.ModelInput{
		"AWS::IAM::Role":          {inline(putRole)},
		"AWS::IAM::User":          {inline(putUser)},
		"AWS::IAM::Group":         {inline(putGroup)},
		"AWS::IAM::RolePolicy":    {putRole},
		"AWS::IAM::UserPolicy":    {putUser},
		"AWS::IAM::GroupPolicy":   {putGroup},
		"AWS::IAM::Policy":        {putRole},
		"AWS::IAM::ManagedPolicy": {{Op: "CreatePolicyVersion", Shape: "CreatePolicyVersionRequest"}},
	}
	return svc
}
