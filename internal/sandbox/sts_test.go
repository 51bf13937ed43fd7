package sandbox_test

import (
	"context"
	"errors"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/service/cloudcontrol"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/iam"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	"github.com/aws/aws-sdk-go-v2/service/organizations"
	"github.com/aws/aws-sdk-go-v2/service/route53"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sts"
	"github.com/aws/smithy-go"

	"github.com/realdrift/realdrift/internal/sandbox"
)

func TestSTSAndOrganizations(t *testing.T) {
	srv, url := start(t, "testdata/world.json", sandbox.Options{})
	c := ctx(t)
	tests := []struct{ key, account, arn string }{
		{mgmtKey, mgmt, "arn:aws:iam::111111111111:user/alice"},
		{rootKey, mgmt, "arn:aws:iam::111111111111:root"},
	}
	for _, tt := range tests {
		t.Run(tt.key, func(t *testing.T) {
			out, err := sts.NewFromConfig(cfg(url, tt.key, "us-east-1")).GetCallerIdentity(c, &sts.GetCallerIdentityInput{})
			if err != nil {
				t.Fatal(err)
			}
			if aws.ToString(out.Account) != tt.account || aws.ToString(out.Arn) != tt.arn {
				t.Errorf("got %s %s", aws.ToString(out.Account), aws.ToString(out.Arn))
			}
		})
	}

	t.Run("AssumeRole", func(t *testing.T) {
		cl := sts.NewFromConfig(cfg(url, mgmtKey, "us-east-1"))
		out, err := cl.AssumeRole(c, &sts.AssumeRoleInput{RoleArn: aws.String("arn:aws:iam::222222222222:role/realdrift-read"), RoleSessionName: aws.String("sweep")})
		if err != nil {
			t.Fatal(err)
		}
		cr := out.Credentials
		mc := cfg(url, aws.ToString(cr.AccessKeyId), "eu-west-1")
		id, err := sts.NewFromConfig(mc).GetCallerIdentity(c, &sts.GetCallerIdentityInput{})
		if err != nil {
			t.Fatal(err)
		}
		if aws.ToString(id.Account) != member || aws.ToString(id.Arn) != "arn:aws:sts::222222222222:assumed-role/realdrift-read/sweep" {
			t.Errorf("identity %s %s", aws.ToString(id.Account), aws.ToString(id.Arn))
		}
		cc := cloudcontrol.NewFromConfig(mc)
		if m := getProps(t, cc, queueType, "https://sqs.eu-west-1.amazonaws.com/222222222222/App-Queue-MEM"); m["VisibilityTimeout"] != 45.0 {
			t.Errorf("member queue %v", m)
		}
		if _, err := cl.AssumeRole(c, &sts.AssumeRoleInput{RoleArn: aws.String("arn:aws:iam::999999999999:role/x"), RoleSessionName: aws.String("s")}); code(err) != "AccessDenied" {
			t.Errorf("role outside the world: %v", err)
		}
		// AccessDenied for a role: its sessions are refused.
		if err := srv.SetFaults([]sandbox.FaultRule{{Role: "realdrift-read", Service: "cloudcontrolapi"}}); err != nil {
			t.Fatal(err)
		}
		_, err = cc.GetResource(c, &cloudcontrol.GetResourceInput{TypeName: aws.String(queueType), Identifier: aws.String("https://sqs.eu-west-1.amazonaws.com/222222222222/App-Queue-MEM")})
		if code(err) != "AccessDeniedException" {
			t.Errorf("denied role: err = %v", err)
		}
		if _, err := sts.NewFromConfig(mc).GetCallerIdentity(c, &sts.GetCallerIdentityInput{}); err != nil {
			t.Errorf("the rule is for cloudcontrolapi only: %v", err)
		}
		_ = srv.SetFaults(nil)
	})

	t.Run("Organizations", func(t *testing.T) {
		org := organizations.NewFromConfig(cfg(url, mgmtKey, "us-east-1"))
		d, err := org.DescribeOrganization(c, &organizations.DescribeOrganizationInput{})
		if err != nil {
			t.Fatal(err)
		}
		if aws.ToString(d.Organization.Id) != "o-a1b2c3d4e5" || aws.ToString(d.Organization.MasterAccountId) != mgmt {
			t.Errorf("organization %+v", d.Organization)
		}
		p := organizations.NewListAccountsPaginator(org, &organizations.ListAccountsInput{MaxResults: aws.Int32(1)})
		var ids []string
		for i := 0; p.HasMorePages() && i < 5; i++ {
			out, err := p.NextPage(c)
			if err != nil {
				t.Fatal(err)
			}
			for _, a := range out.Accounts {
				ids = append(ids, aws.ToString(a.Id))
			}
		}
		if len(ids) != 2 || ids[1] != member {
			t.Errorf("accounts %v", ids)
		}
	})
}

