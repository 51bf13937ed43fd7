package cli

import (
	"encoding/json"
	"testing"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/sandbox"
)

func bucket(logicalID, name string) appResource {
	return appResource{
		logicalID: logicalID, typ: "AWS::S3::Bucket", physicalID: name,
		declared: map[string]any{"VersioningConfiguration": map[string]any{"Status": "Enabled"}},
		live: map[string]any{
			"BucketName": name, "Arn": "arn:aws:s3:::" + name,
			"VersioningConfiguration": map[string]any{"Status": "Enabled"},
		},
	}
}

func bucketPolicy(name, sid string) json.RawMessage {
	b, _ := json.Marshal(map[string]any{"Bucket": name, "PolicyDocument": map[string]any{"Version": "2012-10-17", "Statement": []any{
		map[string]any{"Sid": sid, "Effect": "Allow", "Principal": "*", "Action": "s3:GetObject", "Resource": "arn:aws:s3:::" + name + "/*"},
	}}})
	return b
}

// TestCheckAddedChildren: an out-of-band bucket policy is an added child;
// unrecorded it is potential drift, recorded it is suppressed, changed it
// is drift, and a new one under a parent whose children were all recorded
// is "appeared since record".
func TestCheckAddedChildren(t *testing.T) {
	env := startSandbox(t, appWorld(t, map[string][]appResource{"Store": {
		bucket("Data", "store-data-1"), bucket("Logs", "store-logs-1"),
	}}), testKey, testRegion)
	addedOf := func(rep jsonReport, parent string) (drift.Finding, bool) {
		for _, s := range rep.Stacks {
			for _, f := range s.Findings {
				if (f.Tier == drift.Added || f.Tier == drift.Ignored) && len(f.LogicalID) > len(parent) && f.LogicalID[:len(parent)+1] == parent+"/" {
					return f, true
				}
			}
		}
		return drift.Finding{}, false
	}
	env.change(sandbox.Change{Op: sandbox.OpAdd, Type: "AWS::S3::BucketPolicy", Identifier: "store-data-1", Properties: bucketPolicy("store-data-1", "Read")})
	rep, errs, code := env.checkJSON("Store", "--fail")
	f, ok := addedOf(rep, "Data")
	if code != ExitOK || !ok || !f.Unrecorded {
		t.Fatalf("unrecorded added child: exit %d finding %+v ok %v\n%s", code, f, ok, errs)
	}
	if _, errs, code := env.run("record", "Store", "--yes"); code != ExitOK {
		t.Fatalf("record: exit %d\n%s", code, errs)
	}
	if rep, _, code := env.checkJSON("Store", "--fail"); code != ExitOK {
		t.Errorf("recorded child: exit %d %v", code, rep.briefs())
	}
	env.change(sandbox.Change{Op: sandbox.OpSet, Type: "AWS::S3::BucketPolicy", Identifier: "store-data-1", Path: "PolicyDocument.Statement.0.Action", Value: json.RawMessage(`"s3:*"`)})
	rep, _, code = env.checkJSON("Store", "--fail")
	if f, ok := addedOf(rep, "Data"); code != ExitDrift || !ok || f.Note != "changed since record" {
		t.Errorf("changed child: exit %d finding %+v", code, f)
	}
	env.run("record", "Store", "--yes")
	env.change(sandbox.Change{Op: sandbox.OpAdd, Type: "AWS::S3::BucketPolicy", Identifier: "store-logs-1", Properties: bucketPolicy("store-logs-1", "Logs")})
	rep, _, code = env.checkJSON("Store", "--fail")
	if f, ok := addedOf(rep, "Logs"); code != ExitDrift || !ok || f.Note != "appeared since record" {
		t.Errorf("new child after record: exit %d finding %+v ok %v", code, f, ok)
	}
	// An ignore rule on the child's synthesized id silences it.
	env.writeState("ignore.yaml", "ignore:\n  - path: 'Logs/*'\n")
	rep, _, code = env.checkJSON("Store", "--fail")
	if f, ok := addedOf(rep, "Logs"); code != ExitOK || !ok || f.Tier != drift.Ignored {
		t.Errorf("ignored child: exit %d finding %+v", code, f)
	}
}

// TestCheckObservedDefaultDeleted: a public-access block at its default is
// folded, recorded as observed, and its out-of-band deletion is drift.
func TestCheckObservedDefaultDeleted(t *testing.T) {
	b := bucket("Data", "store-data-1")
	b.live["PublicAccessBlockConfiguration"] = map[string]any{
		"BlockPublicAcls": true, "BlockPublicPolicy": true, "IgnorePublicAcls": true, "RestrictPublicBuckets": true,
	}
	env := startSandbox(t, appWorld(t, map[string][]appResource{"Store": {b}}), testKey, testRegion)
	rep, _, _ := env.checkJSON("Store")
	if f, ok := rep.find("Data", "PublicAccessBlockConfiguration"); !ok || f.Tier != drift.AtDefault {
		t.Fatalf("public access block: %+v, want atDefault", f)
	}
	if _, errs, code := env.run("record", "Store", "--yes"); code != ExitOK {
		t.Fatalf("record: exit %d\n%s", code, errs)
	}
	env.change(sandbox.Change{Op: sandbox.OpRemove, Type: "AWS::S3::Bucket", Identifier: "store-data-1", Path: "PublicAccessBlockConfiguration"})
	rep, errs, code := env.checkJSON("Store", "--fail")
	f, ok := rep.find("Data", "PublicAccessBlockConfiguration")
	if code != ExitDrift || !ok || f.Tier != drift.Undeclared || f.Note != "observed default deleted since record" {
		t.Errorf("deleted block: exit %d finding %+v ok %v\n%s", code, f, ok, errs)
	}
}
