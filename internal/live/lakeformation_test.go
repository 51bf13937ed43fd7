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

func TestLakeFormationResourceRoundTrip(t *testing.T) {
	const lf = `{"ResourceArn":"arn:aws:s3:::datalake-raw","RoleArn":"arn:aws:iam::111111111111:role/lf","WithFederation":false,"HybridAccessEnabled":true}`
	srv, url := serve(t, worldOf(liveOnly("AWS::LakeFormation::Resource", "Stack-Lf-1", lf)))
	c := live.NewClients(config(url))
	declared := declaredOf(t, lf)
	declared["UseServiceLinkedRole"] = false // not readable: a readGap
	req := live.Request{Type: "AWS::LakeFormation::Resource", LogicalID: "Lf", PhysicalID: "Stack-Lf-1", Declared: declared}
	got := live.Read(ctx(t), c, req)
	if got.Status != live.Found || got.Route != live.RouteOverride {
		t.Fatalf("read: %+v", got)
	}
	if diff := cmp.Diff(got.Model, declaredOf(t, lf)); diff != "" {
		t.Errorf("model (-got +want):\n%s", diff)
	}
	if fs := classifyEntry(t, req, got.Model); len(fs) != 0 {
		t.Errorf("clean read classified as %+v", fs)
	}
	if err := srv.Apply(sandbox.Change{Op: sandbox.OpSet, Region: region, Type: req.Type, Identifier: "Stack-Lf-1", Path: "HybridAccessEnabled", Value: json.RawMessage(`false`)}); err != nil {
		t.Fatal(err)
	}
	fs := classifyEntry(t, req, live.Read(ctx(t), c, req).Model)
	if len(fs) != 1 || fs[0].Tier != drift.Declared || fs[0].Path != "HybridAccessEnabled" {
		t.Errorf("hybrid access changed out of band: %+v, want one declared finding", fs)
	}
	if got := live.Read(ctx(t), c, live.Request{Type: req.Type, PhysicalID: "x", Declared: map[string]any{"ResourceArn": "arn:aws:s3:::other"}}); got.Status != live.NotFound {
		t.Errorf("unregistered location: %+v, want notFound", got)
	}
	if err := srv.SetFaults([]sandbox.FaultRule{{Service: "lakeformation", Action: "DescribeResource", Code: "AccessDeniedException", Status: 403}}); err != nil {
		t.Fatal(err)
	}
	if got := live.Read(ctx(t), c, req); got.Status != live.Skipped || !strings.HasPrefix(got.Reason, "LakeFormation DescribeResource: AccessDeniedException") {
		t.Errorf("denied: %+v", got)
	}
}
