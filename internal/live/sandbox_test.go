package live_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/sandbox/sandboxtest"
)

const (
	acct   = "111111111111"
	region = "us-east-1"
	key    = "AKIALIVE000000000001"
)

// serve starts the sandbox over loopback HTTP.
func serve(t *testing.T, w *sandbox.World) (*sandbox.Server, string) {
	t.Helper()
	return sandboxtest.Serve(t, w, sandbox.Options{})
}

// config is an SDK config for the sandbox; retries are off so injected
// faults surface at once.
func config(url string) aws.Config {
	c := sandboxtest.Config(url, key, region)
	c.Retryer = func() aws.Retryer { return aws.NopRetryer{} }
	return c
}

func ctx(t *testing.T) context.Context {
	t.Helper()
	return sandboxtest.Context(t, time.Minute)
}

// liveOnly is a live-only world resource.
func liveOnly(typ, id string, props string) *sandbox.Resource {
	return &sandbox.Resource{Type: typ, PhysicalID: id, Properties: json.RawMessage(props)}
}

// worldOf puts resources in one account-region, with the types Cloud
// Control cannot read listed as gaps, as on AWS.
func worldOf(rs ...*sandbox.Resource) *sandbox.World {
	return &sandbox.World{
		DefaultAccount: acct,
		CCGaps:         []string{"AWS::IAM::Policy", "AWS::Lambda::Permission", "AWS::S3::BucketPolicy", "AWS::SNS::TopicPolicy", "AWS::SQS::QueuePolicy", "AWS::MediaConvert::Preset"},
		Accounts: []*sandbox.Account{{
			ID: acct, AccessKeys: []sandbox.AccessKey{{ID: key, UserName: "tester"}},
			Regions: []*sandbox.Region{{Name: region, Resources: rs}},
		}},
	}
}

func jsonUnmarshal(s string, v any) error { return json.Unmarshal([]byte(s), v) }

func asEnumerateError(err error, target **live.EnumerateError) bool { return errors.As(err, target) }
