package sandbox_test

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudcontrol"
	"github.com/aws/aws-sdk-go-v2/service/iam"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	sqstypes "github.com/aws/aws-sdk-go-v2/service/sqs/types"

	"github.com/realdrift/realdrift/internal/sandbox"
)

// TestStaleReads: with Options.StaleReads = 2, a write AWS documents as
// eventually consistent (IAM PutRolePolicy, S3 PutBucketPolicy, SQS
// SetQueueAttributes) is not seen by the writing account's next two reads
// of that service, Cloud Control's reads of the service's types among
// them, and is by the third; a second write while stale restarts the
// count. Without the option every
// read sees the write (TestIAM, TestS3BucketPolicy, TestSQS).
func TestStaleReads(t *testing.T) {
	_, u := start(t, "testdata/services.json", sandbox.Options{StaleReads: 2})
	c := ctx(t)
	conf := cfg(u, mgmtKey, "us-east-1")

	t.Run("iam", func(t *testing.T) {
		cl := iam.NewFromConfig(conf)
		doc := `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"*","Resource":"*"}]}`
		if _, err := cl.PutRolePolicy(c, &iam.PutRolePolicyInput{RoleName: aws.String("Svc-Role-1"), PolicyName: aws.String("Late"), PolicyDocument: aws.String(doc)}); err != nil {
			t.Fatal(err)
		}
		cc := cloudcontrol.NewFromConfig(conf)
		if m := getProps(t, cc, "AWS::IAM::Role", "Svc-Role-1"); hasPolicy(m, "Late") {
			t.Errorf("read 1 (Cloud Control, through IAM) sees the write: %v", m["Policies"])
		}
		get := func() string {
			_, err := cl.GetRolePolicy(c, &iam.GetRolePolicyInput{RoleName: aws.String("Svc-Role-1"), PolicyName: aws.String("Late")})
			return code(err)
		}
		if got := get(); got != "NoSuchEntity" {
			t.Errorf("read 2 after the write: %q, want NoSuchEntity", got)
		}
		if got := get(); got != "" {
			t.Errorf("read 3 after the write: %q, want the policy", got)
		}
		if m := getProps(t, cc, "AWS::IAM::Role", "Svc-Role-1"); !hasPolicy(m, "Late") {
			t.Errorf("Cloud Control after the reads caught up: %v", m["Policies"])
		}
	})
	t.Run("s3", func(t *testing.T) {
		cl := s3.NewFromConfig(conf, func(o *s3.Options) { o.UsePathStyle = true })
		put := func(sid string) {
			doc := `{"Version":"2012-10-17","Statement":[{"Sid":"` + sid + `","Effect":"Deny","Principal":"*","Action":"s3:*","Resource":"arn:aws:s3:::svc-bare-1/*"}]}`
			if _, err := cl.PutBucketPolicy(c, &s3.PutBucketPolicyInput{Bucket: aws.String("svc-bare-1"), Policy: aws.String(doc)}); err != nil {
				t.Fatal(err)
			}
		}
		get := func() string {
			out, err := cl.GetBucketPolicy(c, &s3.GetBucketPolicyInput{Bucket: aws.String("svc-bare-1")})
			if err != nil {
				return code(err)
			}
			return aws.ToString(out.Policy)
		}
		put("First")
		if got := get(); got != "NoSuchBucketPolicy" {
			t.Errorf("read 1 after the first write: %q", got)
		}
		put("Second") // while stale: neither write shows for two more reads
		for i := range 2 {
			if got := get(); got != "NoSuchBucketPolicy" {
				t.Errorf("read %d after the second write: %q", i+1, got)
			}
		}
		if got := get(); !strings.Contains(got, `"Second"`) {
			t.Errorf("read 3 after the second write: %q", got)
		}
	})
	t.Run("sqs", func(t *testing.T) {
		q := sqs.NewFromConfig(conf)
		if _, err := q.SetQueueAttributes(c, &sqs.SetQueueAttributesInput{QueueUrl: aws.String(svcQueue), Attributes: map[string]string{"VisibilityTimeout": "91"}}); err != nil {
			t.Fatal(err)
		}
		var got []string
		for range 3 {
			out, err := q.GetQueueAttributes(c, &sqs.GetQueueAttributesInput{QueueUrl: aws.String(svcQueue), AttributeNames: []sqstypes.QueueAttributeName{sqstypes.QueueAttributeNameVisibilityTimeout}})
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, out.Attributes["VisibilityTimeout"])
		}
		if got[0] == "91" || got[1] == "91" || got[2] != "91" {
			t.Errorf("VisibilityTimeout read after the write: %q, want the old value twice, then 91", got)
		}
	})
}

func hasPolicy(role map[string]any, name string) bool {
	ps, _ := role["Policies"].([]any)
	for _, p := range ps {
		if m, _ := p.(map[string]any); m["PolicyName"] == name {
			return true
		}
	}
	return false
}
