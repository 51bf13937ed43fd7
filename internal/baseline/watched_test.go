package baseline

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/realdrift/realdrift/internal/drift"
)

const rdsType = "AWS::RDS::DBInstance"

func atDef(lid, path string, actual any) drift.Finding {
	return withTier(und(lid, rdsType, path, actual), drift.AtDefault)
}

// recordThenCheck records first on a fresh baseline, round-trips it
// through the file format, and applies it to then.
func recordThenCheck(t *testing.T, first, then []drift.Finding, resources ...Resource) Result {
	t.Helper()
	b := Record(nil, snap(first, resources...), Options{})
	data, err := Encode(b)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Decode("b.json", data, stackS)
	if err != nil {
		t.Fatal(err)
	}
	return Apply(got, Input{Findings: then, Resources: resources}, Options{})
}

func TestWatched(t *testing.T) {
	db := res("Db", rdsType, map[string]any{"Engine": "postgres", "Backup": map[string]any{"Declared": "x"}})
	window := map[string]any{"Day": "sun", "Start": "05:00"}
	tests := []struct {
		name        string
		first, then []drift.Finding
		want        []drift.Finding
	}{
		{
			name:  "an AWS-assigned value unchanged stays atDefault",
			first: []drift.Finding{atDef("Db", "AvailabilityZone", "us-east-1a")},
			then:  []drift.Finding{atDef("Db", "AvailabilityZone", "us-east-1a")},
			want:  []drift.Finding{atDef("Db", "AvailabilityZone", "us-east-1a")},
		},
		{
			name:  "an AWS-assigned value changed but still folded is drift",
			first: []drift.Finding{atDef("Db", "AvailabilityZone", "us-east-1a")},
			then:  []drift.Finding{atDef("Db", "AvailabilityZone", "us-east-1b")},
			want:  []drift.Finding{withNote(und("Db", rdsType, "AvailabilityZone", "us-east-1b"), NoteChanged, "us-east-1a")},
		},
		{
			name:  "a generated value changed is drift",
			first: []drift.Finding{withTier(und("Db", rdsType, "DbiResourceId", "db-ABC"), drift.Generated)},
			then:  []drift.Finding{withTier(und("Db", rdsType, "DbiResourceId", "db-ABD"), drift.Generated)},
			want:  []drift.Finding{withNote(und("Db", rdsType, "DbiResourceId", "db-ABD"), NoteChanged, "db-ABC")},
		},
		{
			name:  "a watched object reported whole again, equal, stays quiet",
			first: []drift.Finding{atDef("Db", "Window", window)},
			then:  []drift.Finding{atDef("Db", "Window", map[string]any{"Start": "05:00", "Day": "sun"})},
			want:  []drift.Finding{atDef("Db", "Window", window)},
		},
		{
			name:  "a watched object changed inside is drift at the object, the watched object as Desired",
			first: []drift.Finding{atDef("Db", "Window", window)},
			then:  []drift.Finding{atDef("Db", "Window", map[string]any{"Day": "mon", "Start": "05:00"})},
			want:  []drift.Finding{withNote(und("Db", rdsType, "Window", map[string]any{"Day": "mon", "Start": "05:00"}), NoteChanged, window)},
		},
		{
			name:  "a watched key the classifier no longer reports (emptied) is drift at the key",
			first: []drift.Finding{atDef("Db", "Window", map[string]any{"Enabled": true, "Start": "05:00"})},
			then:  []drift.Finding{atDef("Db", "Window.Start", "05:00")},
			want: []drift.Finding{
				atDef("Db", "Window.Start", "05:00"),
				{Tier: drift.Undeclared, LogicalID: "Db", ResourceType: rdsType, PhysicalID: "p-Db", Path: "Window.Enabled", Desired: true, Note: NoteChanged},
			},
		},
		{
			name:  "a watched value now reported undeclared: equal is quiet",
			first: []drift.Finding{atDef("Db", "StorageType", "gp2")},
			then:  []drift.Finding{und("Db", rdsType, "StorageType", "gp2")},
			want:  nil,
		},
		{
			name:  "a watched value now reported undeclared and different is changed since record",
			first: []drift.Finding{atDef("Db", "StorageType", "gp2")},
			then:  []drift.Finding{und("Db", rdsType, "StorageType", "gp3")},
			want:  []drift.Finding{withNote(und("Db", rdsType, "StorageType", "gp3"), NoteChanged, "gp2")},
		},
		{
			name:  "a watched leaf the template now declares is the declared tier's",
			first: []drift.Finding{atDef("Db", "Backup.Declared", "x")},
			then:  []drift.Finding{atDef("Db", "Backup.Other", "y")},
			want:  []drift.Finding{atDef("Db", "Backup.Other", "y")},
		},
		{
			name:  "an undeclared watched leaf inside a declared object that vanished is drift",
			first: []drift.Finding{atDef("Db", "Backup.Window", "05:00")},
			then:  []drift.Finding{atDef("Db", "Backup.Other", "y")},
			want: []drift.Finding{
				atDef("Db", "Backup.Other", "y"),
				{Tier: drift.Undeclared, LogicalID: "Db", ResourceType: rdsType, PhysicalID: "p-Db", Path: "Backup.Window", Desired: "05:00", Note: NoteChanged},
			},
		},
		{
			name:  "a watched leaf read-gapped is not reported",
			first: []drift.Finding{atDef("Db", "Window", window)},
			then:  []drift.Finding{{Tier: drift.ReadGap, LogicalID: "Db", ResourceType: rdsType, Path: "Window"}},
			want:  []drift.Finding{{Tier: drift.ReadGap, LogicalID: "Db", ResourceType: rdsType, Path: "Window"}},
		},
		{
			name:  "a resource not read keeps its watched values quiet",
			first: []drift.Finding{atDef("Db", "AvailabilityZone", "us-east-1a")},
			then:  []drift.Finding{{Tier: drift.Skipped, LogicalID: "Db", ResourceType: rdsType, Reason: "denied"}},
			want:  []drift.Finding{{Tier: drift.Skipped, LogicalID: "Db", ResourceType: rdsType, Reason: "denied"}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := recordThenCheck(t, tc.first, tc.then, db).Findings
			if diff := cmp.Diff(got, tc.want); diff != "" {
				t.Errorf("findings (-got +want):\n%s", diff)
			}
		})
	}
}

