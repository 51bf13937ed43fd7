package revert

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/drift"
)

// TestOutcomeJSON: outcomes round-trip through JSON (the service stores
// them between the re-check and the audit); an unknown status is refused.
func TestOutcomeJSON(t *testing.T) {
	want := []Outcome{
		{ID: "Queue VisibilityTimeout", Status: Reverted, Attempts: 1},
		{ID: "Topic DisplayName", Status: StillDrifted, Live: "x", Attempts: 2},
		{ID: "Bucket Policy", Status: Failed, Error: "AccessDenied"},
		{ID: "Role Policies", Status: Planned},
	}
	b, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	var got []Outcome
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(got, want); diff != "" {
		t.Errorf("round trip (-got +want):\n%s", diff)
	}
	var s Status
	for _, bad := range []string{`"unknown"`, `"nope"`, `3`} {
		if err := json.Unmarshal([]byte(bad), &s); err == nil {
			t.Errorf("Unmarshal(%s) = %v, want an error", bad, s)
		}
	}
}

// TestVerify: a written item still read as drifted is re-read (up to
// Rereads more times) until it reads as reverted; one that never does
// stays StillDrifted and says it is written but not confirmed; a failed
// write is never re-read for.
func TestVerify(t *testing.T) {
	p := &Plan{Items: []Item{
		{ID: "Role Policies", Tier: drift.Declared, LogicalID: "Role", Path: "Policies"},
		{ID: "Queue VisibilityTimeout", Tier: drift.Declared, LogicalID: "Queue", Path: "VisibilityTimeout"},
	}}
	writes := []Write{{ID: "Role Policies", Attempts: 1}, {ID: "Queue VisibilityTimeout", Attempts: 1}}
	stale := func(logical, path string) drift.Finding {
		return drift.Finding{Tier: drift.Declared, LogicalID: logical, Path: path, Actual: "old"}
	}
	for _, tc := range []struct {
		name string
		// lag is how many re-checks still read each logical id's old value.
		lag       map[string]int
		wantReads int
		want      map[string]Status
	}{
		{"consistent", nil, 1, map[string]Status{"Role Policies": Reverted, "Queue VisibilityTimeout": Reverted}},
		{"catches up", map[string]int{"Role": 2, "Queue": 1}, 3, map[string]Status{"Role Policies": Reverted, "Queue VisibilityTimeout": Reverted}},
		{"never", map[string]int{"Role": 99}, Rereads + 1, map[string]Status{"Role Policies": StillDrifted, "Queue VisibilityTimeout": Reverted}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			reads := 0
			var slept []time.Duration
			got := Verify(context.Background(), p, writes, VerifyOptions{
				Recheck: func(context.Context) ([]drift.Finding, error) {
					reads++
					var out []drift.Finding
					if reads <= tc.lag["Role"] {
						out = append(out, stale("Role", "Policies"))
					}
					if reads <= tc.lag["Queue"] {
						out = append(out, stale("Queue", "VisibilityTimeout"))
					}
					return out, nil
				},
				Pause: func(i int) time.Duration { return time.Duration(i) * time.Second },
				Sleep: func(_ context.Context, d time.Duration) error { slept = append(slept, d); return nil },
			})
			status := map[string]Status{}
			for _, o := range got {
				status[o.ID] = o.Status
				if o.Status == StillDrifted && !strings.HasPrefix(o.Error, "written, but not confirmed") {
					t.Errorf("%s: error %q does not say it is unconfirmed", o.ID, o.Error)
				}
			}
			if diff := cmp.Diff(status, tc.want); diff != "" {
				t.Errorf("outcomes (-got +want):\n%s", diff)
			}
			if reads != tc.wantReads || len(slept) != reads-1 {
				t.Errorf("%d re-checks, %d pauses; want %d re-checks, one pause before each after the first", reads, len(slept), tc.wantReads)
			}
		})
	}
	failed := []Write{{ID: "Role Policies", Err: errors.New("AccessDenied")}, {ID: "Queue VisibilityTimeout", Attempts: 1}}
	reads := 0
	got := Verify(context.Background(), p, failed, VerifyOptions{Recheck: func(context.Context) ([]drift.Finding, error) {
		reads++
		return []drift.Finding{stale("Role", "Policies")}, nil
	}})
	if reads != 1 || got[0].Status != Failed || got[1].Status != Reverted {
		t.Errorf("a failed write: %d re-checks, outcomes %+v", reads, got)
	}
}
