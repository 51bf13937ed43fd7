package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"regexp"
	"testing"
	"time"
)

// TestASFF: every drift finding becomes an ASFF finding with the fields
// BatchImportFindings requires, ids stable across runs, failed stacks and
// informational tiers left out except one INFORMATIONAL finding per
// resource not read.
func TestASFF(t *testing.T) {
	at := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	stacks := []Stack{{Ref: prod, Findings: mixed()}, {Ref: dev, Err: errors.New("boom")}}
	var a, b bytes.Buffer
	if err := ASFF(&a, stacks, at); err != nil {
		t.Fatal(err)
	}
	if err := ASFF(&b, stacks, at.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	var got, again []map[string]any
	if err := json.Unmarshal(a.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b.Bytes(), &again); err != nil {
		t.Fatal(err)
	}
	sum := Summarize(stacks[0])
	if len(got) != sum.Drifted+sum.Potential+sum.Unread || len(got) == 0 {
		t.Fatalf("%d findings, want %d", len(got), sum.Drifted+sum.Potential+sum.Unread)
	}
	required := []string{"SchemaVersion", "Id", "ProductArn", "GeneratorId", "AwsAccountId", "Types", "CreatedAt", "UpdatedAt", "Severity", "Title", "Description", "Resources"}
	arn := regexp.MustCompile(`^arn:aws:securityhub:[a-z0-9-]+:\d{12}:product/\d{12}/default$`)
	for i, f := range got {
		for _, k := range required {
			if _, ok := f[k]; !ok {
				t.Errorf("finding %d lacks %s", i, k)
			}
		}
		if f["SchemaVersion"] != "2018-10-08" || !arn.MatchString(f["ProductArn"].(string)) || f["CreatedAt"] != "2030-01-02T03:04:05Z" {
			t.Errorf("finding %d: %v %v %v", i, f["SchemaVersion"], f["ProductArn"], f["CreatedAt"])
		}
		if f["Id"] != again[i]["Id"] {
			t.Errorf("finding %d: id changed between runs", i)
		}
		if f["AwsAccountId"] != prod.Account {
			t.Errorf("finding %d of another stack: %v", i, f["AwsAccountId"])
		}
	}
}
