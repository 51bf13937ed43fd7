package sandbox_test

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudcontrol"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	ec2types "github.com/aws/aws-sdk-go-v2/service/ec2/types"
	"github.com/aws/aws-sdk-go-v2/service/iam"
	"github.com/aws/aws-sdk-go-v2/service/lambda"

	"github.com/realdrift/realdrift/internal/sandbox"
)

// TestWritesValidatedAgainstTheModel: a write that breaks its input
// constraints in AWS's model is refused before its handler runs, with the
// service's error code for its protocol and AWS's wording; one that keeps
// them is served. A sample per protocol the check reads (JSON 1.0, query,
// EC2, REST-JSON), each through aws-sdk-go-v2, which sends what the
// model's constraints refuse (it checks only required members).
func TestWritesValidatedAgainstTheModel(t *testing.T) {
	_, u := start(t, "testdata/world.json", sandbox.Options{})
	c := ctx(t)
	conf := cfg(u, mgmtKey, "us-east-1")
	doc := aws.String(`{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"s3:GetObject","Resource":"*"}]}`)
	for _, tc := range []struct {
		name, code, at string
		call           func() error
	}{
		{"JSON 1.0: a type name off the pattern", "ValidationException", "'typeName'", func() error {
			_, err := cloudcontrol.NewFromConfig(conf).UpdateResource(c, &cloudcontrol.UpdateResourceInput{TypeName: aws.String("not a type"),
				Identifier: aws.String(queueURL), PatchDocument: aws.String(`[]`)})
			return err
		}},
		{"query: a policy name off the pattern", "ValidationError", "'policyName'", func() error {
			_, err := iam.NewFromConfig(conf).PutRolePolicy(c, &iam.PutRolePolicyInput{RoleName: aws.String("App-Role-XYZ"), PolicyName: aws.String("bad name!"), PolicyDocument: doc})
			return err
		}},
		{"query: a policy name too long", "ValidationError", "Member must have length less than or equal to 128", func() error {
			_, err := iam.NewFromConfig(conf).PutRolePolicy(c, &iam.PutRolePolicyInput{RoleName: aws.String("App-Role-XYZ"), PolicyName: aws.String(strings.Repeat("p", 129)), PolicyDocument: doc})
			return err
		}},
		{"EC2: a rule action the enumeration lacks", "InvalidParameterValue", "'ruleAction'", func() error {
			_, err := ec2.NewFromConfig(conf).ReplaceNetworkAclEntry(c, &ec2.ReplaceNetworkAclEntryInput{NetworkAclId: aws.String("acl-0123456789abcdef0"), RuleNumber: aws.Int32(100),
				Protocol: aws.String("6"), RuleAction: ec2types.RuleAction("maybe"), Egress: aws.Bool(false), CidrBlock: aws.String("10.0.0.0/8")})
			return err
		}},
		{"REST-JSON: a statement id off the pattern", "ValidationException", "'statementId'", func() error {
			_, err := lambda.NewFromConfig(conf).AddPermission(c, &lambda.AddPermissionInput{FunctionName: aws.String("fn"), StatementId: aws.String("bad id!"),
				Action: aws.String("lambda:InvokeFunction"), Principal: aws.String("s3.amazonaws.com")})
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.call()
			if code(err) != tc.code || !strings.Contains(err.Error(), "validation error detected: Value") || !strings.Contains(err.Error(), tc.at) {
				t.Errorf("got %v, want %s naming %s", err, tc.code, tc.at)
			}
		})
	}
	if _, err := iam.NewFromConfig(conf).PutRolePolicy(c, &iam.PutRolePolicyInput{RoleName: aws.String("App-Role-XYZ"), PolicyName: aws.String("good-name"), PolicyDocument: doc}); err != nil {
		t.Errorf("a conforming write: %v", err)
	}
}
