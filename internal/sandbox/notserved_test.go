package sandbox_test

import (
	"errors"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudformation"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/sfn"
	"github.com/aws/aws-sdk-go-v2/service/sts"
	"github.com/aws/smithy-go"

	"github.com/realdrift/realdrift/internal/sandbox"
)

// TestNotEmulated: a service or an operation the sandbox does not serve
// answers NotEmulated in the protocol the request speaks — so each SDK
// client parses it as an API error, not a deserialization failure — and
// is in the call log and delayed like any served call.
func TestNotEmulated(t *testing.T) {
	sb, url := startWorld(t, policyWorld(t, `{"Statement":{"Effect":"Allow","Action":"*","Resource":"*"}}`, ""), sandbox.Options{})
	const delay = 30 * time.Millisecond
	sb.SetLatency(delay)
	c := ctx(t)
	conf := cfg(url, mgmtKey, "us-east-1")
	conf.RetryMaxAttempts = 1
	for _, tt := range []struct {
		what, log string
		call      func() error
	}{
		{"an unserved JSON 1.0 service (DynamoDB)", "dynamodb:ListTables", func() error {
			_, err := dynamodb.NewFromConfig(conf).ListTables(c, &dynamodb.ListTablesInput{})
			return err
		}},
		{"an unserved JSON 1.0 service (Step Functions)", "states:ListStateMachines", func() error {
			_, err := sfn.NewFromConfig(conf).ListStateMachines(c, &sfn.ListStateMachinesInput{})
			return err
		}},
		{"an unserved query operation (STS)", "sts:GetSessionToken", func() error {
			_, err := sts.NewFromConfig(conf).GetSessionToken(c, &sts.GetSessionTokenInput{})
			return err
		}},
		{"an unserved query operation (CloudFormation)", "cloudformation:ListStackSets", func() error {
			_, err := cloudformation.NewFromConfig(conf).ListStackSets(c, &cloudformation.ListStackSetsInput{})
			return err
		}},
		{"an unserved REST-JSON operation (Lambda)", "lambda:GET /2018-10-31/layers", func() error {
			_, err := lambda.NewFromConfig(conf).ListLayers(c, &lambda.ListLayersInput{})
			return err
		}},
		{"an unserved REST-XML operation (S3)", "s3:GET /bucket", func() error {
			_, err := s3.NewFromConfig(conf, func(o *s3.Options) { o.UsePathStyle = true }).ListObjectsV2(c, &s3.ListObjectsV2Input{Bucket: aws.String("bucket")})
			return err
		}},
	} {
		start := time.Now()
		err := tt.call()
		var ae smithy.APIError
		if !errors.As(err, &ae) || ae.ErrorCode() != sandbox.NotEmulated {
			t.Errorf("%s: %v, want the API error %s", tt.what, err, sandbox.NotEmulated)
		}
		if el := time.Since(start); el < delay {
			t.Errorf("%s: answered in %v, before the injected latency %v", tt.what, el, delay)
		}
		if n := sb.Calls().Errors[tt.log+":"+sandbox.NotEmulated]; n != 1 {
			t.Errorf("%s: call log has %d %s:%s, want 1 (errors %v)", tt.what, n, tt.log, sandbox.NotEmulated, sb.Calls().Errors)
		}
	}
}
