package statemachinetest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/sandbox/sandboxtest"
	"github.com/realdrift/realdrift/statemachine"
)

// S3 is the sandbox's S3 holding one bucket in one account: where a
// Distributed Map's ItemReader reads and its ResultWriter writes in local
// runs (statemachine.Run.S3Endpoint, AccessKeyID).
type S3 struct {
	Endpoint, Bucket, Account, AccessKey string
	client                               *s3.Client
}

// ServeS3 starts a sandbox whose account 999999999999 holds bucket; it
// stops when the test ends.
func ServeS3(t testing.TB, bucket string) *S3 {
	t.Helper()
	const account, key = "999999999999", "AKIASTATEMACHINE0001"
	w := &sandbox.World{
		DefaultAccount: account,
		Accounts: []*sandbox.Account{{ID: account, Name: "central", AccessKeys: []sandbox.AccessKey{{ID: key}},
			Regions: []*sandbox.Region{{Name: "us-east-1", Resources: []*sandbox.Resource{{
				Type: "AWS::S3::Bucket", PhysicalID: bucket, Properties: json.RawMessage(`{"BucketName":"` + bucket + `"}`),
			}}}}}},
	}
	_, url := sandboxtest.Serve(t, w, sandbox.Options{})
	cl := s3.New(s3.Options{
		Region: "us-east-1", BaseEndpoint: aws.String(url), UsePathStyle: true,
		Credentials: credentials.NewStaticCredentialsProvider(key, "local", ""),
	})
	return &S3{Endpoint: url, Bucket: bucket, Account: account, AccessKey: key, client: cl}
}

// Put writes an object to the bucket.
func (s *S3) Put(ctx context.Context, key string, body []byte) error {
	if _, err := s.client.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String(s.Bucket), Key: aws.String(key), Body: bytes.NewReader(body)}); err != nil {
		return fmt.Errorf("put s3://%s/%s: %w", s.Bucket, key, err)
	}
	return nil
}

// Get reads an object of the bucket.
func (s *S3) Get(ctx context.Context, key string) ([]byte, error) {
	out, err := s.client.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String(s.Bucket), Key: aws.String(key)})
	if err != nil {
		return nil, fmt.Errorf("get s3://%s/%s: %w", s.Bucket, key, err)
	}
	defer out.Body.Close()
	return io.ReadAll(out.Body)
}

// Run returns r with the runner's S3 endpoint and credentials set to s.
func (s *S3) Run(r statemachine.Run) statemachine.Run {
	r.S3Endpoint, r.AccessKeyID, r.SecretAccessKey = s.Endpoint, s.AccessKey, "local"
	if r.Account == "" {
		r.Account = s.Account
	}
	return r
}
