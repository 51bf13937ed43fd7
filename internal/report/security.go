package report

import (
	"slices"
	"strings"

	"github.com/realdrift/realdrift/internal/drift"
)

// securityCategory is a kind of security-relevant drift: a finding whose
// path names one of props (a path segment, e.g. PolicyDocument in
// Policies[0].PolicyDocument.Statement), or a deleted or added resource of
// one of types, is reported under the category's SARIF rule with its
// security-severity (GitHub's 0.1–10 scale: 9.0 and above critical, 7.0
// high), instead of the tier's general rule.
type securityCategory struct {
	id, name string
	severity string
	short    string
	help     string
	props    []string
	types    []string
}

// securityCategories is the one table of security-relevant properties and
// resource types (policies, public access, encryption, security groups).
func securityCategories() []securityCategory {
	return []securityCategory{
		{
			id: "RD101", name: "PolicyDrift", severity: "8.0",
			short: "Drift in an access policy: who may do what has changed outside the template.",
			help:  "An IAM, resource or key policy, a managed-policy attachment or a permissions boundary differs from what was deployed or recorded. Access granted outside code review is the drift attackers leave behind: find who changed it (CloudTrail), then revert it (realdrift revert) or, if it was meant, put it in the template and deploy.",
			props: []string{"PolicyDocument", "Policies", "ManagedPolicyArns", "AssumeRolePolicyDocument", "KeyPolicy", "PermissionsBoundary", "PolicyText", "Policy"},
			types: []string{"AWS::IAM::Policy", "AWS::IAM::ManagedPolicy", "AWS::IAM::RolePolicy", "AWS::IAM::UserPolicy", "AWS::IAM::GroupPolicy", "AWS::S3::BucketPolicy", "AWS::SQS::QueuePolicy", "AWS::SNS::TopicPolicy", "AWS::Lambda::Permission", "AWS::KMS::Key", "AWS::SecretsManager::ResourcePolicy", "AWS::Events::EventBusPolicy", "AWS::Logs::ResourcePolicy"},
		},
		{
			id: "RD102", name: "PublicAccessDrift", severity: "9.0",
			short: "Drift in public access: a resource may be reachable from the internet.",
			help:  "A public-access block, an ACL, a public endpoint or address setting, or a function URL's authentication differs from what was deployed or recorded. Check at once whether data is exposed; revert it (realdrift revert) unless the exposure is intended and reviewed.",
			props: []string{"PublicAccessBlockConfiguration", "BlockPublicAcls", "BlockPublicPolicy", "IgnorePublicAcls", "RestrictPublicBuckets", "PubliclyAccessible", "AccessControl", "MapPublicIpOnLaunch", "AssociatePublicIpAddress", "AuthType", "EndpointPublicAccess", "PublicAccessCidrs", "Scheme"},
			types: []string{"AWS::Lambda::Url"},
		},
		{
			id: "RD103", name: "EncryptionDrift", severity: "7.0",
			short: "Drift in encryption: data at rest or in transit may no longer be protected as declared.",
			help:  "An encryption setting or the KMS key a resource uses differs from what was deployed or recorded. Confirm the data is still encrypted with a key you control; revert it (realdrift revert) or declare the new setting in the template.",
			props: []string{"BucketEncryption", "ServerSideEncryptionConfiguration", "SSESpecification", "SSEEnabled", "SqsManagedSseEnabled", "KmsKeyId", "KmsMasterKeyId", "KMSKeyArn", "KmsKeyArn", "KMSMasterKeyID", "Encrypted", "StorageEncrypted", "EncryptionConfiguration", "EncryptionAtRestOptions", "EncryptionAtRest", "AtRestEncryptionEnabled", "TransitEncryptionEnabled", "NodeToNodeEncryptionOptions", "EnforceHTTPS"},
		},
		{
			id: "RD104", name: "SecurityGroupDrift", severity: "7.5",
			short: "Drift in network access: security group rules or attachments changed.",
			help:  "A security group's ingress or egress rules, or the groups a resource is attached to, differ from what was deployed or recorded. An opened port is the usual way in: find who changed it (CloudTrail), then revert it (realdrift revert) or declare the rule in the template.",
			props: []string{"SecurityGroupIngress", "SecurityGroupEgress", "SecurityGroups", "SecurityGroupIds", "VpcSecurityGroupIds", "GroupSet"},
			types: []string{"AWS::EC2::SecurityGroup", "AWS::EC2::SecurityGroupIngress", "AWS::EC2::SecurityGroupEgress"},
		},
	}
}

// securityCategoryOf returns the category a drift finding falls in, if
// any: by a path segment naming a security property, else (deleted or
// added resources, and findings on the whole resource) by resource type.
func securityCategoryOf(f drift.Finding) (securityCategory, bool) {
	segs := pathSegments(f.Path)
	for _, c := range securityCategories() {
		for _, s := range segs {
			if slices.Contains(c.props, s) {
				return c, true
			}
		}
	}
	if len(segs) == 0 || f.Tier == drift.Deleted || f.Tier == drift.Added {
		for _, c := range securityCategories() {
			if slices.Contains(c.types, f.ResourceType) {
				return c, true
			}
		}
	}
	return securityCategory{}, false
}

// pathSegments splits a finding path (A.B[0].C) into its names, up to a
// Tags segment (a tag's key is a user's word, never a property name).
func pathSegments(p string) []string {
	segs := strings.FieldsFunc(p, func(r rune) bool { return r == '.' || r == '[' || r == ']' })
	if i := slices.Index(segs, "Tags"); i >= 0 {
		segs = segs[:i+1]
	}
	return segs
}