// TestUnknownAccessKey: a request signed with an access key no principal
// of the world owns is refused as AWS refuses it, in each protocol's
// shape, through the SDK clients — never served as some account's root —
// while the world's own keys are answered.
func TestUnknownAccessKey(t *testing.T) {
	srv, url := start(t, "testdata/world.json", sandbox.Options{})
	const unknown = "AKIANOBODY0000000001"
	const token = "The security token included in the request is invalid."
	c := ctx(t)
	conf := func(key string) aws.Config {
		cf := cfg(url, key, "us-east-1")
		cf.RetryMaxAttempts = 1
		return cf
	}
	calls := map[string]func(context.Context, aws.Config) error{
		"sts": func(c context.Context, cf aws.Config) error {
			_, err := sts.NewFromConfig(cf).GetCallerIdentity(c, &sts.GetCallerIdentityInput{})
			return err
		},
		"iam": func(c context.Context, cf aws.Config) error {
			_, err := iam.NewFromConfig(cf).ListRolePolicies(c, &iam.ListRolePoliciesInput{RoleName: aws.String("App-Role-XYZ")})
			return err
		},
		"cloudcontrol": func(c context.Context, cf aws.Config) error {
			_, err := cloudcontrol.NewFromConfig(cf).GetResource(c, &cloudcontrol.GetResourceInput{TypeName: aws.String(queueType), Identifier: aws.String(queueURL)})
			return err
		},
		"sqs": func(c context.Context, cf aws.Config) error {
			_, err := sqs.NewFromConfig(cf).GetQueueAttributes(c, &sqs.GetQueueAttributesInput{QueueUrl: aws.String(queueURL)})
			return err
		},
		"s3": func(c context.Context, cf aws.Config) error {
			_, err := s3.NewFromConfig(cf, func(o *s3.Options) { o.UsePathStyle = true }).GetBucketPolicy(c, &s3.GetBucketPolicyInput{Bucket: aws.String("no-such-bucket")})
			return err
		},
		"lambda": func(c context.Context, cf aws.Config) error {
			_, err := lambda.NewFromConfig(cf).GetPolicy(c, &lambda.GetPolicyInput{FunctionName: aws.String("no-such-function")})
			return err
		},
		"ec2": func(c context.Context, cf aws.Config) error {
			_, err := ec2.NewFromConfig(cf).DescribeSecurityGroups(c, &ec2.DescribeSecurityGroupsInput{})
			return err
		},
		"route53": func(c context.Context, cf aws.Config) error {
			_, err := route53.NewFromConfig(cf).ListResourceRecordSets(c, &route53.ListResourceRecordSetsInput{HostedZoneId: aws.String("Z0000000000000000000")})
			return err
		},
	}
	for _, tt := range []struct {
		service, code, message string
		status                 int
	}{
		{"sts", "InvalidClientTokenId", token, 403},
		{"iam", "InvalidClientTokenId", token, 403},
		{"cloudcontrol", "UnrecognizedClientException", token, 400},
		// SQS speaks JSON with query-compatible codes: the SDK reads the
		// query code.
		{"sqs", "InvalidClientTokenId", token, 400},
		{"s3", "InvalidAccessKeyId", "The AWS Access Key Id you provided does not exist in our records.", 403},
		{"lambda", "UnrecognizedClientException", token, 403},
		{"ec2", "AuthFailure", "AWS was not able to validate the provided access credentials", 401},
		{"route53", "InvalidClientTokenId", token, 403},
	} {
		t.Run(tt.service, func(t *testing.T) {
			err := calls[tt.service](c, conf(unknown))
			var ae smithy.APIError
			if !errors.As(err, &ae) {
				t.Fatalf("unknown key: %v, want %s", err, tt.code)
			}
			if ae.ErrorCode() != tt.code || ae.ErrorMessage() != tt.message {
				t.Errorf("unknown key: %s %q, want %s %q", ae.ErrorCode(), ae.ErrorMessage(), tt.code, tt.message)
			}
			var re *awshttp.ResponseError
			if !errors.As(err, &re) || re.HTTPStatusCode() != tt.status {
				t.Errorf("unknown key: %v, want HTTP %d", err, tt.status)
			}
			// The world's key is answered (or refused for what it asks,
			// never for who it is).
			if err := calls[tt.service](c, conf(mgmtKey)); err != nil && code(err) == tt.code {
				t.Errorf("world key: %v", err)
			}
		})
	}
	if n := srv.Calls().Errors["sts:GetCallerIdentity:InvalidClientTokenId"]; n != 1 {
		t.Errorf("call log has %d refused GetCallerIdentity calls, want 1 (errors %v)", n, srv.Calls().Errors)
	}
}
