package sandbox_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudcontrol"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sts"

	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/sandbox/sandboxtest"
)

// orgPolicyWorld is the test world with the member's realdrift-read role
// trusting only the management account's alice with an external id, its
// realdrift-open role no trust policy, and an SCP denying
// sqs:GetQueueAttributes in the member account.
func orgPolicyWorld(t *testing.T) *sandbox.World {
	t.Helper()
	w := sandboxtest.LoadWorld(t, "testdata/world.json")
	w.Organization.SCPs = []*sandbox.ServiceControlPolicy{
		{Name: "FullAWSAccess", Accounts: []string{member}, Document: json.RawMessage(`{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"*","Resource":"*"}]}`)},
		{Name: "NoQueueReads", Accounts: []string{member}, Document: json.RawMessage(`{"Version":"2012-10-17","Statement":[{"Effect":"Deny","Action":"sqs:GetQueueAttributes","Resource":"*"}]}`)},
	}
	for _, a := range w.Accounts {
		if a.ID == member {
			a.TrustPolicies = []*sandbox.TrustPolicy{{Role: "realdrift-read", Document: json.RawMessage(`{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"sts:AssumeRole",
			  "Principal":{"AWS":"arn:aws:iam::` + mgmt + `:root"},
			  "Condition":{"StringEquals":{"aws:PrincipalOrgID":"o-a1b2c3d4e5","sts:ExternalId":"sweep-1"},"ArnEquals":{"aws:PrincipalArn":"arn:aws:iam::` + mgmt + `:user/alice"}}}]}`)}}
		}
	}
	return reparse(t, w)
}

// TestOrganizationEnforced: sts:AssumeRole is refused with AWS's
// AccessDenied unless the role's trust policy allows the caller (its
// principal, aws:PrincipalArn, aws:PrincipalOrgID, sts:ExternalId); a role
// without one is assumable as before; an SCP of the member account refuses
// what it denies to every principal of the account, the assumed role's
// session and its root alike, with AWS's wording, and nothing else.
func TestOrganizationEnforced(t *testing.T) {
	_, url := startWorld(t, orgPolicyWorld(t), sandbox.Options{})
	c := ctx(t)
	readRole := "arn:aws:iam::" + member + ":role/realdrift-read"
	assume := func(key, role, externalID string) (*sts.AssumeRoleOutput, error) {
		in := &sts.AssumeRoleInput{RoleArn: aws.String(role), RoleSessionName: aws.String("sweep")}
		if externalID != "" {
			in.ExternalId = aws.String(externalID)
		}
		return sts.NewFromConfig(cfg(url, key, "us-east-1")).AssumeRole(c, in)
	}

	if _, err := assume(mgmtKey, readRole, ""); code(err) != "AccessDenied" ||
		!strings.Contains(err.Error(), "User: arn:aws:iam::"+mgmt+":user/alice is not authorized to perform: sts:AssumeRole on resource: "+readRole) {
		t.Errorf("alice without the external id: %v", err)
	}
	if _, err := assume(mgmtKey, readRole, "sweep-2"); code(err) != "AccessDenied" {
		t.Errorf("alice with another external id: %v", err)
	}
	if _, err := assume(rootKey, readRole, "sweep-1"); code(err) != "AccessDenied" ||
		!strings.Contains(err.Error(), "User: arn:aws:iam::"+mgmt+":root is not authorized") {
		t.Errorf("the management account's root (not the trusted principal): %v", err)
	}
	out, err := assume(mgmtKey, readRole, "sweep-1")
	if err != nil {
		t.Fatalf("alice with the external id: %v", err)
	}
	open, err := assume(mgmtKey, "arn:aws:iam::"+member+":role/realdrift-open", "")
	if err != nil {
		t.Fatalf("a role without a trust policy: %v", err)
	}

	for name, key := range map[string]string{"read session": aws.ToString(out.Credentials.AccessKeyId), "open session": aws.ToString(open.Credentials.AccessKeyId)} {
		mc := cfg(url, key, "eu-west-1")
		_, err := sqs.NewFromConfig(mc).GetQueueAttributes(c, &sqs.GetQueueAttributesInput{QueueUrl: aws.String(memberQueue)})
		if !strings.HasPrefix(code(err), "AccessDenied") || !strings.Contains(err.Error(), "sqs:GetQueueAttributes on resource: arn:aws:sqs:eu-west-1:"+member+":App-Queue-MEM with an explicit deny in a service control policy") {
			t.Errorf("%s: GetQueueAttributes under the SCP's deny: %v", name, err)
		}
		if _, err := cloudcontrol.NewFromConfig(mc).GetResource(c, &cloudcontrol.GetResourceInput{TypeName: aws.String(queueType), Identifier: aws.String(memberQueue)}); err != nil {
			t.Errorf("%s: GetResource (FullAWSAccess allows it): %v", name, err)
		}
	}
	// The management account is never restricted by SCPs.
	if _, err := sqs.NewFromConfig(cfg(url, mgmtKey, "us-east-1")).GetQueueAttributes(c, &sqs.GetQueueAttributesInput{QueueUrl: aws.String(queueURL)}); err != nil {
		t.Errorf("management account: %v", err)
	}
}
