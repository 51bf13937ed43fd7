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
	"github.com/aws/aws-sdk-go-v2/service/route53"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sts"
	"github.com/aws/smithy-go"

	"github.com/realdrift/realdrift/internal/sandbox"
)

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
