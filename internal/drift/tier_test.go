package drift

import (
	"encoding/json"
	"testing"
)

func TestTierRoundTrip(t *testing.T) {
	for _, tier := range Tiers() {
		b, err := json.Marshal(tier)
		if err != nil {
			t.Fatalf("marshal %v: %v", tier, err)
		}
		var got Tier
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatalf("unmarshal %s: %v", b, err)
		}
		if got != tier {
			t.Errorf("round trip %v: got %v", tier, got)
		}
	}
	if _, err := ParseTier("drifty"); err == nil {
		t.Error("ParseTier accepted an unknown name")
	}
	if _, err := json.Marshal(TierUnknown); err == nil {
		t.Error("marshal accepted TierUnknown")
	}
}

func TestFindingJSONOmitsAbsent(t *testing.T) {
	f := Finding{Tier: AtDefault, LogicalID: "Q", ResourceType: "AWS::SQS::Queue", PhysicalID: "p", Path: "DelaySeconds", Actual: 0.0}
	b, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	got := string(b)
	want := `{"tier":"atDefault","logicalId":"Q","resourceType":"AWS::SQS::Queue","physicalId":"p","path":"DelaySeconds","actual":0}`
	if got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
}

func TestIsDrift(t *testing.T) {
	drift := map[Tier]bool{Deleted: true, Declared: true, Undeclared: true, Added: true}
	for _, tier := range Tiers() {
		if tier.IsDrift() != drift[tier] {
			t.Errorf("%v.IsDrift() = %v", tier, tier.IsDrift())
		}
	}
}
