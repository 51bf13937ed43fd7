package live

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/s3"
)

// readBucketPolicy reads AWS::S3::BucketPolicy: {Bucket, PolicyDocument}.
// The bucket is the declared Bucket, else the physical id (which is the
// bucket name). A bucket without a policy means the policy was deleted.
func readBucketPolicy(ctx context.Context, c *Clients, r Request) (map[string]any, error) {
	bucket := r.PhysicalID
	if _, ok := r.Declared["Bucket"]; ok {
		b, err := declaredString(r.Declared, "Bucket")
		if err != nil {
			return nil, err
		}
		bucket = b
	}
	doc, err := bucketPolicy(ctx, c, bucket)
	if err != nil {
		return nil, err
	}
	return map[string]any{"Bucket": bucket, "PolicyDocument": doc}, nil
}

// bucketPolicy returns a bucket's policy document; ErrNotFound (or a
// not-found API error) when the bucket has none.
func bucketPolicy(ctx context.Context, c *Clients, bucket string) (map[string]any, error) {
	if c.S3 == nil {
		return nil, skip("no S3 client")
	}
	out, err := c.S3.GetBucketPolicy(ctx, &s3.GetBucketPolicyInput{Bucket: &bucket})
	if err != nil {
		return nil, err
	}
	if deref(out.Policy) == "" {
		return nil, fmt.Errorf("policy of bucket %s: %w", bucket, ErrNotFound)
	}
	return parsePolicy(*out.Policy)
}
