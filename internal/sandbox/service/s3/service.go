package s3

import "github.com/realdrift/realdrift/internal/sandbox/wire"

// Service is the service's registration: S3 (REST-XML, path-style),
// bucket policies over the world's AWS::S3::Bucket and BucketPolicy
// models, and the objects put in objs.
func Service(objs *Objects) *wire.Service {
	svc := wire.RESTXML("s3", "", s3Route, wire.Ops{
		"GetBucketPolicy":    s3GetBucketPolicy,
		"PutBucketPolicy":    s3PutBucketPolicy,
		"DeleteBucketPolicy": s3DeleteBucketPolicy,
		"PutObject":          objs.putObject,
		"GetObject":          objs.getObject,
	}).Throttles(503, "SlowDown").Scoped(s3Resource).
		// A bucket's configuration (its policy) is eventually consistent;
		// objects are read after write.
		Eventually("PutBucketPolicy", "DeleteBucketPolicy").
		RejectsKeys(403, "InvalidAccessKeyId", "The AWS Access Key Id you provided does not exist in our records.")
	// The operations whose IAM action is not named after them (listed
	// ahead of the sandbox serving them all).
	svc.IAM.Actions = map[string]string{
		"ListBuckets":                        "s3:ListAllMyBuckets",
		"HeadBucket":                         "s3:ListBucket",
		"ListObjectsV2":                      "s3:ListBucket",
		"GetBucketEncryption":                "s3:GetEncryptionConfiguration",
		"PutBucketEncryption":                "s3:PutEncryptionConfiguration",
		"GetBucketLifecycleConfiguration":    "s3:GetLifecycleConfiguration",
		"PutBucketLifecycleConfiguration":    "s3:PutLifecycleConfiguration",
		"GetPublicAccessBlock":               "s3:GetBucketPublicAccessBlock",
		"PutPublicAccessBlock":               "s3:PutBucketPublicAccessBlock",
		"GetBucketCors":                      "s3:GetBucketCORS",
		"PutBucketCors":                      "s3:PutBucketCORS",
		"GetBucketNotificationConfiguration": "s3:GetBucketNotification",
		"GetBucketReplication":               "s3:GetReplicationConfiguration",
	}
	return svc
}
