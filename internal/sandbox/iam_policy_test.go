package sandbox_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudcontrol"
	"github.com/aws/aws-sdk-go-v2/service/cloudformation"
	"github.com/aws/aws-sdk-go-v2/service/iam"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sts"

	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/sandbox/sandboxtest"
)

func TestIAMAction(t *testing.T) {
	for _, tt := range []struct{ svc, op, want string }{
		{"cloudcontrolapi", "GetResource", "cloudformation:GetResource"},
		{"cloudcontrolapi", "ListResources", "cloudformation:ListResources"},
		{"cloudformation", "DescribeStacks", "cloudformation:DescribeStacks"},
		{"s3", "GetBucketPolicy", "s3:GetBucketPolicy"},
		{"s3", "ListBuckets", "s3:ListAllMyBuckets"},
		{"sqs", "GetQueueAttributes", "sqs:GetQueueAttributes"},
		{"sts", "AssumeRole", "sts:AssumeRole"},
		{"monitoring", "DescribeAnomalyDetectors", "cloudwatch:DescribeAnomalyDetectors"},
		{"budgets", "DescribeBudget", "budgets:ViewBudget"},
		{"dynamodb", "GetItem", "dynamodb:GetItem"},
	} {
		if got := sandbox.IAMAction(tt.svc, tt.op); got != tt.want {
			t.Errorf("IAMAction(%s, %s) = %s, want %s", tt.svc, tt.op, got, tt.want)
		}
	}
}

// policyWorld is the test world with policies for the member's read role
// and the management account's user alice.
func policyWorld(t *testing.T, read, alice string) *sandbox.World {
	t.Helper()
	w := sandboxtest.LoadWorld(t, "testdata/world.json")
	for _, a := range w.Accounts {
		switch a.ID {
		case member:
			a.Policies = []*sandbox.Policies{{Role: "realdrift-read", Documents: []json.RawMessage{json.RawMessage(read)}}}
		case mgmt:
			if alice != "" {
				a.Policies = []*sandbox.Policies{{User: "alice", Documents: []json.RawMessage{json.RawMessage(alice)}}}
			}
		}
	}
	return reparse(t, w)
}

// reparse validates and compiles w as a world file would be.
func reparse(t *testing.T, w *sandbox.World) *sandbox.World {
	t.Helper()
	b, err := w.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if w, err = sandbox.ParseWorld(b); err != nil {
		t.Fatal(err)
	}
	return w
}

const memberQueue = "https://sqs.eu-west-1.amazonaws.com/222222222222/App-Queue-MEM"

