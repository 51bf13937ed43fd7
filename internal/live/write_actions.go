package live

import "sort"

// writeActions is the one table of the IAM actions the writers call, per
// write-side client: every method of ccWriteAPI, s3WriteAPI, sqsWriteAPI,
// snsWriteAPI, iamWriteAPI, lambdaWriteAPI, ec2WriteAPI, route53WriteAPI
// and elbv2WriteAPI, as IAM names it (Cloud Control's actions are
// CloudFormation's). TestWriteActions keeps it
// equal to those interfaces, so a new write call cannot go unlisted.
func writeActions() map[string][]string {
	return map[string][]string{
		"cloudformation": {"GetResource", "UpdateResource", "DeleteResource", "GetResourceRequestStatus"},
		"s3":             {"PutBucketPolicy", "DeleteBucketPolicy"},
		"sqs":            {"SetQueueAttributes"},
		"sns":            {"SetTopicAttributes"},
		"iam": {
			"ListRolePolicies", "GetRolePolicy", "PutRolePolicy", "DeleteRolePolicy",
			"PutUserPolicy", "DeleteUserPolicy", "PutGroupPolicy", "DeleteGroupPolicy",
			"ListPolicyVersions", "CreatePolicyVersion", "DeletePolicyVersion",
			"AttachRolePolicy", "DetachRolePolicy", "AttachUserPolicy", "DetachUserPolicy", "AttachGroupPolicy", "DetachGroupPolicy",
			"ListAttachedRolePolicies", "ListAttachedUserPolicies", "ListAttachedGroupPolicies",
		},
		"lambda":               {"AddPermission", "RemovePermission"},
		"ec2":                  {"ReplaceNetworkAclEntry"},
		"route53":              {"ChangeResourceRecordSets", "GetChange"},
		"elasticloadbalancing": {"ModifyLoadBalancerAttributes", "ModifyTargetGroupAttributes", "ModifyListenerAttributes"},
	}
}

// WriteActions lists, sorted, every IAM action the writers (Writers) call
// with the credentials they are built from: the revert role's permissions
// (infra grants exactly these; the service's tests hold the committed copy
// of the role equal to them). Reads the writers make through Writers.Read
// use the read clients' credentials and are not listed.
func WriteActions() []string {
	var out []string
	for prefix, ops := range writeActions() {
		for _, op := range ops {
			out = append(out, prefix+":"+op)
		}
	}
	sort.Strings(out)
	return out
}
