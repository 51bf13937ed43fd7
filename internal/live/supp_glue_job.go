package live

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/smithy-go"
)

// AWS::Glue::Job: ScriptSha256 is a synthetic property (no schema has
// it): the SHA-256 (lower-case hex) of the ETL script the job runs, the
// object at the live model's Command.ScriptLocation (s3://bucket/key),
// read with S3 GetObject. Glue answers only the script's location, so a
// script replaced at the same key is otherwise invisible. The classifier
// treats the hash as generated (the anchor's GENERATED_TOPLEVEL_PATHS):
// shown, never drift on a first check; a recorded baseline keeps it
// (a recordable generated path, with the declared ScriptLocation as its
// source fingerprint) and tells a later change of the script by it.
//
// The hash is best effort and never a false finding:
//   - a job with no, or no s3://, script location, and a script object
//     (or bucket) that does not exist, have no script to hash: the hash is
//     simply absent;
//   - any other failure of the read (s3:GetObject denied — the service's
//     member read role denies it, infra/member.go dataReadDenials —,
//     throttled, a script larger than maxScriptBytes) leaves the hash
//     unread: the supplement fails, and the read reports ScriptSha256 on
//     Result.Unread, which the scan shows as one informational readGap
//     (never drift, never silent).

var glueJobProps = []string{"ScriptSha256"}

// maxScriptBytes bounds the script read for hashing.
const maxScriptBytes = 32 << 20

// readGlueJobSupplement hashes the script the live model points at.
func readGlueJobSupplement(ctx context.Context, c *Clients, _ Request, model map[string]any) (map[string]any, error) {
	cmd, _ := model["Command"].(map[string]any)
	loc, _ := cmd["ScriptLocation"].(string)
	bucket, key, ok := s3Location(loc)
	if !ok {
		return map[string]any{}, nil
	}
	if c.S3 == nil {
		return nil, skip("no S3 client")
	}
	out, err := c.S3.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String(bucket), Key: aws.String(key)})
	if err != nil {
		if noObject(err) {
			return map[string]any{}, nil
		}
		return nil, fmt.Errorf("read the script %s: %w", loc, err)
	}
	defer out.Body.Close()
	h := sha256.New()
	n, err := io.Copy(h, io.LimitReader(out.Body, maxScriptBytes+1))
	if err != nil {
		return nil, fmt.Errorf("read the script %s: %w", loc, err)
	}
	if n > maxScriptBytes {
		return nil, skip(fmt.Sprintf("the script %s is larger than %d bytes", loc, maxScriptBytes))
	}
	return map[string]any{"ScriptSha256": hex.EncodeToString(h.Sum(nil))}, nil
}

// s3Location splits s3://bucket/key.
func s3Location(loc string) (bucket, key string, ok bool) {
	rest, ok := strings.CutPrefix(loc, "s3://")
	if !ok {
		return "", "", false
	}
	bucket, key, ok = strings.Cut(rest, "/")
	return bucket, key, ok && bucket != "" && key != ""
}

// noObject reports an S3 answer that the object or its bucket does not
// exist.
func noObject(err error) bool {
	var ae smithy.APIError
	if !errors.As(err, &ae) {
		return false
	}
	switch ae.ErrorCode() {
	case "NoSuchKey", "NoSuchBucket", "NotFound":
		return true
	}
	return false
}