// TestIAMEnforced: a principal with declared policies may do only what
// they allow, denied calls answer AccessDenied in each protocol's shape
// with AWS's message; a principal without policies may do anything.
func TestIAMEnforced(t *testing.T) {
	read := `{"Version":"2012-10-17","Statement":[
	 {"Sid":"Stacks","Effect":"Allow","Action":["cloudformation:Describe*","cloudformation:ListStacks"],"Resource":"*"},
	 {"Sid":"Misspelt","Effect":"Allow","Action":"cloudcontrol:GetResource","Resource":"*"},
	 {"Sid":"Queues","Effect":"Allow","Action":"sqs:GetQueueAttributes","Resource":"arn:aws:sqs:*:*:App-Queue-*"},
	 {"Sid":"EuOnly","Effect":"Allow","NotAction":["iam:*","sqs:*"],"Resource":"*","Condition":{"StringNotEquals":{"aws:RequestedRegion":"eu-west-1"}}},
	 {"Sid":"Locked","Effect":"Deny","Action":"cloudformation:*","Resource":"arn:aws:cloudformation:*:*:stack/App/*"}]}`
	alice := `{"Statement":{"Effect":"Allow","Action":"sts:AssumeRole","Resource":"arn:aws:iam::222222222222:role/realdrift-read"}}`
	_, url := startWorld(t, policyWorld(t, read, alice), sandbox.Options{})
	c := ctx(t)

	admin := sts.NewFromConfig(cfg(url, mgmtKey, "us-east-1"))
	if _, err := admin.GetCallerIdentity(c, &sts.GetCallerIdentityInput{}); err != nil {
		t.Errorf("GetCallerIdentity needs no permission: %v", err)
	}
	if _, err := admin.AssumeRole(c, &sts.AssumeRoleInput{RoleArn: aws.String("arn:aws:iam::222222222222:role/other"), RoleSessionName: aws.String("s")}); code(err) != "AccessDenied" ||
		!strings.Contains(err.Error(), "User: arn:aws:iam::111111111111:user/alice is not authorized to perform: sts:AssumeRole on resource: arn:aws:iam::222222222222:role/other because no identity-based policy allows the sts:AssumeRole action") {
		t.Errorf("alice assumes a role her policy does not name: %v", err)
	}
	out, err := admin.AssumeRole(c, &sts.AssumeRoleInput{RoleArn: aws.String("arn:aws:iam::222222222222:role/realdrift-read"), RoleSessionName: aws.String("sweep")})
	if err != nil {
		t.Fatal(err)
	}
	mc := cfg(url, aws.ToString(out.Credentials.AccessKeyId), "eu-west-1")
	session := "arn:aws:sts::222222222222:assumed-role/realdrift-read/sweep"

	cfn := cloudformation.NewFromConfig(mc)
	if _, err := cfn.ListStacks(c, &cloudformation.ListStacksInput{}); err != nil {
		t.Errorf("ListStacks (resource *, no deny covers it): %v", err)
	}
	_, err = cfn.DescribeStacks(c, &cloudformation.DescribeStacksInput{StackName: aws.String("App")})
	if code(err) != "AccessDenied" || !strings.Contains(err.Error(), "User: "+session+" is not authorized to perform: cloudformation:DescribeStacks on resource: arn:aws:cloudformation:eu-west-1:222222222222:stack/App/") ||
		!strings.Contains(err.Error(), "with an explicit deny in an identity-based policy") {
		t.Errorf("DescribeStacks App (explicit deny wins over the Allow): %v", err)
	}

	cc := cloudcontrol.NewFromConfig(mc)
	_, err = cc.GetResource(c, &cloudcontrol.GetResourceInput{TypeName: aws.String(queueType), Identifier: aws.String(memberQueue)})
	if code(err) != "AccessDeniedException" || !strings.Contains(err.Error(), "cloudformation:GetResource on resource: * because no identity-based policy allows the cloudformation:GetResource action") {
		t.Errorf("GetResource granted only as cloudcontrol:GetResource: %v", err)
	}

	q := sqs.NewFromConfig(mc)
	if _, err := q.GetQueueAttributes(c, &sqs.GetQueueAttributesInput{QueueUrl: aws.String(memberQueue), AttributeNames: nil}); err != nil {
		t.Errorf("GetQueueAttributes on a queue the policy names: %v", err)
	}
	if _, err := q.SetQueueAttributes(c, &sqs.SetQueueAttributesInput{QueueUrl: aws.String(memberQueue), Attributes: map[string]string{"VisibilityTimeout": "1"}}); err == nil ||
		!strings.Contains(err.Error(), "AccessDenied") || !strings.Contains(err.Error(), "sqs:SetQueueAttributes on resource: arn:aws:sqs:eu-west-1:222222222222:App-Queue-MEM") {
		t.Errorf("SetQueueAttributes (NotAction excludes sqs:*): %v", err)
	}

	// NotAction covers IAM out; the condition holds outside eu-west-1 only.
	useast := mc.Copy()
	useast.Region = "us-east-1"
	if _, err := iam.NewFromConfig(useast).ListRolePolicies(c, &iam.ListRolePoliciesInput{RoleName: aws.String("App-Role-XYZ")}); code(err) != "AccessDenied" {
		t.Errorf("iam:ListRolePolicies (NotAction iam:*): %v", err)
	}
	if _, err := cloudcontrol.NewFromConfig(useast).GetResource(c, &cloudcontrol.GetResourceInput{TypeName: aws.String(queueType), Identifier: aws.String(memberQueue)}); code(err) == "AccessDeniedException" {
		t.Errorf("GetResource from us-east-1 (allowed by EuOnly's condition): %v", err)
	}

	// The management account's root has no policies: allowed as before.
	root := cloudcontrol.NewFromConfig(cfg(url, rootKey, "us-east-1"))
	if _, err := root.GetResource(c, &cloudcontrol.GetResourceInput{TypeName: aws.String(queueType), Identifier: aws.String(queueURL)}); err != nil {
		t.Errorf("root without policies: %v", err)
	}
}

func TestIAMPolicyValidation(t *testing.T) {
	for name, doc := range map[string]string{
		"operator":  `{"Statement":[{"Effect":"Allow","Action":"s3:*","Resource":"*","Condition":{"NumericLessThan":{"s3:max-keys":"10"}}}]}`,
		"qualifier": `{"Statement":[{"Effect":"Allow","Action":"s3:*","Resource":"*","Condition":{"ForSomeValues:StringLike":{"aws:TagKeys":"a*"}}}]}`,
		"effect":    `{"Statement":[{"Effect":"Permit","Action":"s3:*","Resource":"*"}]}`,
		"action":    `{"Statement":[{"Effect":"Allow","Action":"GetObject","Resource":"*"}]}`,
		"principal": `{"Statement":[{"Effect":"Allow","Principal":"*","Action":"s3:*","Resource":"*"}]}`,
		"resource":  `{"Statement":[{"Effect":"Allow","Action":"s3:*"}]}`,
	} {
		t.Run(name, func(t *testing.T) {
			w := sandboxtest.LoadWorld(t, "testdata/world.json")
			w.Accounts[0].Policies = []*sandbox.Policies{{User: "alice", Documents: []json.RawMessage{json.RawMessage(doc)}}}
			b, err := w.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			if _, err := sandbox.ParseWorld(b); err == nil || !strings.Contains(err.Error(), "policies[0].documents[0]") {
				t.Errorf("ParseWorld: %v, want the bad document named", err)
			}
		})
	}
}
