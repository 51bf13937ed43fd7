package scan_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/sandbox/worldgen"
	"github.com/realdrift/realdrift/internal/scan"
)

// TestNestedThroughSandbox: through the production clients, the nested
// world lists depth first with its nesting; the parent's check names its
// nested stacks; and the Web stack resource's parameter echo is no drift:
// the nested default the parent does not pass (potential drift on its
// own) is atDefault, the NoEcho parameter it passes, masked, a readGap
// that shows no value — Check's AccountFacts read that nested template's
// parameters (and no other nested template) for the classifier.
func TestNestedThroughSandbox(t *testing.T) {
	w, err := worldgen.Nested()
	if err != nil {
		t.Fatal(err)
	}
	_, url := startSandbox(t, w)
	c := clients(t, url, worldgen.NestedAccessKey)
	ctx := testCtx(t)
	listed, err := scan.ListStackTree(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	ids := map[string]string{}
	for _, s := range listed {
		names = append(names, s.Name)
		ids[s.Name] = s.ID
	}
	n := worldgen.NestedStackNames()
	if d := cmp.Diff(names, n); d != "" {
		t.Fatalf("listing (-got +want):\n%s", d)
	}
	if listed[2].ParentID != ids[n[1]] || listed[2].RootID != ids[n[0]] {
		t.Errorf("%s: parent %s root %s", n[2], listed[2].ParentID, listed[2].RootID)
	}

	res, err := scan.Check(ctx, c, drift.StackRef{Name: n[0], Region: worldgen.NestedRegion}, scan.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []scan.Nested{{LogicalID: "QueuesStack", StackID: ids[n[1]]}, {LogicalID: "WebStack", StackID: ids[n[3]]}}
	if d := cmp.Diff(scan.NestedStacks(res.Desired), want); d != "" {
		t.Errorf("nested stacks (-got +want):\n%s", d)
	}
	tier := func(fs []drift.Finding, path string) drift.Tier {
		for _, f := range fs {
			if f.LogicalID == "WebStack" && f.Path == path {
				return f.Tier
			}
		}
		t.Fatalf("no %s finding on WebStack: %+v", path, fs)
		return 0
	}
	if got := tier(res.Findings, "Parameters.Mode"); got != drift.AtDefault {
		t.Errorf("WebStack's Mode echo: %s, want atDefault (the nested template's default, read by AccountFacts)", got)
	}
	if got := tier(res.Findings, "Parameters.ApiToken"); got != drift.ReadGap {
		t.Errorf("WebStack's masked NoEcho ApiToken: %s, want readGap", got)
	}
	if b, _ := json.Marshal(res.Findings); strings.Contains(string(b), worldgen.NestedWebToken) {
		t.Error("a finding holds the NoEcho parameter's value")
	}
	// Only the nested stack whose resource echoes something the parent
	// does not pass had its template read.
	var read []string
	for arn := range res.Desired.NestedParameters {
		read = append(read, arn)
	}
	if d := cmp.Diff(read, []string{ids[n[3]]}); d != "" {
		t.Errorf("nested templates read (-got +want):\n%s", d)
	}
	if p := res.Desired.NestedParameters[ids[n[3]]]["Mode"]; p.Default == nil || *p.Default != "blue" {
		t.Errorf("WebStack's Mode parameter: %+v, want default blue", p)
	}
}
