package revert

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
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
