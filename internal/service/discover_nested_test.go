package service_test

import (
	"fmt"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/sandbox/worldgen"
	"github.com/realdrift/realdrift/internal/service"
	"github.com/realdrift/realdrift/statemachine"
)

// TestDiscoverNestedStacks: discovery finds the nested stacks of each
// stack (the listing's ParentId) and targets every stack once, each nested
// stack right after the stack it is nested in, depth first — not twice
// although the listing returns the nested stacks too.
func TestDiscoverNestedStacks(t *testing.T) {
	w, err := worldgen.Nested()
	if err != nil {
		t.Fatal(err)
	}
	sb, err := sandbox.New(w, sandbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(sb)
	t.Cleanup(func() { srv.Close(); sb.Close() })
	ddbURL := dynamoLocal.Endpoint(t, "discovery of nested stacks")
	ctx := t.Context()
	set := service.Settings{
		Table:       fmt.Sprintf("realdrift-nested-%d", time.Now().UnixNano()),
		Regions:     []string{worldgen.NestedRegion},
		Endpoints:   service.Endpoints{Default: srv.URL, DynamoDB: ddbURL},
		AccessKeyID: worldgen.NestedAccessKey, SecretAccessKey: "nested-secret",
	}
	cfg, _ := tableConfig(t, set, worldgen.NestedRegion, ddbURL, set.Table)
	svc, err := service.New(cfg, set)
	if err != nil {
		t.Fatal(err)
	}
	out, err := svc.Discover(ctx, statemachine.DiscoverTask{RunID: "run-nested", Account: worldgen.NestedAccount})
	if err != nil {
		t.Fatal(err)
	}
	got, ok := out.(statemachine.DiscoveredTargets)
	if !ok {
		t.Fatalf("Discover returned %T", out)
	}
	var want []drift.StackRef
	for _, n := range worldgen.NestedStackNames() {
		want = append(want, drift.StackRef{Account: worldgen.NestedAccount, Region: worldgen.NestedRegion, Name: n})
	}
	if d := cmp.Diff(got.All(), want); d != "" {
		t.Errorf("targets (-got +want):\n%s", d)
	}
}
