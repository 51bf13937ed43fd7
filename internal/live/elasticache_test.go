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

// moto 5.2.1 serves no ElastiCache parameter groups (no
// CreateCacheParameterGroup, DescribeCacheParameters): the reader is
// checked against the sandbox only, and the AWS CLI check parses the
// sandbox's answers.

const cachePG = `{"CacheParameterGroupName":"app-redis7","CacheParameterGroupFamily":"redis7","Description":"app cache","Properties":{"maxmemory-policy":"allkeys-lru","timeout":"300"},"Tags":[{"Key":"team","Value":"web"}]}`

func TestCacheParameterGroupRoundTrip(t *testing.T) {
	srv, url := serve(t, worldOf(liveOnly("AWS::ElastiCache::ParameterGroup", "app-redis7", cachePG)))
	c := live.NewClients(config(url))
	declared := declaredOf(t, cachePG)
	delete(declared, "CacheParameterGroupName")
	req := live.Request{Type: "AWS::ElastiCache::ParameterGroup", LogicalID: "Pg", PhysicalID: "app-redis7", Declared: declared}
	got := live.Read(ctx(t), c, req)
	if got.Status != live.Found || got.Route != live.RouteOverride {
		t.Fatalf("read: %+v", got)
	}
	if diff := cmp.Diff(got.Model, declaredOf(t, cachePG)); diff != "" {
		t.Errorf("model (-got +want):\n%s", diff)
	}
	if fs := classifyEntry(t, req, got.Model); len(fs) != 0 {
		t.Errorf("clean read classified as %+v", fs)
	}
	if err := srv.Apply(sandbox.Change{Op: sandbox.OpSet, Region: region, Type: req.Type, Identifier: "app-redis7", Path: "Properties.timeout", Value: json.RawMessage(`"0"`)}); err != nil {
		t.Fatal(err)
	}
	fs := classifyEntry(t, req, live.Read(ctx(t), c, req).Model)
	if len(fs) != 1 || fs[0].Tier != drift.Declared || !strings.HasPrefix(fs[0].Path, "Properties") {
		t.Errorf("parameter changed out of band: %+v, want one declared finding under Properties", fs)
	}
	if got := live.Read(ctx(t), c, live.Request{Type: req.Type, PhysicalID: "gone"}); got.Status != live.NotFound {
		t.Errorf("missing group: %+v, want notFound", got)
	}
	for _, f := range []sandbox.FaultRule{
		{Service: "elasticache", Action: "DescribeCacheParameters", Code: "Throttling", Status: 400},
		{Service: "elasticache", Action: "ListTagsForResource", Code: "AccessDenied", Status: 403},
	} {
		if err := srv.SetFaults([]sandbox.FaultRule{f}); err != nil {
			t.Fatal(err)
		}
		if got := live.Read(ctx(t), c, req); got.Status != live.Skipped || !strings.HasPrefix(got.Reason, "ElastiCache "+f.Action+": "+f.Code) {
			t.Errorf("%s %s: %+v, want skipped", f.Action, f.Code, got)
		}
	}
}
