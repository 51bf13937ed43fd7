package sandbox_test

import (
	"io"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/realdrift/realdrift/internal/sandbox"
)

// TestS3Objects: an object put into a bucket of the account reads back
// whole; a missing key is NoSuchKey, a missing bucket NoSuchBucket.
func TestS3Objects(t *testing.T) {
	_, u := start(t, "testdata/services.json", sandbox.Options{})
	c := ctx(t)
	cl := s3.NewFromConfig(cfg(u, mgmtKey, "us-east-1"), func(o *s3.Options) { o.UsePathStyle = true })
	body := `[{"account":"111111111111","region":"us-east-1","stack":"A"}]`
	if _, err := cl.PutObject(c, &s3.PutObjectInput{Bucket: aws.String("svc-bucket-1"), Key: aws.String("runs/r1/111111111111/us-east-1/targets.json"), Body: strings.NewReader(body)}); err != nil {
		t.Fatal(err)
	}
	out, err := cl.GetObject(c, &s3.GetObjectInput{Bucket: aws.String("svc-bucket-1"), Key: aws.String("runs/r1/111111111111/us-east-1/targets.json")})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(out.Body)
	out.Body.Close()
	if string(got) != body {
		t.Errorf("object = %s, want %s", got, body)
	}
	if _, err := cl.GetObject(c, &s3.GetObjectInput{Bucket: aws.String("svc-bucket-1"), Key: aws.String("runs/none")}); code(err) != "NoSuchKey" {
		t.Errorf("missing key: %v", err)
	}
	if _, err := cl.PutObject(c, &s3.PutObjectInput{Bucket: aws.String("nope-bucket"), Key: aws.String("k"), Body: strings.NewReader("x")}); code(err) != "NoSuchBucket" {
		t.Errorf("missing bucket: %v", err)
	}
}
