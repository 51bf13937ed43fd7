package live_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/sandbox"
)

// moto 5.2.1 has no MediaConvert: the reader is checked against the
// sandbox and the AWS CLI check only.
func TestMediaConvertQueueRoundTrip(t *testing.T) {
	const queue = `{"Name":"transcode","Description":"hd jobs","PricingPlan":"ON_DEMAND","Status":"ACTIVE","ConcurrentJobs":5,"Tags":{"team":"video"}}`
	srv, url := serve(t, worldOf(liveOnly("AWS::MediaConvert::Queue", "transcode", queue)))
	c := live.NewClients(config(url))
	req := live.Request{Type: "AWS::MediaConvert::Queue", LogicalID: "Queue", PhysicalID: "transcode", Declared: declaredOf(t, queue)}
	got := live.Read(ctx(t), c, req)
	if got.Status != live.Found || got.Route != live.RouteOverride {
		t.Fatalf("read: %+v", got)
	}
	if diff := cmp.Diff(got.Model, declaredOf(t, queue)); diff != "" {
		t.Errorf("model (-got +want):\n%s", diff)
	}
	if fs := classifyEntry(t, req, got.Model); len(fs) != 0 {
		t.Errorf("clean read classified as %+v", fs)
	}
	if err := srv.Apply(sandbox.Change{Op: sandbox.OpSet, Region: region, Type: req.Type, Identifier: "transcode", Path: "Status", Value: json.RawMessage(`"PAUSED"`)}); err != nil {
		t.Fatal(err)
	}
	fs := classifyEntry(t, req, live.Read(ctx(t), c, req).Model)
	if len(fs) != 1 || fs[0].Tier != drift.Declared || fs[0].Path != "Status" {
		t.Errorf("queue paused out of band: %+v, want one declared finding on Status", fs)
	}
	if got := live.Read(ctx(t), c, live.Request{Type: req.Type, PhysicalID: "gone"}); got.Status != live.NotFound {
		t.Errorf("missing queue: %+v, want notFound", got)
	}
	if err := srv.SetFaults([]sandbox.FaultRule{{Service: "mediaconvert", Action: "ListTagsForResource", Code: "ForbiddenException", Status: 403}}); err != nil {
		t.Fatal(err)
	}
	if got := live.Read(ctx(t), c, req); got.Status != live.Skipped || !strings.HasPrefix(got.Reason, "MediaConvert ListTagsForResource: ForbiddenException") {
		t.Errorf("tags denied: %+v, want skipped", got)
	}
}
