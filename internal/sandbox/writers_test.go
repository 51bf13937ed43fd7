package sandbox_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudcontrol"
	"github.com/aws/aws-sdk-go-v2/service/iam"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	lambdatypes "github.com/aws/aws-sdk-go-v2/service/lambda/types"
	"github.com/aws/aws-sdk-go-v2/service/sns"

	"github.com/realdrift/realdrift/internal/sandbox"
)

// TestChildWriters: the calls a revert uses to remove children added out of
// band (function permissions, subscriptions, inline policies).
func TestChildWriters(t *testing.T) {
	srv, u := start(t, "testdata/services.json", sandbox.Options{})
	c := ctx(t)
	conf := cfg(u, mgmtKey, "us-east-1")

	lc := lambda.NewFromConfig(conf)
	add := &lambda.AddPermissionInput{FunctionName: aws.String("Svc-Fn-1"), StatementId: aws.String("oob"), Action: aws.String("lambda:InvokeFunction"), Principal: aws.String("999999999999")}
	out, err := lc.AddPermission(c, add)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(aws.ToString(out.Statement), `"Sid":"oob"`) {
		t.Errorf("statement %s", aws.ToString(out.Statement))
	}
	_, err = lc.AddPermission(c, add)
	var conflict *lambdatypes.ResourceConflictException
	if !errors.As(err, &conflict) {
		t.Errorf("duplicate sid: %v", err)
	}
	pol, err := lc.GetPolicy(c, &lambda.GetPolicyInput{FunctionName: aws.String("Svc-Fn-1")})
	if err != nil || !strings.Contains(aws.ToString(pol.Policy), "arn:aws:iam::999999999999:root") {
		t.Errorf("policy after add: %v %v", pol, err)
	}
	if _, err := lc.RemovePermission(c, &lambda.RemovePermissionInput{FunctionName: aws.String("Svc-Fn-1"), StatementId: aws.String("oob")}); err != nil {
		t.Fatal(err)
	}
	if pol, _ := lc.GetPolicy(c, &lambda.GetPolicyInput{FunctionName: aws.String("Svc-Fn-1")}); strings.Contains(aws.ToString(pol.Policy), "999999999999") {
		t.Error("permission not removed")
	}
	_, err = lc.RemovePermission(c, &lambda.RemovePermissionInput{FunctionName: aws.String("Svc-Fn-1"), StatementId: aws.String("oob")})
	var nf *lambdatypes.ResourceNotFoundException
	if !errors.As(err, &nf) {
		t.Errorf("second remove: %v", err)
	}

	sc := sns.NewFromConfig(conf)
	subs, err := sc.ListSubscriptionsByTopic(c, &sns.ListSubscriptionsByTopicInput{TopicArn: aws.String(svcTopic)})
	if err != nil || len(subs.Subscriptions) != 2 {
		t.Fatalf("subscriptions %v %v", subs, err)
	}
	for _, s := range subs.Subscriptions {
		if _, err := sc.Unsubscribe(c, &sns.UnsubscribeInput{SubscriptionArn: s.SubscriptionArn}); err != nil {
			t.Errorf("unsubscribe %s: %v", aws.ToString(s.SubscriptionArn), err)
		}
	}
	if subs, _ := sc.ListSubscriptionsByTopic(c, &sns.ListSubscriptionsByTopicInput{TopicArn: aws.String(svcTopic)}); len(subs.Subscriptions) != 0 {
		t.Errorf("left after unsubscribe: %v", subs.Subscriptions)
	}
	if _, err := sc.Unsubscribe(c, &sns.UnsubscribeInput{SubscriptionArn: aws.String(svcTopic + ":nope")}); code(err) != "NotFound" {
		t.Errorf("unknown subscription: %v", err)
	}

	ic := iam.NewFromConfig(conf)
	if _, err := ic.DeleteRolePolicy(c, &iam.DeleteRolePolicyInput{RoleName: aws.String("Svc-Role-1"), PolicyName: aws.String("RoleDefaultPolicy")}); err != nil {
		t.Fatal(err)
	}
	names, err := ic.ListRolePolicies(c, &iam.ListRolePoliciesInput{RoleName: aws.String("Svc-Role-1")})
	if err != nil || len(names.PolicyNames) != 0 {
		t.Errorf("after delete: %v %v", names, err)
	}
	if _, ok := srv.Live("", "us-east-1", "AWS::IAM::Policy", "Svc-RoleD-1"); ok {
		t.Error("the AWS::IAM::Policy attached to nothing still exists")
	}
	if m := getProps(t, cloudcontrol.NewFromConfig(conf), "AWS::IAM::Role", "Svc-Role-1"); m["Policies"] != nil {
		t.Errorf("role Policies after delete: %v", m["Policies"])
	}
}

func TestUserAndGroupPolicies(t *testing.T) {
	srv, u := start(t, "testdata/services.json", sandbox.Options{})
	doc := `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"s3:ListBucket","Resource":"*"}]}`
	if err := srv.Apply(sandbox.Change{Op: sandbox.OpAdd, Region: "us-east-1", Type: "AWS::IAM::Policy", Identifier: "Svc-Shared-1",
		Properties: []byte(`{"PolicyName":"shared","Users":["bob"],"Groups":["devs"],"PolicyDocument":` + doc + `}`)}); err != nil {
		t.Fatal(err)
	}
	ic := iam.NewFromConfig(cfg(u, mgmtKey, "eu-west-1"))
	c := ctx(t)
	up, err := ic.GetUserPolicy(c, &iam.GetUserPolicyInput{UserName: aws.String("bob"), PolicyName: aws.String("shared")})
	if err != nil || !strings.Contains(aws.ToString(up.PolicyDocument), "s3%3AListBucket") {
		t.Errorf("user policy %v %v", up, err)
	}
	gp, err := ic.GetGroupPolicy(c, &iam.GetGroupPolicyInput{GroupName: aws.String("devs"), PolicyName: aws.String("shared")})
	if err != nil || aws.ToString(gp.GroupName) != "devs" {
		t.Errorf("group policy %v %v", gp, err)
	}
	if _, err := ic.GetUserPolicy(c, &iam.GetUserPolicyInput{UserName: aws.String("carol"), PolicyName: aws.String("shared")}); code(err) != "NoSuchEntity" {
		t.Errorf("unknown user: %v", err)
	}
}
