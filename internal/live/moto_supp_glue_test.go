package live_test

import (
	"bytes"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/glue"
	gluetypes "github.com/aws/aws-sdk-go-v2/service/glue/types"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/realdrift/realdrift/internal/live"
)

// TestMotoGlueJobSupplement: moto 5.2.1 serves Glue jobs and S3 objects
// (the other three supplements of this family of changes — Elastic
// Beanstalk's DescribeConfigurationSettings, Redshift Serverless, ELBv2
// trust stores — it does not serve). The job and its script are created
// in moto; the Cloud Control model is the job as GetJob answers it, and
// the supplement hashes the script moto serves.
func TestMotoGlueJobSupplement(t *testing.T) {
	cfg := motoConfig(t)
	cx := ctx(t)
	sc := s3.NewFromConfig(cfg, func(o *s3.Options) { o.UsePathStyle = true })
	if _, err := sc.CreateBucket(cx, &s3.CreateBucketInput{Bucket: aws.String("moto-scripts")}); err != nil {
		t.Fatal(err)
	}
	script := []byte("import sys\nprint(sys.argv)\n")
	if _, err := sc.PutObject(cx, &s3.PutObjectInput{Bucket: aws.String("moto-scripts"), Key: aws.String("jobs/etl.py"), Body: bytes.NewReader(script)}); err != nil {
		t.Fatal(err)
	}
	gc := glue.NewFromConfig(cfg)
	if _, err := gc.CreateJob(cx, &glue.CreateJobInput{Name: aws.String("moto-etl"), Role: aws.String("arn:aws:iam::" + acct + ":role/glue"),
		Command: &gluetypes.JobCommand{Name: aws.String("glueetl"), ScriptLocation: aws.String("s3://moto-scripts/jobs/etl.py")}}); err != nil {
		t.Fatal(err)
	}
	job, err := gc.GetJob(cx, &glue.GetJobInput{JobName: aws.String("moto-etl")})
	if err != nil {
		t.Fatal(err)
	}
	cc := `{"Name":"moto-etl","Role":"arn:aws:iam::` + acct + `:role/glue","Command":{"Name":"glueetl","ScriptLocation":"` + aws.ToString(job.Job.Command.ScriptLocation) + `"}}`
	use := func(c *live.Clients) { c.S3 = sc }
	got := supplementedFromMoto(t, live.Request{Type: "AWS::Glue::Job", PhysicalID: "moto-etl"}, cc, use)
	if got.Status != live.Found || got.Model["ScriptSha256"] != sha256Hex(script) {
		t.Errorf("read: %+v, want ScriptSha256 %s", got, sha256Hex(script))
	}
	// A job pointing at a key moto does not hold has no hash, and
	// nothing unread.
	got = supplementedFromMoto(t, live.Request{Type: "AWS::Glue::Job", PhysicalID: "moto-etl"}, `{"Name":"moto-etl","Command":{"Name":"glueetl","ScriptLocation":"s3://moto-scripts/jobs/gone.py"}}`, use)
	if _, ok := got.Model["ScriptSha256"]; got.Status != live.Found || ok || len(got.Unread) != 0 {
		t.Errorf("missing script: %+v", got)
	}
}