// TestWatchedFirstCheck: without a baseline nothing changes — an
// AWS-assigned value is atDefault on a first check.
func TestWatchedFirstCheck(t *testing.T) {
	in := []drift.Finding{atDef("Db", "AvailabilityZone", "us-east-1a")}
	got := Apply(nil, Input{Findings: in, Resources: []Resource{res("Db", rdsType, nil)}}, Options{}).Findings
	if diff := cmp.Diff(got, in); diff != "" {
		t.Errorf("findings (-got +want):\n%s", diff)
	}
}

func TestRecordWatched(t *testing.T) {
	db := res("Db", rdsType, nil)
	first := []drift.Finding{
		atDef("Db", "Window", map[string]any{"Day": "sun", "Auth": drift.Secret{Value: "pw"}, "Token": drift.Redacted}),
		atDef("Db", "Zone", "us-east-1a"),
		atDef("Db", "Pending", drift.Unknown{}),
		withTier(und("Fn", fnType, "CodeSha256", "sha"), drift.Generated), // a recorded entry, not watched
		und("Db", rdsType, "Tags", []any{"x"}),                            // recorded, not watched
	}
	b := Record(nil, snap(first, db, res("Fn", fnType, map[string]any{"Code": map[string]any{"S3Key": "k"}})), Options{})
	want := []Entry{
		{LogicalID: "Db", ResourceType: rdsType, Path: "Window.Day", Value: "sun"},
		{LogicalID: "Db", ResourceType: rdsType, Path: "Zone", Value: "us-east-1a"},
	}
	if diff := cmp.Diff(b.Watched, want); diff != "" {
		t.Errorf("watched (-got +want):\n%s", diff)
	}
	data, err := Encode(b)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "pw") || strings.Contains(string(data), drift.Redacted) {
		t.Errorf("a secret reached the file:\n%s", data)
	}

	t.Run("a declined change keeps the watched value; an unread resource carries it", func(t *testing.T) {
		then := []drift.Finding{atDef("Db", "Zone", "us-east-1b"), atDef("Db", "Window", map[string]any{"Day": "mon"})}
		s := snap(then, db)
		s.Select = func(lid, path string) bool { return path != "Zone" }
		next := Record(b, s, Options{})
		want := []Entry{
			{LogicalID: "Db", ResourceType: rdsType, Path: "Window.Day", Value: "mon"},
			{LogicalID: "Db", ResourceType: rdsType, Path: "Zone", Value: "us-east-1a"},
		}
		if diff := cmp.Diff(next.Watched, want); diff != "" {
			t.Errorf("declined (-got +want):\n%s", diff)
		}
		unread := Record(b, snap([]drift.Finding{{Tier: drift.Skipped, LogicalID: "Db", ResourceType: rdsType}}, db), Options{})
		if diff := cmp.Diff(unread.Watched, b.Watched); diff != "" {
			t.Errorf("unread (-got +want):\n%s", diff)
		}
	})
}

// TestWatchedFormat: the field is read in both schema versions, strictly.
func TestWatchedFormat(t *testing.T) {
	doc := func(version, watched string) []byte {
		return []byte(`{"schemaVersion": ` + version + `, "stackName": "S", "region": "us-east-1", "accountId": "111111111111",
 "capturedAt": "2026-11-30T05:00:00Z", "recorded": [], "watched": ` + watched + `}`)
	}
	ok := `[{"logicalId": "Db", "resourceType": "AWS::RDS::DBInstance", "path": "Zone", "value": "us-east-1a"}]`
	for _, v := range []string{"1", "2"} {
		b, err := Decode("b.json", doc(v, ok), stackS)
		if err != nil {
			t.Fatalf("v%s: %v", v, err)
		}
		if len(b.Watched) != 1 || b.Watched[0].Value != "us-east-1a" {
			t.Errorf("v%s: watched %+v", v, b.Watched)
		}
	}
	for name, w := range map[string]string{
		"unknown field": `[{"logicalId": "Db", "resourceType": "T", "path": "Zone", "value": 1, "extra": 1}]`,
		"null value":    `[{"logicalId": "Db", "resourceType": "T", "path": "Zone", "value": null}]`,
		"no path":       `[{"logicalId": "Db", "resourceType": "T", "value": 1}]`,
		"duplicate":     `[{"logicalId": "Db", "resourceType": "T", "path": "Zone", "value": 1}, {"logicalId": "Db", "resourceType": "T", "path": "Zone", "value": 2}]`,
	} {
		if _, err := Decode("b.json", doc("2", w), stackS); err == nil {
			t.Errorf("%s: decoded", name)
		}
	}
}
